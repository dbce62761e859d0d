//! The connection to a server: a framed client over TLS ([`dial`]; the shared codec) run as one
//! task that says hello, forwards server messages as [`Event`]s, sends what the client queues,
//! answers the server's pings, and after a lost connection reconnects so the player's seats
//! come back.
//!
//! The handshake ([`hello`], protocol 6): a person's `Hello` carries the name and the public key
//! of the name's key pair ([`crate::identity`], made on first use), plus the protocol-2 secret
//! this client still holds for the server and name, if any; the server answers with a
//! `Challenge` and the client signs it, bound to the certificate this connection showed
//! (`Prove`). The private key never leaves the machine. A guest has no
//! key: its `Hello` carries the resume token kept in the data directory
//! ([`crate::local::resume_tokens`]). The `Welcome` is forwarded as an event (it lists the games in
//! progress the player is seated in), then [`LinkEvent::Connected`].
//!
//! The first connection failing is final (a wrong address should be said at once); once
//! welcomed, a dropped connection is retried with a growing pause until shutdown. On a cluster
//! the retries go round the live nodes the server named (`Nodes`, kept in [`nodes`]), the
//! other nodes first, so a client whose node died is welcomed by another; a person is seated
//! again there by its key, and the games the new node does not give back at once are asked
//! for until their new owner runs them ([`reseat`]).

pub mod dial;
pub(crate) mod embedded;
pub mod event;
mod hello;
mod nodes;
mod reseat;
pub mod trust;

pub use dial::{DialError, Security, ServerStream};
pub(crate) use nodes::NodeList;
pub use reseat::Seats;

use hello::{Handshake, handshake};

use crate::identity::KeyStore;
use crate::local::resume_tokens::ResumeTokens;
use crate::local::secrets::SecretBook;
use crate::net::event::{Event, LinkEvent};
use futures::{SinkExt, StreamExt};
use kingme_shared::identity::{self, ChannelBinding, SigningKey};
use kingme_shared::protocol::{ClientCodec, ClientMessage, ErrorKind, FrameError, ServerMessage};
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
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
    /// The name the client plays under.
    pub name: String,
    /// The first pause before reconnecting; it doubles with each failed attempt.
    pub retry: Duration,
    /// Play as a guest: unrated, under a name nobody registered, no key.
    pub guest: bool,
    /// The protocol-2 secrets file: the secret for this server and name, if any, goes with
    /// the hello so that the server binds the name to this client's key. `None`: no secrets.
    pub secrets: Option<PathBuf>,
    /// Where the name's key is kept (made there on first use). `None`: a key made for this
    /// run only (tests).
    pub keys: Option<KeyStore>,
    /// Where a guest's resume token is kept. `None`: in memory only.
    pub resume_tokens: Option<ResumeTokens>,
    /// TLS and how the server's certificate is trusted, or plaintext.
    pub security: Security,
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
            secrets: crate::local::secrets::default_path(),
            keys: KeyStore::default_store(),
            resume_tokens: ResumeTokens::default_store(),
            security: Security::default_tls(),
        }
    }
}

/// Why a person is not signed in over plaintext without `--insecure`.
#[must_use]
pub(crate) fn plaintext_refusal(address: &str, name: &str) -> String {
    format!(
        "the connection to {address} is not encrypted (--plaintext), so signing in as {name} \
         would let that server, or anyone on the way, act as {name} at other servers that run \
         without TLS. Play as a guest (--guest), or pass --insecure if you trust the network \
         and the server"
    )
}

