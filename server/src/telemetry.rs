//! The server's metrics, each named once here and recorded through the `metrics` facade: a
//! no-op until a recorder is installed, which only the `kingme-server` binary does (feature
//! `metrics`, with an HTTP door: `/metrics` renders them in Prometheus text). So the embedded
//! server of the client records into nothing, and the facade is all it links.
//!
//! - `kingme_connections{door}`: connections held now, by door (`tcp`, `websocket`);
//! - `kingme_games{kind,state}`: games held now, by kind and state (`open`, `playing`, `over`);
//! - `kingme_moves_total{kind}`: moves played (judged, stored and announced);
//! - `kingme_move_relay_seconds{kind}`: a move received by its table to its announcement sent;
//! - `kingme_storage_commit_seconds`: one batch of the database, begun to committed;
//! - `kingme_refusals_total{reason}`: requests refused, by the wire's error kind
//!   (`LimitExceeded` for the rate limit, `Malformed` for a bad frame, ...);
//! - `kingme_bot_search_seconds{kind,level}`: one bot search, handed to a blocking thread to
//!   its answer;
//! - on a cluster node: `kingme_leases` (leases on games held now), `kingme_takeovers_total`
//!   (games taken over from a node that died) and `kingme_redis_errors_total` (requests to
//!   Redis that failed).

use std::cell::Cell;
use std::time::Instant;

/// `kingme_connections`.
pub const CONNECTIONS: &str = "kingme_connections";
/// `kingme_games`.
pub const GAMES: &str = "kingme_games";
/// `kingme_moves_total`.
pub const MOVES: &str = "kingme_moves_total";
/// `kingme_move_relay_seconds`.
pub const MOVE_RELAY: &str = "kingme_move_relay_seconds";
/// `kingme_storage_commit_seconds`.
pub const STORAGE_COMMIT: &str = "kingme_storage_commit_seconds";
/// `kingme_refusals_total`.
pub const REFUSALS: &str = "kingme_refusals_total";
/// `kingme_bot_search_seconds`.
pub const BOT_SEARCH: &str = "kingme_bot_search_seconds";
/// `kingme_leases`.
pub const LEASES: &str = "kingme_leases";
/// `kingme_takeovers_total`.
pub const TAKEOVERS: &str = "kingme_takeovers_total";
/// `kingme_redis_errors_total`.
pub const REDIS_ERRORS: &str = "kingme_redis_errors_total";

/// The door a connection came through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Door {
    /// The TCP door: binary frames.
    Tcp,
    /// The HTTP door's WebSocket: JSON text frames.
    WebSocket,
}

impl Door {
    fn label(self) -> &'static str {
        match self {
            Door::Tcp => "tcp",
            Door::WebSocket => "websocket",
        }
    }
}

/// One connection, counted in `kingme_connections` while this lives.
#[derive(Debug)]
pub struct ConnectionGauge(Door);

impl ConnectionGauge {
    /// Counts a connection just accepted through `door`.
    #[must_use]
    pub fn open(door: Door) -> ConnectionGauge {
        metrics::gauge!(CONNECTIONS, "door" => door.label()).increment(1.0);
        ConnectionGauge(door)
    }
}

impl Drop for ConnectionGauge {
    fn drop(&mut self) {
        metrics::gauge!(CONNECTIONS, "door" => self.0.label()).decrement(1.0);
    }
}

/// One game, counted in `kingme_games` under its kind and current state while this lives.
#[derive(Debug)]
pub struct GameGauge {
    kind: &'static str,
    state: Cell<&'static str>,
}

impl GameGauge {
    /// Counts a game of `kind` (its name) in `state`.
    #[must_use]
    pub fn new(kind: &'static str, state: &'static str) -> GameGauge {
        metrics::gauge!(GAMES, "kind" => kind, "state" => state).increment(1.0);
        GameGauge {
            kind,
            state: Cell::new(state),
        }
    }

    /// Moves the game to `state`.
    pub fn set(&self, state: &'static str) {
        let was = self.state.replace(state);
        if was != state {
            metrics::gauge!(GAMES, "kind" => self.kind, "state" => was).decrement(1.0);
            metrics::gauge!(GAMES, "kind" => self.kind, "state" => state).increment(1.0);
        }
    }
}

impl Drop for GameGauge {
    fn drop(&mut self) {
        metrics::gauge!(GAMES, "kind" => self.kind, "state" => self.state.get()).decrement(1.0);
    }
}

/// A move of a `kind` game, received at `received`, has been announced.
pub fn move_relayed(kind: &'static str, received: Instant) {
    metrics::counter!(MOVES, "kind" => kind).increment(1);
    metrics::histogram!(MOVE_RELAY, "kind" => kind).record(received.elapsed());
}

/// A batch of the database begun at `began` has been committed (or failed to).
pub fn batch_committed(began: Instant) {
    metrics::histogram!(STORAGE_COMMIT).record(began.elapsed());
}

/// A request was refused, for `reason` (the wire's error kind).
pub fn refused(reason: String) {
    metrics::counter!(REFUSALS, "reason" => reason).increment(1);
}

/// A bot at `level` (its name) searched a position of a `kind` game (its name) from `began`
/// to now.
pub fn bot_searched(kind: &'static str, level: &'static str, began: Instant) {
    metrics::histogram!(BOT_SEARCH, "kind" => kind, "level" => level).record(began.elapsed());
}

/// One lease on a game held by this cluster node, counted in `kingme_leases` while this lives.
#[derive(Debug)]
pub struct LeaseGauge(());

impl LeaseGauge {
    /// Counts a lease just taken.
    #[must_use]
    pub fn held() -> LeaseGauge {
        metrics::gauge!(LEASES).increment(1.0);
        LeaseGauge(())
    }
}

impl Drop for LeaseGauge {
    fn drop(&mut self) {
        metrics::gauge!(LEASES).decrement(1.0);
    }
}

/// This node took over a game whose node is gone.
pub fn took_over() {
    metrics::counter!(TAKEOVERS).increment(1);
}

/// A request to the cluster's Redis failed.
pub fn redis_failed() {
    metrics::counter!(REDIS_ERRORS).increment(1);
}
