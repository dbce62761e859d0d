//! The connection to a server: a framed TCP client (the shared codec) run as one task that
//! says hello, forwards server messages as [`Event`]s, sends what the client queues, answers
//! the server's pings, and after a lost connection reconnects with its resume token so the
//! player's seats come back.
//!
//! The first connection failing is final (a wrong address should be said at once); once
//! welcomed, a dropped connection is retried with a growing pause until shutdown.

use crate::event::{Event, LinkEvent};
use crate::secrets::SecretBook;
use futures::{SinkExt, StreamExt};
use kingme_shared::identity::{self, SigningKey};
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, ErrorKind, PROTOCOL_VERSION, ServerMessage,
};
use std::path::PathBuf;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::codec::Framed;
use tokio_util::sync::CancellationToken;

/// How long a connection attempt or the handshake may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest pause between reconnection attempts.
const MAX_RETRY: Duration = Duration::from_secs(8);
/// Messages queued for sending before `send` waits.
const OUTGOING_QUEUE: usize = 64;

/// Where to connect and as whom.
#[derive(Debug, Clone)]
pub struct NetConfig {
    /// `host:port`.
    pub address: String,
    pub name: String,
    /// The first pause before reconnecting; it doubles with each failed attempt.
    pub retry: Duration,
    /// Play as a guest: unrated, under a name nobody registered, no secret.
    pub guest: bool,
    /// The file of protocol-2 name secrets: the secret for this server and name is presented
    /// in the hello, so a name registered before keys is bound to this client's key.
    pub secrets: Option<PathBuf>,
    /// The key that proves the name.
    pub key: SigningKey,
}

impl NetConfig {
    /// Connects to `address` as `name`, retrying after one second, then two, four, eight.
    #[must_use]
    pub fn new(address: String, name: String) -> NetConfig {
        NetConfig {
            address,
            name,
            retry: Duration::from_secs(1),
            guest: false,
            secrets: crate::secrets::default_path(),
            key: session_key(),
        }
    }
}

/// The client's end of the connection task.
#[derive(Debug)]
pub struct Net {
    /// Queue a message for the server.
    pub outgoing: mpsc::Sender<ClientMessage>,
    task: JoinHandle<()>,
}

impl Net {
    /// Starts the connection task; its events go to `events`. The task ends when `shutdown`
    /// is cancelled, when every sender of `outgoing` is gone (after sending what was queued),
    /// or when the server refuses the client for good.
    #[must_use]
    pub fn spawn(
        config: NetConfig,
        events: mpsc::Sender<Event>,
        shutdown: CancellationToken,
    ) -> Net {
        let (outgoing, queue) = mpsc::channel(OUTGOING_QUEUE);
        let task = tokio::spawn(run(config, queue, events, shutdown));
        Net { outgoing, task }
    }

    /// Stops queuing, lets the task send what was queued, and waits (briefly) for it to end.
    pub async fn close(self) {
        let Net { outgoing, task } = self;
        drop(outgoing);
        let _ = tokio::time::timeout(Duration::from_secs(2), task).await;
    }
}

/// How a session ended.
enum End {
    /// The client is done (shutdown, or no more messages to send).
    Done,
    /// The connection dropped; worth reconnecting.
    Lost(String),
    /// The server refused us or went away for good.
    Final(String),
}

async fn run(
    config: NetConfig,
    mut queue: mpsc::Receiver<ClientMessage>,
    events: mpsc::Sender<Event>,
    shutdown: CancellationToken,
) {
    let mut token: Option<String> = None;
    let mut attempt: u32 = 0;
    let mut secret = known_secret(&config).await;
    loop {
        let end = session(
            &config,
            &mut secret,
            &mut token,
            &mut attempt,
            &mut queue,
            &events,
            &shutdown,
        )
        .await;
        let reason = match end {
            End::Done => return,
            End::Final(reason) => {
                let _ = events.send(Event::Link(LinkEvent::Closed { reason })).await;
                return;
            }
            End::Lost(reason) if token.is_none() => {
                // Never welcomed: nothing to resume, and the address is probably wrong.
                let _ = events.send(Event::Link(LinkEvent::Closed { reason })).await;
                return;
            }
            End::Lost(reason) => reason,
        };
        let pause = (config.retry * (1 << attempt.min(3))).min(MAX_RETRY);
        attempt += 1;
        let lost = LinkEvent::Lost {
            reason,
            retry_in_secs: pause.as_secs(),
        };
        if events.send(Event::Link(lost)).await.is_err() {
            return;
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(pause) => {}
        }
    }
}

/// The secret this client holds for its name on its server, if any.
async fn known_secret(config: &NetConfig) -> Option<String> {
    let path = config.secrets.clone().filter(|_| !config.guest)?;
    let (server, name) = (config.address.clone(), config.name.clone());
    tokio::task::spawn_blocking(move || match SecretBook::load(&path) {
        Ok(book) => book.secret(&server, &name).map(str::to_owned),
        Err(err) => {
            tracing::warn!(%err, "cannot read the secrets file");
            None
        }
    })
    .await
    .ok()
    .flatten()
}

