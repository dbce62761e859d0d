//! The limits a running server takes from SIGHUP: the connections' rate limit, their handshake
//! and idle timeouts, the games a player may hold and the connections held at once. The
//! server's parts read them from one shared [`LiveLimits`], so a new value holds without a
//! restart: for new connections and, at their next message, for those already open (see
//! docs/hosting.md for which settings are live and which need a restart).

use super::Config;
use std::fmt;
use std::time::Duration;
use tokio::sync::watch;

/// The configuration keys SIGHUP puts in force without a restart: the limits and the admins
/// (the certificate files are read again too, from the paths the server started with). Every
/// other key takes a restart.
pub const LIVE_KEYS: [&str; 7] = [
    "admins",
    "max-connections",
    "handshake-timeout-secs",
    "idle-timeout-secs",
    "max-games-per-player",
    "rate-burst",
    "rate-per-second",
];

/// The values of the live limits, each as its configuration key sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most connections held at once (`max-connections`).
    pub max_connections: usize,
    /// Time a new connection has to say hello, and to prove its key
    /// (`handshake-timeout-secs`).
    pub handshake_timeout: Duration,
    /// Silence before a ping; as long again closes the connection (`idle-timeout-secs`).
    pub idle_timeout: Duration,
    /// Most open or running games one player may be in at once (`max-games-per-player`).
    pub max_games_per_player: usize,
    /// Messages a connection may send in a burst (`rate-burst`).
    pub rate_burst: u32,
    /// Messages per second that refill the burst (`rate-per-second`).
    pub rate_per_second: u32,
}

impl Limits {
    /// The documented defaults (PROTOCOL.md), which [`Config::default`] sets.
    pub const DEFAULT: Limits = Limits {
        max_connections: 16_384,
        handshake_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(30),
        max_games_per_player: 16,
        rate_burst: 200,
        rate_per_second: 100,
    };

    /// The limits `config` sets.
    #[must_use]
    pub fn of(config: &Config) -> Limits {
        Limits {
            max_connections: config.max_connections,
            handshake_timeout: config.handshake_timeout,
            idle_timeout: config.idle_timeout,
            max_games_per_player: config.max_games_per_player,
            rate_burst: config.rate_burst,
            rate_per_second: config.rate_per_second,
        }
    }

    /// What differs from `before` to `self`, one [`LimitChange`] a key, for the log.
    #[must_use]
    pub fn changes_from(&self, before: &Limits) -> Vec<LimitChange> {
        let secs = |duration: Duration| duration.as_secs().to_string();
        let pairs = [
            (
                "max-connections",
                before.max_connections.to_string(),
                self.max_connections.to_string(),
            ),
            (
                "handshake-timeout-secs",
                secs(before.handshake_timeout),
                secs(self.handshake_timeout),
            ),
            (
                "idle-timeout-secs",
                secs(before.idle_timeout),
                secs(self.idle_timeout),
            ),
            (
                "max-games-per-player",
                before.max_games_per_player.to_string(),
                self.max_games_per_player.to_string(),
            ),
            (
                "rate-burst",
                before.rate_burst.to_string(),
                self.rate_burst.to_string(),
            ),
            (
                "rate-per-second",
                before.rate_per_second.to_string(),
                self.rate_per_second.to_string(),
            ),
        ];
        pairs
            .into_iter()
            .filter(|(_, old, new)| old != new)
            .map(|(key, old, new)| LimitChange { key, old, new })
            .collect()
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// One live limit changed, as the log tells it: `rate-burst 200 -> 5`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitChange {
    /// The configuration key.
    pub key: &'static str,
    /// Its value before.
    pub old: String,
    /// Its value from now on.
    pub new: String,
}

impl fmt::Display for LimitChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} -> {}", self.key, self.old, self.new)
    }
}

/// The limits in force, shared by the server's parts and replaced whole on SIGHUP. A part that
/// reads them on every message holds a [`watch::Receiver`] ([`LiveLimits::subscribe`]) and
/// reads again only when they changed.
#[derive(Debug)]
pub struct LiveLimits {
    current: watch::Sender<Limits>,
}

impl LiveLimits {
    /// Limits in force from now on: `limits`.
    #[must_use]
    pub fn new(limits: Limits) -> LiveLimits {
        LiveLimits {
            current: watch::Sender::new(limits),
        }
    }

    /// The limits in force now.
    #[must_use]
    pub fn current(&self) -> Limits {
        *self.current.borrow()
    }

    /// A receiver told of every replacement from now on, the limits in force counted as seen.
    #[must_use]
    pub fn subscribe(&self) -> watch::Receiver<Limits> {
        self.current.subscribe()
    }

    /// Puts `limits` in force; returns what changed (nothing when they are the same, and then
    /// no receiver is woken).
    pub fn replace(&self, limits: Limits) -> Vec<LimitChange> {
        let mut changes = Vec::new();
        self.current.send_if_modified(|held| {
            changes = limits.changes_from(held);
            *held = limits;
            !changes.is_empty()
        });
        changes
    }
}

impl Default for LiveLimits {
    fn default() -> LiveLimits {
        LiveLimits::new(Limits::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replacement_tells_what_changed_and_wakes_receivers_only_then() {
        let live = LiveLimits::default();
        let mut seen = live.subscribe();
        assert!(live.replace(Limits::default()).is_empty());
        assert!(!seen.has_changed().unwrap());
        let lower = Limits {
            rate_burst: 5,
            idle_timeout: Duration::from_secs(7),
            ..Limits::default()
        };
        let said: Vec<String> = live
            .replace(lower)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(said, ["idle-timeout-secs 30 -> 7", "rate-burst 200 -> 5"]);
        assert!(seen.has_changed().unwrap());
        assert_eq!(*seen.borrow_and_update(), lower);
        assert_eq!(live.current(), lower);
    }
}
