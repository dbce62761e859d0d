//! One client's connection: frames in and out, the handshake, the idle timeout with ping and
//! pong, the rate limit, and routing each request to the lobby or a game's table.
//!
//! Reading and writing are separate tasks joined by the connection's [`Outbox`]: a client that
//! stops reading fills its own queue and is dropped, while reading, tables and other
//! connections go on. Whatever closes a connection is logged with the reason.

use crate::error::Refusal;
use crate::lobby;
use crate::outbox::Outbox;
use crate::rate_limit::RateLimiter;
use crate::server::Shared;
use crate::session::{Attachment, Session};
use crate::storage::records::unix_ms;
use crate::storage::{Claim, HistoryQuery, IdentityError, StoreError};
use crate::table::TableCommand;
use futures::{SinkExt, StreamExt};
use kingme_shared::identity;
use kingme_shared::protocol::{
    ClientMessage, ErrorKind, FrameError, GameStatus, MAX_HISTORY_ENTRIES, MAX_NAME_CHARS,
    PROTOCOL_VERSION, SeatHolder, ServerCodec, ServerMessage,
};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};
use tokio_util::codec::{FramedRead, FramedWrite};
use tokio_util::sync::CancellationToken;

/// The starting size of a connection's read and write buffers. Most messages are far smaller
/// than the codec's default of 8 KiB, and thousands of idle connections would hold it for nothing;
/// a buffer grows when a larger frame comes.
const BUFFER_START: usize = 512;
/// How long a closing connection may take to write what was queued for it.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long, and how many bytes, a closed connection's input is drained (see [`linger`]).
const LINGER_TIME: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 256 * 1024;

/// Serves one accepted connection until it closes.
pub async fn serve(stream: TcpStream, peer: SocketAddr, id: u64, shared: Arc<Shared>) {
    // Moves are small and latency matters more than packet count.
    let _ = stream.set_nodelay(true);
    let (read, write) = stream.into_split();
    let kick = CancellationToken::new();
    let closing = CancellationToken::new();
    let (outbox, queue) = Outbox::channel(shared.config.outbox_capacity, kick.clone());
    let writer = tokio::spawn(write_frames(
        FramedWrite::with_capacity(write, ServerCodec::server(), BUFFER_START),
        queue,
        closing.clone(),
        kick.clone(),
    ));
    tracing::info!(connection = id, %peer, "connection opened");
    let mut connection = Connection {
        id,
        frames: FramedRead::with_capacity(read, ServerCodec::server(), BUFFER_START),
        outbox,
        kick,
        shared,
        watch_only: None,
    };
    let reason = connection.run().await;
    tracing::info!(connection = id, %peer, %reason, "connection closed");
    let Connection { frames, shared, .. } = connection;
    closing.cancel();
    let _ = writer.await;
    // At shutdown nobody waits for stragglers.
    let stop = shared.connections.clone();
    tokio::select! {
        () = linger(frames.into_inner()) => {}
        () = stop.cancelled() => {}
    }
}

/// Reads and drops what the client still sends for a moment after the goodbye was written.
/// Closing a socket with unread input makes the kernel reset the connection, and a reset can
/// destroy the goodbye (the error saying why) before the client reads it.
async fn linger(mut read: OwnedReadHalf) {
    let mut sink = [0_u8; 4096];
    let drain = async {
        let mut total = 0_usize;
        while total < LINGER_BYTES {
            match read.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, drain).await;
}

struct Connection {
    id: u64,
    frames: FramedRead<OwnedReadHalf, ServerCodec>,
    outbox: Outbox,
    /// Cancelled when the client reads too slowly.
    kick: CancellationToken,
    shared: Arc<Shared>,
    /// Set when the database failed while letting the client in: it may only list and watch
    /// games, and this says why to every request that would need storing.
    watch_only: Option<String>,
}

/// A database failure as a refusal the client can show.
fn storage_refusal(err: &crate::storage::StoreError) -> Refusal {
    tracing::error!(%err, "storage request failed");
    Refusal::not_allowed(format!(
        "the server could not read its database ({err}); try again"
    ))
}

/// A refused identity as the error the client shows.
fn identity_refusal(err: &IdentityError) -> Refusal {
    let kind = match err {
        IdentityError::Store(_) => ErrorKind::NotAllowed,
        _ => ErrorKind::Unauthorized,
    };
    Refusal::new(kind, err.to_string())
}

/// Checks a display name: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
fn check_name(name: &str) -> Result<String, Refusal> {
    let name = name.trim();
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(Refusal::new(
            ErrorKind::Unauthorized,
            format!(
                "a name must be 1 to {MAX_NAME_CHARS} characters without control characters, \
                 got {length} characters"
            ),
        ));
    }
    Ok(name.to_owned())
}