/// The warning of a person who signs in over plaintext anyway (`--insecure`).
#[must_use]
pub(crate) fn insecure_warning(address: &str, name: &str) -> String {
    format!(
        "warning: signing in as {name} without encryption (--insecure): {address}, or anyone \
         on the way, can read and change your games and act as {name} at other servers that \
         run without TLS"
    )
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
        let task = tokio::spawn(Connection::run(config, queue, events, shutdown));
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

/// The connection task's state: what one connection hands to the next (the secret until it
/// has done its work, the guest's resume token, whether this run was ever welcomed, the
/// pauses so far) and the channels to the client.
struct Connection {
    config: NetConfig,
    key: Option<SigningKey>,
    secret: Option<String>,
    token: Option<String>,
    /// Whether this run was welcomed once: a first connection that fails is final.
    welcomed: bool,
    /// Failed attempts since the last good connection.
    attempt: u32,
    /// The nodes to reconnect to.
    nodes: NodeList,
    /// The games the player sits in, asked for again after a reconnect.
    seats: Seats,
    queue: mpsc::Receiver<ClientMessage>,
    events: mpsc::Sender<Event>,
    shutdown: CancellationToken,
}

impl Connection {
    /// Connects, and reconnects after a loss, until the client is done or refused.
    async fn run(
        config: NetConfig,
        queue: mpsc::Receiver<ClientMessage>,
        events: mpsc::Sender<Event>,
        shutdown: CancellationToken,
    ) {
        let secret = known_secret(&config).await;
        let key = match load_key(&config).await {
            Ok(key) => key,
            Err(reason) => {
                let _ = events.send(Event::Link(LinkEvent::Closed { reason })).await;
                return;
            }
        };
        let token = stored_token(&config).await;
        let nodes = NodeList::new(config.address.clone());
        let mut connection = Connection {
            config,
            key,
            secret,
            token,
            welcomed: false,
            attempt: 0,
            nodes,
            seats: Seats::default(),
            queue,
            events,
            shutdown,
        };
        connection.keep_up().await;
    }

    async fn keep_up(&mut self) {
        // The first connection goes to the given address; a retry to the node its attempt
        // number picks.
        let mut target = 0;
        loop {
            let node = self.nodes.address(target).to_owned();
            let reason = match self.session(target).await {
                End::Done => return,
                End::Final(reason) => return self.close(reason).await,
                // Never welcomed: nothing to resume, and the address is probably wrong.
                End::Lost(reason) if !self.welcomed => return self.close(reason).await,
                End::Lost(reason) => reason,
            };
            target = self.nodes.for_attempt(self.attempt);
            let pause = self.nodes.pause(self.attempt, self.config.retry, MAX_RETRY);
            self.attempt += 1;
            let lost = LinkEvent::Lost {
                node,
                reason,
                next: self.nodes.address(target).to_owned(),
                retry_in_secs: pause.as_secs(),
            };
            if self.events.send(Event::Link(lost)).await.is_err() {
                return;
            }
            tokio::select! {
                () = self.shutdown.cancelled() => return,
                () = tokio::time::sleep(pause) => {}
            }
        }
    }

    /// Tells the client the connection is over for good.
    async fn close(&self, reason: String) {
        let _ = self
            .events
            .send(Event::Link(LinkEvent::Closed { reason }))
            .await;
    }

    /// One connection to node `target`: connect, say hello, then carry messages both ways
    /// until it ends. A guest whose kept token is refused starts afresh on a new connection.
    async fn session(&mut self, target: usize) -> End {
        loop {
            let address = self.nodes.address(target).to_owned();
            let (mut frames, binding) = match self.connect(&address).await {
                Ok(connected) => connected,
                Err(end) => return end,
            };
            let resuming = self.welcomed;
            let welcomed_games;
            let shake = tokio::select! {
                () = self.shutdown.cancelled() => return End::Done,
                shake = handshake(
                    &mut frames,
                    binding,
                    &self.config,
                    self.key.as_ref(),
                    self.secret.clone(),
                    self.token.clone(),
                ) => shake,
            };
            match shake {
                Handshake::Welcomed {
                    resume_token,
                    games,
                    message,
                } => {
                    welcomed_games = games;
                    self.nodes.connected_to(target);
                    if let Err(end) = self.welcomed(resume_token, *message).await {
                        return end;
                    }
                }
                Handshake::Refused(ErrorKind::Unauthorized, _)
                    if self.token.is_some() && self.config.guest =>
                {
                    // The guest's seats were given up meanwhile (the grace period ran out, or
                    // the token is another server's): start afresh.
                    self.token = None;
                    if let Some(store) = &self.config.resume_tokens {
                        store.forget(&self.config.name);
                    }
                    continue;
                }
                // Still going down: back later, as after a shutdown.
                Handshake::Refused(ErrorKind::ShuttingDown, message) => {
                    return End::Lost(message);
                }
                Handshake::Refused(_, message) => return End::Final(message),
                Handshake::Failed(end) => return end,
            }
            let connected = LinkEvent::Connected { resumed: resuming };
            if self.events.send(Event::Link(connected)).await.is_err() {
                return End::Done;
            }
            let games = self.seats.welcomed(&welcomed_games, Instant::now());
            if !games.is_empty() {
                let reseating = LinkEvent::Reseating { games };
                if self.events.send(Event::Link(reseating)).await.is_err() {
                    return End::Done;
                }
            }
            return self.carry(&mut frames).await;
        }
    }

    /// Opens the connection to `address` (TLS unless the server runs plaintext) and its frames,
    /// with the binding a proof on it signs. A person is not signed in over plaintext unless
    /// the person said so.
    async fn connect(
        &self,
        address: &str,
    ) -> Result<(Framed<ServerStream, ClientCodec>, ChannelBinding), End> {
        if let Security::Plaintext { sign_in } = self.config.security
            && !self.config.guest
        {
            if !sign_in {
                return Err(End::Final(plaintext_refusal(address, &self.config.name)));
            }
            self.notify(insecure_warning(address, &self.config.name))
                .await;
        }
        let dialed = tokio::select! {
            () = self.shutdown.cancelled() => return Err(End::Done),
            dialed = dial::dial(address, &self.config.security) => dialed,
        };
        match dialed {
            Ok(dialed) => {
                if let Some(notice) = dialed.notice {
                    self.notify(notice).await;
                }
                Ok((
                    Framed::new(dialed.stream, ClientCodec::client()),
                    dialed.binding,
                ))
            }
            Err(DialError::Unreachable(reason)) => Err(End::Lost(reason)),
            Err(DialError::Refused(reason)) => Err(End::Final(reason)),
        }
    }

    /// Tells the person something about the connection (a certificate trusted on first use).
    async fn notify(&self, text: String) {
        let _ = self
            .events
            .send(Event::Link(LinkEvent::Notice { text }))
            .await;
    }

    /// Keeps what the welcome gives and passes the welcome on.
    async fn welcomed(&mut self, resume_token: String, message: ServerMessage) -> Result<(), End> {
        if self.config.guest && self.token.as_deref() != Some(resume_token.as_str()) {
            keep_token(&self.config, &resume_token).await;
        }
        self.token = Some(resume_token);
        self.welcomed = true;
        // The name is bound to the key now: the old secret has done its work.
        self.secret = None;
        // A good session starts the pauses afresh.
        self.attempt = 0;
        if self.events.send(Event::Server(message)).await.is_err() {
            return Err(End::Done);
        }
        Ok(())
    }

    /// Sends what the client queues and passes on what the server says (answering its
    /// pings), until the connection ends.
    async fn carry(&mut self, frames: &mut Framed<ServerStream, ClientCodec>) -> End {
        loop {
            tokio::select! {
                () = self.shutdown.cancelled() => return End::Done,
                queued = self.queue.recv() => match queued {
                    Some(message) => {
                        if let Err(err) = frames.send(message).await {
                            return End::Lost(err.to_string());
                        }
                    }
                    None => return End::Done,
                },
                () = wait_until(self.seats.next_ask()) => match self.seats.ask(Instant::now()) {
                    Ok(asks) => {
                        for ask in asks {
                            if let Err(err) = frames.send(ask).await {
                                return End::Lost(err.to_string());
                            }
                        }
                    }
                    Err(games) => {
                        let gone = LinkEvent::Unseated { games };
                        if self.events.send(Event::Link(gone)).await.is_err() {
                            return End::Done;
                        }
                    }
                },
                frame = frames.next() => match frame {
                    Some(Ok(ServerMessage::Ping { nonce })) => {
                        if let Err(err) = frames.send(ClientMessage::Pong { nonce }).await {
                            return End::Lost(err.to_string());
                        }
                    }
                    Some(Ok(message)) if !self.seats.heard(&message) => {}
                    Some(Ok(message)) => {
                        if let ServerMessage::Nodes { addresses } = &message
                            && self.nodes.learn(addresses)
                        {
                            // A node died: the games it ran are taken over elsewhere, where
                            // this player must show itself again.
                            self.seats.recheck(Instant::now());
                        }
                        let end = ending(&message);
                        if self.events.send(Event::Server(message)).await.is_err() {
                            return End::Done;
                        }
                        if let Some(end) = end {
                            return end;
                        }
                    }
                    Some(Err(err)) => return read_failed(&err),
                    None => return End::Lost("the server closed the connection".to_owned()),
                },
            }
        }
    }
}

/// Waits until `at`, or for ever when there is nothing to wait for.
async fn wait_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// A connection whose reading failed: a server gone without TLS's goodbye (killed, or its
/// machine lost) is said in plain words, not in rustls's.
fn read_failed(err: &FrameError) -> End {
    match err {
        FrameError::Io(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            End::Lost("the server closed the connection".to_owned())
        }
        other => End::Lost(other.to_string()),
    }
}

/// How a server message ends the connection, if it does. A server going down keeps its games
/// for when it is back (PROTOCOL.md, `ShuttingDown`), so its going is a lost connection, tried
/// again with the same pauses as any other, never the end.
fn ending(message: &ServerMessage) -> Option<End> {
    match message {
        ServerMessage::ShuttingDown { message } => {
            Some(End::Lost(format!("the server shut down: {message}")))
        }
        ServerMessage::Error {
            kind,
            message,
            fatal: true,
        } => Some(match kind {
            ErrorKind::VersionMismatch | ErrorKind::Unauthorized => End::Final(message.clone()),
            _ => End::Lost(message.clone()),
        }),
        _ => None,
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

/// The name's key (a person's; guests have none), made and saved on first use. A key file
/// that cannot be read is an error that says why, never silently replaced.
async fn load_key(config: &NetConfig) -> Result<Option<SigningKey>, String> {
    if config.guest {
        return Ok(None);
    }
    let Some(store) = config.keys.clone() else {
        return Ok(Some(session_key()));
    };
    let name = config.name.clone();
    let loaded = tokio::task::spawn_blocking(move || store.load_or_create(&name, session_key))
        .await
        .map_err(|err| err.to_string())?;
    match loaded {
        Ok((key, _created)) => Ok(Some(key)),
        Err(err) => Err(format!("cannot use the key of {:?}: {err}", config.name)),
    }
}

/// A new key; a broken random source falls back to a key from the thread generator, which the
/// operating system seeds.
#[must_use]
pub(crate) fn session_key() -> SigningKey {
    identity::generate_key().unwrap_or_else(|_| SigningKey::from_bytes(&rand::random()))
}

/// A guest's kept resume token.
async fn stored_token(config: &NetConfig) -> Option<String> {
    let store = config.resume_tokens.clone().filter(|_| config.guest)?;
    let name = config.name.clone();
    tokio::task::spawn_blocking(move || store.load(&name))
        .await
        .ok()
        .flatten()
}

/// Keeps a guest's resume token for the next start.
async fn keep_token(config: &NetConfig, token: &str) {
    let Some(store) = config.resume_tokens.clone().filter(|_| config.guest) else {
        return;
    };
    let (name, token) = (config.name.clone(), token.to_owned());
    let saved = tokio::task::spawn_blocking(move || store.save(&name, &token)).await;
    if let Ok(Err(err)) = saved {
        tracing::warn!(%err, "cannot keep the guest's resume token");
    }
}
