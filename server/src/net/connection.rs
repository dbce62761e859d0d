//! One client's connection: messages in, the idle timeout with ping and pong, the rate limit, and
//! routing each request to the lobby or a game's table ([`super::handshake`] admits the client
//! first, [`super::frames`] writes what is queued for it).
//!
//! Reading and writing are separate tasks joined by the connection's [`Outbox`]: a client that
//! stops reading fills its own queue and is dropped, while reading, tables and other
//! connections go on. Whatever closes a connection is logged with its [`CloseReason`].
//!
//! The transport is a parameter ([`serve_transport`], [`super::transport`]): a stream of decoded
//! [`ClientMessage`]s in and a sink of [`ServerMessage`]s out. [`serve`] gives it a TCP socket with the binary frames;
//! `super::web` gives it a WebSocket with JSON text frames. Everything above the bytes (the
//! handshake, the limits, the routing) is this one code for both doors.

use super::client_version::ClientVersion;
use super::close_reason::CloseReason;
use super::context::ConnectionContext;
use super::frames::{linger, write_frames};
use super::notices::{Notice, next_notice};
use super::rate_limit::RateLimiter;
use super::tls;
use super::transport::{Incoming, Outgoing};
use crate::config::Limits;
use crate::game::TableCommand;
use crate::game::analysis::Asked;
use crate::game::analysis::job::{Running, next_event};
use crate::lobby::feed::{GameListFeed, next_list};
use crate::players::{Outbox, Session};
use crate::refusal::Refusal;
use crate::storage::HistoryQuery;
use crate::telemetry::{ConnectionGauge, Door};
use futures::StreamExt;
use kingme_shared::identity::ChannelBinding;
use kingme_shared::protocol::{
    ANNOUNCEMENT_VERSION, ClientMessage, FrameError, GameId, MAX_HISTORY_ENTRIES, ServerCodec,
    ServerMessage,
};
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::codec::{FramedRead, FramedWrite};
use tokio_util::sync::CancellationToken;

/// The starting size of a connection's read and write buffers. Most messages are far smaller
/// than the codec's default of 8 KiB, and thousands of idle connections would hold it for nothing;
/// a buffer grows when a larger frame comes.
const BUFFER_START: usize = 512;

/// Serves one accepted TCP connection (binary frames) until it closes: over TLS, after its
/// handshake (within the hello's time limit), unless the server runs `--plaintext`.
pub async fn serve(stream: TcpStream, peer: SocketAddr, id: u64, context: Arc<ConnectionContext>) {
    let _counted = ConnectionGauge::open(Door::Tcp);
    // Moves are small and latency matters more than packet count.
    let _ = stream.set_nodelay(true);
    let Some(certified) = context.tls.current() else {
        let binding = context.tls.binding(None);
        return serve_stream(stream, peer, binding, id, context).await;
    };
    let limit = context.live.current().handshake_timeout;
    let handshake = tokio::select! {
        () = context.connections.cancelled() => return,
        handshake = tokio::time::timeout(limit, tls::accept(&certified, stream)) => handshake,
    };
    match handshake {
        Ok(Ok(stream)) => {
            let binding = context.tls.binding(Some(&certified));
            serve_stream(stream, peer, binding, id, context).await;
        }
        // Not TLS, or broken off: nobody to tell in the protocol's words.
        Ok(Err(err)) => {
            tracing::info!(connection = id, %peer, %err, "TLS handshake failed; closed");
        }
        Err(_elapsed) => {
            tracing::info!(connection = id, %peer, "no TLS handshake in time; closed");
        }
    }
}

/// Serves one client's byte stream (a socket, or TLS over one) with the binary frames.
async fn serve_stream<S: AsyncRead + AsyncWrite + Send + 'static>(
    stream: S,
    peer: SocketAddr,
    binding: ChannelBinding,
    id: u64,
    context: Arc<ConnectionContext>,
) {
    let (read, write) = tokio::io::split(stream);
    let frames = FramedRead::with_capacity(read, ServerCodec::server(), BUFFER_START);
    let sink = FramedWrite::with_capacity(write, ServerCodec::server(), BUFFER_START);
    let stop = context.connections.clone();
    let end = Peer {
        address: peer,
        binding,
    };
    let frames = serve_transport(frames, sink, end, id, context).await;
    // At shutdown nobody waits for stragglers.
    tokio::select! {
        () = linger(frames.into_inner()) => {}
        () = stop.cancelled() => {}
    }
}

/// Takes the live limits again if SIGHUP changed them since they were read into `limits`, and
/// holds `limiter` to the new rate.
fn refresh(live: &mut watch::Receiver<Limits>, limits: &mut Limits, limiter: &mut RateLimiter) {
    if live.has_changed().unwrap_or(false) {
        *limits = *live.borrow_and_update();
        limiter.adjust(limits.rate_burst, limits.rate_per_second);
    }
}