impl Connection {
    async fn run(&mut self) -> String {
        let (session, replaced) = match self.handshake().await {
            Ok(hello) => hello,
            Err(reason) => return reason,
        };
        let reason = self.serve_session(&session, &replaced).await;
        self.depart(&session);
        reason
    }

    /// Tells the client a fatal error; the returned reason is for the log.
    fn fatal(&self, refusal: &Refusal) -> String {
        self.outbox.send(refusal.to_message(true));
        format!("{:?}: {}", refusal.kind, refusal.message)
    }

    fn bad_frame(&self, err: FrameError) -> String {
        match err {
            FrameError::Io(err) => format!("read error: {err}"),
            err => self.fatal(&Refusal::new(
                ErrorKind::Malformed,
                format!("{err}; closing the connection"),
            )),
        }
    }

    fn shutting_down(&self) -> String {
        self.outbox.send(ServerMessage::ShuttingDown {
            message: "the server is shutting down; your games are kept and resume when it is back \
                      (kingme reconnects by itself)"
                .to_owned(),
        });
        "server shutting down".to_owned()
    }

    /// Reads the hello and answers it: a new session or a resumed one.
    async fn handshake(&mut self) -> Result<(Arc<Session>, CancellationToken), String> {
        let limit = self.shared.config.handshake_timeout;
        let first = tokio::select! {
            () = self.shared.connections.cancelled() => return Err(self.shutting_down()),
            first = tokio::time::timeout(limit, self.frames.next()) => first,
        };
        let message = match first {
            Err(_elapsed) => {
                return Err(self.fatal(&Refusal::new(
                    ErrorKind::HandshakeRequired,
                    format!("no Hello within {} s; say Hello first", limit.as_secs()),
                )));
            }
            Ok(None) => return Err("closed before saying hello".to_owned()),
            Ok(Some(Err(err))) => return Err(self.bad_frame(err)),
            Ok(Some(Ok(message))) => message,
        };
        let ClientMessage::Hello {
            protocol_version,
            name,
            public_key,
            legacy_secret,
            resume,
            guest,
        } = message
        else {
            return Err(self.fatal(&Refusal::new(
                ErrorKind::HandshakeRequired,
                "the first message must be Hello",
            )));
        };
        if protocol_version != PROTOCOL_VERSION {
            return Err(self.fatal(&Refusal::new(
                ErrorKind::VersionMismatch,
                format!(
                    "this server speaks protocol version {PROTOCOL_VERSION}, the client version \
                     {protocol_version}; use a client of the same version"
                ),
            )));
        }
        let name = check_name(&name).map_err(|refusal| self.fatal(&refusal))?;
        let (session, token) = if guest {
            if public_key.is_some() {
                return Err(self.fatal(&Refusal::new(
                    ErrorKind::Malformed,
                    "a guest's hello carries no public key; leave it out, or connect as a person",
                )));
            }
            self.admit_guest(name, resume).await?
        } else {
            let Some(public_key) = public_key else {
                return Err(self.fatal(&Refusal::new(
                    ErrorKind::Unauthorized,
                    format!(
                        "the name {name:?} needs a public key to prove who you are (kingme makes \
                         one the first time a name is used); or connect as a guest"
                    ),
                )));
            };
            self.prove(&name, &public_key).await?;
            let claim = Claim::Person {
                public_key,
                legacy_secret,
            };
            let admitted = self
                .shared
                .storage
                .admit(name.clone(), claim, unix_ms())
                .await;
            match admitted {
                Ok(_) => (self.shared.sessions.person(&name), String::new()),
                Err(IdentityError::Store(err)) => self.admit_watcher(name, &err),
                Err(err) => return Err(self.fatal(&identity_refusal(&err))),
            }
        };
        let replaced = CancellationToken::new();
        let previous = session.attach(Attachment {
            connection: self.id,
            outbox: self.outbox.clone(),
            replaced: replaced.clone(),
        });
        if let Some(previous) = previous {
            previous.replaced.cancel();
        }
        let tables = session.games();
        let games = tables
            .iter()
            .filter(|table| {
                let summary = table.summary();
                !matches!(summary.status, GameStatus::Over(_))
                    && summary.seats.iter().any(|seat| {
                        matches!(seat, SeatHolder::Human { name, .. } if *name == session.name)
                    })
            })
            .map(|table| table.id)
            .collect();
        tracing::info!(connection = self.id, player = session.id.0, name = %session.name, guest, returning = !tables.is_empty(), "hello");
        self.outbox.send(ServerMessage::Welcome {
            protocol_version: PROTOCOL_VERSION,
            player: session.id,
            resume_token: token,
            games,
        });
        if let Some(notice) = &self.watch_only {
            self.outbox.send(ServerMessage::Error {
                kind: ErrorKind::NotAllowed,
                message: notice.clone(),
                fatal: false,
            });
        }
        // The player's games (seats kept while it was away, or held by an older connection)
        // send their state to this connection, and the others hear that the player is back.
        for table in tables {
            table
                .send(TableCommand::Reconnected {
                    session: Arc::clone(&session),
                })
                .await;
        }
        Ok((session, replaced))
    }