/// A key for this run only (until keys are kept in files); a broken random source falls back
/// to a key from the thread generator, which the operating system seeds.
#[must_use]
pub fn session_key() -> SigningKey {
    identity::generate_key().unwrap_or_else(|_| SigningKey::from_bytes(&rand::random()))
}

async fn session(
    config: &NetConfig,
    secret: &mut Option<String>,
    token: &mut Option<String>,
    attempt: &mut u32,
    queue: &mut mpsc::Receiver<ClientMessage>,
    events: &mpsc::Sender<Event>,
    shutdown: &CancellationToken,
) -> End {
    let connect = tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(&config.address));
    let stream = tokio::select! {
        () = shutdown.cancelled() => return End::Done,
        result = connect => match result {
            Ok(Ok(stream)) => stream,
            Ok(Err(err)) => return End::Lost(format!("cannot connect to {}: {err}", config.address)),
            Err(_) => return End::Lost(format!("no answer from {} within {} s", config.address, CONNECT_TIMEOUT.as_secs())),
        },
    };
    let _ = stream.set_nodelay(true);
    let mut frames = Framed::new(stream, ClientCodec::client());
    let resuming = token.is_some();
    let key = (!config.guest).then_some(&config.key);
    let hello = ClientMessage::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: config.name.clone(),
        public_key: key.map(|key| key.verifying_key().to_bytes()),
        legacy_secret: secret.clone(),
        resume: token.clone().filter(|_| config.guest),
        guest: config.guest,
    };
    if let Err(err) = frames.send(hello).await {
        return End::Lost(err.to_string());
    }
    let mut answer = tokio::time::timeout(CONNECT_TIMEOUT, frames.next()).await;
    if let (Ok(Some(Ok(ServerMessage::Challenge { server_id, nonce }))), Some(key)) = (&answer, key)
    {
        let signature = identity::sign_proof(key, server_id, nonce, &config.name);
        if let Err(err) = frames.send(ClientMessage::Prove { signature }).await {
            return End::Lost(err.to_string());
        }
        answer = tokio::time::timeout(CONNECT_TIMEOUT, frames.next()).await;
    }
    match answer {
        Ok(Some(Ok(ServerMessage::Welcome { resume_token, .. }))) => {
            *token = Some(resume_token);
            // A good session starts the pauses afresh.
            *attempt = 0;
        }
        Ok(Some(Ok(ServerMessage::Error {
            kind: ErrorKind::Unauthorized,
            ..
        }))) if resuming => {
            // The seats were given up meanwhile (the grace period ran out): start afresh.
            *token = None;
            return Box::pin(session(
                config, secret, token, attempt, queue, events, shutdown,
            ))
            .await;
        }
        Ok(Some(Ok(ServerMessage::Error { message, .. }))) => return End::Final(message),
        Ok(Some(Ok(other))) => {
            return End::Final(format!("the server answered the hello with {other:?}"));
        }
        Ok(Some(Err(err))) => return End::Lost(err.to_string()),
        Ok(None) => return End::Lost("the server closed the connection".to_owned()),
        Err(_) => return End::Lost("the server did not answer the hello".to_owned()),
    }
    let connected = LinkEvent::Connected { resumed: resuming };
    if events.send(Event::Link(connected)).await.is_err() {
        return End::Done;
    }
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return End::Done,
            queued = queue.recv() => match queued {
                Some(message) => {
                    if let Err(err) = frames.send(message).await {
                        return End::Lost(err.to_string());
                    }
                }
                None => return End::Done,
            },
            frame = frames.next() => match frame {
                Some(Ok(ServerMessage::Ping { nonce })) => {
                    if let Err(err) = frames.send(ClientMessage::Pong { nonce }).await {
                        return End::Lost(err.to_string());
                    }
                }
                Some(Ok(message)) => {
                    let end = match &message {
                        ServerMessage::ShuttingDown { message } => {
                            Some(End::Final(format!("the server shut down: {message}")))
                        }
                        ServerMessage::Error { kind, message, fatal: true } => Some(match kind {
                            ErrorKind::VersionMismatch | ErrorKind::Unauthorized | ErrorKind::ShuttingDown => {
                                End::Final(message.clone())
                            }
                            _ => End::Lost(message.clone()),
                        }),
                        _ => None,
                    };
                    if events.send(Event::Server(message)).await.is_err() {
                        return End::Done;
                    }
                    if let Some(end) = end {
                        return end;
                    }
                }
                Some(Err(err)) => return End::Lost(err.to_string()),
                None => return End::Lost("the server closed the connection".to_owned()),
            },
        }
    }
}

/// The default display name: the user's login name, cut to the protocol's limit.
#[must_use]
pub fn default_name() -> String {
    let name = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let name: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(kingme_shared::protocol::MAX_NAME_CHARS)
        .collect();
    if name.trim().is_empty() {
        "player".to_owned()
    } else {
        name
    }
}