/// The other end of a connection, as the transport knows it.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// Its address (a proxy's, behind one).
    pub address: SocketAddr,
    /// What a person's proof on this connection must sign.
    pub binding: ChannelBinding,
}

/// Serves one client over any transport until it closes; hands back the reading side, drained
/// of nothing, for the transport's own goodbye.
pub async fn serve_transport<F: Incoming>(
    frames: F,
    sink: impl Outgoing,
    end: Peer,
    id: u64,
    context: Arc<ConnectionContext>,
) -> F {
    let kick = CancellationToken::new();
    let closing = CancellationToken::new();
    let (outbox, queue) = Outbox::channel(context.limits.outbox_capacity, kick.clone());
    let version = ClientVersion::default();
    let writer = tokio::spawn(write_frames(
        sink,
        queue,
        version.clone(),
        closing.clone(),
        kick.clone(),
    ));
    let peer = end.address;
    tracing::info!(connection = id, %peer, binding = %end.binding, "connection opened");
    let mut connection = Connection {
        id,
        frames,
        outbox,
        kick,
        context,
        binding: end.binding,
        watch_only: None,
        lobby_feed: None,
        nodes_feed: None,
        key: None,
        version,
        peer,
        analysis: None,
    };
    let reason = connection.run().await;
    tracing::info!(connection = id, %peer, %reason, "connection closed");
    closing.cancel();
    let _ = writer.await;
    connection.frames
}

/// One client's reading side.
pub(super) struct Connection<F> {
    pub(super) id: u64,
    pub(super) frames: F,
    pub(super) outbox: Outbox,
    /// Cancelled when the client reads too slowly.
    kick: CancellationToken,
    pub(super) context: Arc<ConnectionContext>,
    /// What a person's proof on this connection must sign.
    pub(super) binding: ChannelBinding,
    /// Set when the database failed while letting the client in: it may only list and watch
    /// games, and every other request is refused with this.
    pub(super) watch_only: Option<Refusal>,
    /// The lobby's pushed lists, while the client watches the lobby.
    lobby_feed: Option<GameListFeed>,
    /// A cluster node's live nodes, for a client that speaks version 5: sent again as
    /// `Nodes` whenever they change.
    pub(super) nodes_feed: Option<watch::Receiver<Vec<String>>>,
    /// The public key a person proved and was admitted with (`None` for a guest or a
    /// watch-only client): what makes an admin.
    pub(super) key: Option<[u8; 32]>,
    /// The protocol version the client speaks (set by the handshake; the writer reads it).
    pub(super) version: ClientVersion,
    /// The client's address (a proxy's, behind one): a guest's budget of analyses is its
    /// address's.
    pub(super) peer: SocketAddr,
    /// The analysis this connection asked for, while it runs (dropped, and so stopped, when the
    /// connection goes).
    pub(super) analysis: Option<Running>,
}

impl<F: Incoming> Connection<F> {
    async fn run(&mut self) -> CloseReason {
        let (session, replaced) = match self.handshake().await {
            Ok(hello) => hello,
            Err(reason) => return reason,
        };
        let reason = self.serve_session(&session, &replaced).await;
        // Whatever ended the connection ends its analysis: dropping it raises its stop flag.
        self.analysis = None;
        self.depart(&session);
        reason
    }

    /// Tells the client a fatal refusal; the returned reason is for the log.
    pub(super) fn fatal(&self, refusal: Refusal) -> CloseReason {
        self.outbox.send(refusal.to_message(true));
        CloseReason::Refused(refusal)
    }

    pub(super) fn bad_frame(&self, err: FrameError) -> CloseReason {
        match err {
            FrameError::Io(err) => CloseReason::ReadError(err.to_string()),
            err => self.fatal(err.into()),
        }
    }

    pub(super) fn shutting_down(&self) -> CloseReason {
        self.outbox.send(ServerMessage::ShuttingDown {
            message: "the server is shutting down; your games are kept and resume when it is back \
                      (kingme reconnects by itself)"
                .to_owned(),
        });
        CloseReason::ShuttingDown
    }