    /// Challenges the client to prove it holds the private key of `public_key`, and checks the
    /// signature it answers with.
    async fn prove(&mut self, name: &str, public_key: &[u8; 32]) -> Result<(), String> {
        if !identity::is_valid_public_key(public_key) {
            return Err(self.fatal(&Refusal::new(
                ErrorKind::Malformed,
                "the public key is not a valid Ed25519 key; remove the damaged key file or \
                 use --name to choose another name",
            )));
        }
        let nonce = identity::new_nonce().map_err(|err| {
            self.fatal(&Refusal::not_allowed(format!(
                "the server has no random numbers for a challenge ({err}); try again later"
            )))
        })?;
        self.outbox.send(ServerMessage::Challenge {
            server_id: self.shared.server_id.clone(),
            nonce,
        });
        let limit = self.shared.config.handshake_timeout;
        let answer = tokio::select! {
            () = self.shared.connections.cancelled() => return Err(self.shutting_down()),
            answer = tokio::time::timeout(limit, self.frames.next()) => answer,
        };
        let signature = match answer {
            Err(_elapsed) => {
                return Err(self.fatal(&Refusal::new(
                    ErrorKind::HandshakeRequired,
                    format!(
                        "no Prove within {} s; sign the challenge and answer Prove",
                        limit.as_secs()
                    ),
                )));
            }
            Ok(None) => return Err("closed before proving its key".to_owned()),
            Ok(Some(Err(err))) => return Err(self.bad_frame(err)),
            Ok(Some(Ok(ClientMessage::Prove { signature }))) => signature,
            Ok(Some(Ok(_))) => {
                return Err(self.fatal(&Refusal::new(
                    ErrorKind::HandshakeRequired,
                    "the answer to Challenge must be Prove",
                )));
            }
        };
        identity::verify_proof(public_key, &self.shared.server_id, &nonce, name, &signature)
            .map_err(|err| {
                self.fatal(&Refusal::new(
                    ErrorKind::Unauthorized,
                    format!("{err}; the name {name:?} was not admitted"),
                ))
            })
    }

    /// Lets a client in to watch only, because the database failed while checking its name:
    /// a session of its own (no seats, no token, found by nobody), and the notice saying what is
    /// wrong, sent after the `Welcome` and again with every refused request.
    fn admit_watcher(&mut self, name: String, err: &StoreError) -> (Arc<Session>, String) {
        tracing::error!(connection = self.id, %err, "the database failed at hello; letting the client in to watch only");
        self.watch_only = Some(format!(
            "the server cannot use its database right now ({err}), so it cannot keep games: you \
             are let in to list and watch games, but creating, joining and playing are paused; \
             connect again later to play (if this lasts, tell the server's operator)"
        ));
        (self.shared.sessions.watcher(name), String::new())
    }

