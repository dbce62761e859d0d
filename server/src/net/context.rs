//! What a connection is given: the lobby it routes requests to, the players' sessions, the
//! database for the handshake and the archive, the server's id, its limits (fixed and live),
//! the admins and the notices to every connection, the review board, and the signals and
//! tracker of the server's lifetime. Nothing of the tables' own context.

use super::notices::Notice;
use super::tls::ServerTls;
#[cfg(feature = "cluster")]
use crate::cluster::membership::Membership;
#[cfg(feature = "cluster")]
use crate::cluster::relay::Relay;
use crate::config::{Admins, Config, LiveLimits};
use crate::game::analysis::Analyst;
use crate::lobby::Lobby;
use crate::players::Sessions;
use crate::storage::Storage;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// A connection's limits and timings fixed for the server's run (from its [`Config`]); the
/// live ones are in [`ConnectionContext::live`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// How long a departed player's session waits for it.
    pub grace: Duration,
    pub outbox_capacity: usize,
}

impl ConnectionLimits {
    /// The limits `config` sets.
    #[must_use]
    pub fn of(config: &Config) -> ConnectionLimits {
        ConnectionLimits {
            grace: config.grace,
            outbox_capacity: config.outbox_capacity,
        }
    }
}

/// Everything a connection uses from the server.
#[derive(Debug)]
pub struct ConnectionContext {
    pub lobby: Lobby,
    pub sessions: Arc<Sessions>,
    pub storage: Storage,
    /// Sent in identity challenges (stable for the database's life).
    pub server_id: String,
    pub limits: ConnectionLimits,
    /// The limits SIGHUP may change: timeouts and the rate limit, read when they are used.
    pub live: Arc<LiveLimits>,
    /// Cancelled once the tables are done: connections say goodbye and close.
    pub connections: CancellationToken,
    /// Timers that outlive a connection (session expiry).
    pub timers: TaskTracker,
    /// The last connection id given, by either door (ids are unique across both).
    pub last_connection: AtomicU64,
    /// A cluster node's membership: the live nodes told to clients after `Welcome`.
    #[cfg(feature = "cluster")]
    pub membership: Option<Arc<Membership>>,
    /// A cluster node's relay: requests for games other nodes run go there.
    #[cfg(feature = "cluster")]
    pub relay: Option<Arc<Relay>>,
    /// The doors' TLS: the certificate a new connection is presented, and the binding its
    /// proofs sign.
    pub tls: Arc<ServerTls>,
    /// The admins, by key fingerprint (replaced whole on SIGHUP).
    pub admins: Arc<Admins>,
    /// Notices to every connection: announcements, bans.
    pub notices: broadcast::Sender<Notice>,
    /// The review board: finished games analysed by the engine, within its limits.
    pub analyst: Arc<Analyst>,
}

impl ConnectionContext {
    /// A new connection's id, unique for the server's lifetime whichever door it came through.
    pub fn next_connection_id(&self) -> u64 {
        self.last_connection.fetch_add(1, Ordering::Relaxed) + 1
    }
}