    async fn serve_session(
        &mut self,
        session: &Arc<Session>,
        replaced: &CancellationToken,
    ) -> CloseReason {
        // The live limits, read again when SIGHUP changed them.
        let mut live = self.context.live.subscribe();
        let mut limits = *live.borrow_and_update();
        let mut limiter =
            RateLimiter::new(limits.rate_burst, limits.rate_per_second, Instant::now());
        let mut heard = Instant::now();
        let mut pinged = false;
        let connections = self.context.connections.clone();
        let kick = self.kick.clone();
        // The waits are made once, not on every message: each new one would register with its
        // token (a lock shared by every connection) and with the timer wheel, and drop out again.
        let mut shutting_down = pin!(connections.cancelled());
        let mut kicked = pin!(kick.cancelled());
        let mut taken_over = pin!(replaced.cancelled());
        // Set for the first deadline and moved on only when it passes: a message does not touch
        // the timer, the wake-up finds out whether the client spoke since.
        let mut idle_timer = pin!(tokio::time::sleep_until(heard + limits.idle_timeout));
        let mut notices = self.context.notices.subscribe();
        loop {
            tokio::select! {
                () = &mut shutting_down => return self.shutting_down(),
                () = &mut kicked => return CloseReason::TooSlow,
                () = &mut taken_over => {
                    return self.fatal(Refusal::TakenOver(session.name.clone()));
                }
                Some(games) = next_list(&mut self.lobby_feed) => {
                    self.outbox.send(ServerMessage::GameList { games: games.to_vec() });
                }
                Some(addresses) = next_nodes(&mut self.nodes_feed) => {
                    self.outbox.send(ServerMessage::Nodes { addresses });
                }
                (game, event) = next_event(&mut self.analysis) => {
                    self.analysis_event(game, event);
                }
                notice = next_notice(&mut notices) => match notice {
                    Notice::Announcement { from, text } => {
                        if self.version.get() >= ANNOUNCEMENT_VERSION {
                            self.outbox.send(ServerMessage::Announcement { from, text });
                        }
                    }
                    Notice::Banned { name, reason } if name == session.name => {
                        return self.fatal(Refusal::Banned { name, reason });
                    }
                    Notice::Banned { .. } => {}
                },
                () = &mut idle_timer => {
                    refresh(&mut live, &mut limits, &mut limiter);
                    let idle = limits.idle_timeout;
                    let deadline = heard + if pinged { idle * 2 } else { idle };
                    if Instant::now() < deadline {
                        idle_timer.as_mut().reset(deadline);
                        continue;
                    }
                    if pinged {
                        return self.fatal(Refusal::Idle((idle * 2).as_secs()));
                    }
                    pinged = true;
                    self.outbox.send(ServerMessage::Ping { nonce: self.id });
                    idle_timer.as_mut().reset(heard + idle * 2);
                }
                frame = self.frames.next() => match frame {
                    None => return CloseReason::ClientClosed("while playing"),
                    Some(Err(err)) => return self.bad_frame(err),
                    Some(Ok(message)) => {
                        heard = Instant::now();
                        pinged = false;
                        refresh(&mut live, &mut limits, &mut limiter);
                        // The limit counts requests; a pong only answers the server's own
                        // ping and costs it nothing.
                        let counted = !matches!(message, ClientMessage::Pong { .. });
                        if counted && !limiter.allow(heard) {
                            return self.fatal(Refusal::Flood {
                                burst: limits.rate_burst,
                                per_second: limits.rate_per_second,
                            });
                        }
                        if let Err(refusal) = self.dispatch(session, message).await {
                            self.outbox.send(refusal.to_message(false));
                        }
                    }
                },
            }
        }
    }