    /// Lets a guest in: back into the session its token names, or as a new guest under a name
    /// nobody registered, with a new token that is stored so it still works after a restart.
    async fn admit_guest(
        &mut self,
        name: String,
        resume: Option<String>,
    ) -> Result<(Arc<Session>, String), String> {
        if let Some(token) = resume {
            let session = self
                .shared
                .sessions
                .resume(&token)
                .filter(|session| session.guest)
                .ok_or_else(|| {
                    self.fatal(&Refusal::new(
                        ErrorKind::Unauthorized,
                        "unknown or expired resume token; connect without one for a new session",
                    ))
                })?;
            return Ok((session, token));
        }
        let storage = &self.shared.storage;
        match storage.admit(name.clone(), Claim::Guest, unix_ms()).await {
            Ok(_) => {}
            Err(IdentityError::Store(err)) => return Ok(self.admit_watcher(name, &err)),
            Err(err) => return Err(self.fatal(&identity_refusal(&err))),
        }
        let (session, token) = self.shared.sessions.create_guest(name.clone());
        if let Err(err) = storage.save_resume_token(&token, name, unix_ms()).await {
            // The session still works until a restart; only resuming after one is lost.
            tracing::error!(%err, "could not store a resume token");
        }
        Ok((session, token))
    }

    async fn serve_session(
        &mut self,
        session: &Arc<Session>,
        replaced: &CancellationToken,
    ) -> String {
        let config = &self.shared.config;
        let idle = config.idle_timeout;
        let mut limiter =
            RateLimiter::new(config.rate_burst, config.rate_per_second, Instant::now());
        let mut heard = Instant::now();
        let mut pinged = false;
        let connections = self.shared.connections.clone();
        let kick = self.kick.clone();
        loop {
            let deadline = heard + if pinged { idle * 2 } else { idle };
            tokio::select! {
                () = connections.cancelled() => return self.shutting_down(),
                () = kick.cancelled() => return "too slow reading its messages".to_owned(),
                () = replaced.cancelled() => {
                    return self.fatal(&Refusal::new(
                        ErrorKind::Unauthorized,
                        format!(
                            "another kingme signed in as {:?} and took over its games; this \
                             connection is closed (quit the other one to play here)",
                            session.name
                        ),
                    ));
                }
                () = tokio::time::sleep_until(deadline) => {
                    if pinged {
                        return self.fatal(&Refusal::new(
                            ErrorKind::Timeout,
                            format!("nothing heard for {} s; closing", (idle * 2).as_secs()),
                        ));
                    }
                    pinged = true;
                    self.outbox.send(ServerMessage::Ping { nonce: self.id });
                }
                frame = self.frames.next() => match frame {
                    None => return "closed by the client".to_owned(),
                    Some(Err(err)) => return self.bad_frame(err),
                    Some(Ok(message)) => {
                        heard = Instant::now();
                        pinged = false;
                        // The limit counts requests; a pong only answers the server's own
                        // ping and costs it nothing.
                        let counted = !matches!(message, ClientMessage::Pong { .. });
                        if counted && !limiter.allow(heard) {
                            return self.fatal(&Refusal::new(
                                ErrorKind::LimitExceeded,
                                format!(
                                    "more than {} messages in a burst or {} a second; slow down",
                                    config.rate_burst, config.rate_per_second
                                ),
                            ));
                        }
                        self.dispatch(session, message).await;
                    }
                },
            }
        }
    }