    /// Answers a request from the lobby or the archive, or hands it to its game's table.
    async fn dispatch(
        &mut self,
        session: &Arc<Session>,
        message: ClientMessage,
    ) -> Result<(), Refusal> {
        if let Some(notice) = &self.watch_only
            && !watcher_may(&message)
        {
            return Err(notice.clone());
        }
        let context = Arc::clone(&self.context);
        let answer = match message {
            ClientMessage::Hello { .. } => return Err(Refusal::HelloAgain),
            ClientMessage::Prove { .. } => return Err(Refusal::NoChallenge),
            ClientMessage::Ping { nonce } => ServerMessage::Pong { nonce },
            ClientMessage::Pong { .. } => return Ok(()),
            ClientMessage::ListGames => ServerMessage::GameList {
                games: context.lobby.list(),
            },
            ClientMessage::WatchLobby { on } => {
                self.lobby_feed = on.then(|| context.lobby.watch());
                if !on {
                    return Ok(());
                }
                ServerMessage::GameList {
                    games: context.lobby.list(),
                }
            }
            ClientMessage::CreateGame(options) => {
                context.lobby.create_game(session, &options).await?;
                return Ok(());
            }
            ClientMessage::History { player, kind } => {
                let query = HistoryQuery {
                    player,
                    kind,
                    limit: MAX_HISTORY_ENTRIES,
                };
                let games = context.storage.history(query).await.map_err(storage_read)?;
                ServerMessage::History { games }
            }
            ClientMessage::Leaderboard { kind } => {
                let entries = context
                    .storage
                    .leaderboard(kind)
                    .await
                    .map_err(storage_read)?;
                ServerMessage::Leaderboard { entries }
            }
            ClientMessage::Export { game } => {
                let stored = context.storage.game(game).await.map_err(storage_read)?;
                let stored = stored.ok_or(Refusal::NotInArchive(game))?;
                ServerMessage::Record {
                    game,
                    record: stored.to_record(),
                }
            }
            ClientMessage::Admin(action) => self.administer(session, action).await?,
            ClientMessage::AdminLog => self.admin_log().await?,
            ClientMessage::Analyse {
                game,
                depth,
                time_ms,
            } => {
                let asked = Asked { depth, time_ms };
                self.analyse(game, asked, &session.name).await?;
                return Ok(());
            }
            message => {
                let Some(game) = message.game() else {
                    return Ok(());
                };
                if matches!(message, ClientMessage::Chat { .. }) {
                    self.unless_muted(session).await?;
                }
                let watch = matches!(message, ClientMessage::Watch { .. });
                let leave = matches!(message, ClientMessage::Leave { .. });
                match to_table(&context, session, game, message).await {
                    // A finished game whose table closed opens from the archive; leaving a
                    // game without a table (such as one opened from the archive) is done.
                    Err(Refusal::NoSuchGame(_)) if watch => {
                        ServerMessage::State(context.lobby.archived(game).await?)
                    }
                    Err(Refusal::NoSuchGame(_)) if leave => ServerMessage::Left { game },
                    handed => return handed,
                }
            }
        };
        self.outbox.send(answer);
        Ok(())
    }

    /// The connection is gone: the player's games hear of it, and its session expires unless
    /// it comes back within the grace period.
    fn depart(&self, session: &Arc<Session>) {
        let Some(absence) = session.detach(self.id) else {
            return;
        };
        #[cfg(feature = "cluster")]
        if let Some(relay) = &self.context.relay {
            relay.departed(session);
        }
        let tables: Vec<_> = session
            .games()
            .into_iter()
            .filter_map(|game| self.context.lobby.table(game).ok())
            .collect();
        let player = session.id;
        let context = Arc::clone(&self.context);
        let session = Arc::clone(session);
        self.context.timers.spawn(async move {
            for table in tables {
                table.send(TableCommand::Disconnected { player }).await;
            }
            tokio::select! {
                () = tokio::time::sleep(context.limits.grace) => {
                    context.sessions.expire(&session, absence);
                }
                () = context.connections.cancelled() => {}
            }
        });
    }
}

/// Hands a game's request to its table: here, or on a cluster node at the node that runs it.
async fn to_table(
    context: &ConnectionContext,
    session: &Arc<Session>,
    game: GameId,
    message: ClientMessage,
) -> Result<(), Refusal> {
    let table = match context.lobby.table(game) {
        Ok(table) => table,
        // On a cluster node, another node may run it.
        #[cfg(feature = "cluster")]
        Err(refusal) => match &context.relay {
            Some(relay) => return relay.forward(session, message).await,
            None => return Err(refusal),
        },
        #[cfg(not(feature = "cluster"))]
        Err(refusal) => return Err(refusal),
    };
    table.request(Arc::clone(session), message).await
}

/// Whether a client let in to watch only (see `Connection::admit_watcher`) may send `message`:
/// reading and watching, nothing that seats it or changes a game.
fn watcher_may(message: &ClientMessage) -> bool {
    matches!(
        message,
        ClientMessage::Ping { .. }
            | ClientMessage::Pong { .. }
            | ClientMessage::ListGames
            | ClientMessage::WatchLobby { .. }
            | ClientMessage::Watch { .. }
            | ClientMessage::Leave { .. }
            | ClientMessage::History { .. }
            | ClientMessage::Leaderboard { .. }
            | ClientMessage::Export { .. }
            | ClientMessage::Analyse { .. }
    )
}

/// A database failure on a read (the archive), as a refusal the client can show.
fn storage_read(err: crate::storage::StoreError) -> Refusal {
    tracing::error!(%err, "storage request failed");
    Refusal::StorageRead(err)
}

/// The live nodes when they change; never, without a feed (or once its node stops).
async fn next_nodes(feed: &mut Option<watch::Receiver<Vec<String>>>) -> Option<Vec<String>> {
    match feed {
        Some(feed) => match feed.changed().await {
            Ok(()) => Some(feed.borrow_and_update().clone()),
            Err(_) => std::future::pending().await,
        },
        None => std::future::pending().await,
    }
}