    async fn dispatch(&self, session: &Arc<Session>, message: ClientMessage) {
        if let Some(notice) = &self.watch_only
            && !watcher_may(&message)
        {
            self.outbox
                .send(Refusal::not_allowed(notice.clone()).to_message(false));
            return;
        }
        let refused = match message {
            ClientMessage::Hello { .. } => Some(Refusal::not_allowed("you said Hello already")),
            ClientMessage::Prove { .. } => Some(Refusal::not_allowed(
                "Prove answers a Challenge; none is open",
            )),
            ClientMessage::Ping { nonce } => {
                self.outbox.send(ServerMessage::Pong { nonce });
                None
            }
            ClientMessage::Pong { .. } => None,
            ClientMessage::ListGames => {
                self.outbox.send(ServerMessage::GameList {
                    games: self.shared.lobby.list(),
                });
                None
            }
            ClientMessage::CreateGame(options) => {
                lobby::create_game(&self.shared, session, &options).err()
            }
            ClientMessage::History { player, kind } => {
                let query = HistoryQuery {
                    player,
                    kind,
                    limit: MAX_HISTORY_ENTRIES,
                };
                match self.shared.storage.history(query).await {
                    Ok(games) => {
                        self.outbox.send(ServerMessage::History { games });
                        None
                    }
                    Err(err) => Some(storage_refusal(&err)),
                }
            }
            ClientMessage::Leaderboard { kind } => {
                match self.shared.storage.leaderboard(kind).await {
                    Ok(entries) => {
                        self.outbox.send(ServerMessage::Leaderboard { entries });
                        None
                    }
                    Err(err) => Some(storage_refusal(&err)),
                }
            }
            ClientMessage::Export { game } => match self.shared.storage.game(game).await {
                Ok(Some(stored)) => {
                    self.outbox.send(ServerMessage::Record {
                        game,
                        record: stored.to_record(),
                    });
                    None
                }
                Ok(None) => Some(Refusal::new(
                    ErrorKind::NoSuchGame,
                    format!("no game {game} is stored; History lists the finished games"),
                )),
                Err(err) => Some(storage_refusal(&err)),
            },
            message => match message.game().map(|game| self.shared.lobby.table(game)) {
                Some(Ok(table)) => {
                    let game = table.id;
                    let command = TableCommand::Request {
                        session: Arc::clone(session),
                        message,
                    };
                    (!table.send(command).await).then(|| {
                        Refusal::new(ErrorKind::NoSuchGame, format!("game {game} has closed"))
                    })
                }
                Some(Err(refusal)) => Some(refusal),
                None => None,
            },
        };
        if let Some(refusal) = refused {
            self.outbox.send(refusal.to_message(false));
        }
    }

    /// The connection is gone: the player's games hear of it, and its token expires unless it
    /// comes back within the grace period.
    fn depart(&self, session: &Arc<Session>) {
        let Some(absence) = session.detach(self.id) else {
            return;
        };
        let tables = session.games();
        let player = session.id;
        let grace = self.shared.config.grace;
        let shared = Arc::clone(&self.shared);
        let session = Arc::clone(session);
        self.shared.timers.spawn(async move {
            for table in tables {
                table.send(TableCommand::Disconnected { player }).await;
            }
            tokio::select! {
                () = tokio::time::sleep(grace) => shared.sessions.expire(&session, absence),
                () = shared.connections.cancelled() => {}
            }
        });
    }
}

/// Whether a client let in to watch only (see [`Connection::admit_watcher`]) may send
/// `message`: reading and watching, nothing that seats it or changes a game.
fn watcher_may(message: &ClientMessage) -> bool {
    matches!(
        message,
        ClientMessage::Ping { .. }
            | ClientMessage::Pong { .. }
            | ClientMessage::ListGames
            | ClientMessage::Watch { .. }
            | ClientMessage::Leave { .. }
            | ClientMessage::History { .. }
            | ClientMessage::Leaderboard { .. }
            | ClientMessage::Export { .. }
    )
}

/// Writes queued messages as frames until the connection closes; on closing, writes what was
/// queued (the goodbye) and shuts the socket's write side.
async fn write_frames(
    mut sink: FramedWrite<OwnedWriteHalf, ServerCodec>,
    mut queue: mpsc::Receiver<Box<ServerMessage>>,
    closing: CancellationToken,
    kick: CancellationToken,
) {
    loop {
        let message = tokio::select! {
            biased;
            () = kick.cancelled() => return,
            () = closing.cancelled() => None,
            message = queue.recv() => message,
        };
        let Some(message) = message else { break };
        let written = tokio::select! {
            () = kick.cancelled() => return,
            written = write_batch(&mut sink, message, &mut queue) => written,
        };
        if written.is_err() {
            return;
        }
    }
    let finish = async {
        while let Ok(message) = queue.try_recv() {
            sink.feed(*message).await?;
        }
        sink.flush().await?;
        sink.get_mut().shutdown().await?;
        Ok::<(), FrameError>(())
    };
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, finish).await;
}

/// Writes a message and every other one already queued, then flushes once.
async fn write_batch(
    sink: &mut FramedWrite<OwnedWriteHalf, ServerCodec>,
    first: Box<ServerMessage>,
    queue: &mut mpsc::Receiver<Box<ServerMessage>>,
) -> Result<(), FrameError> {
    sink.feed(*first).await?;
    while let Ok(message) = queue.try_recv() {
        sink.feed(*message).await?;
    }
    sink.flush().await
}
