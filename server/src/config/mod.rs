//! The server's tunable limits and timings in one struct, so the binary's flags, the tests and
//! an embedding client all configure the same server the same way.

pub mod admins;
pub mod analysis;
pub mod file;
pub mod fuzzing;
pub mod live;

pub use admins::{Admins, BadFingerprint, Fingerprint};
pub use analysis::AnalysisLimits;
pub use live::{LimitChange, Limits, LiveLimits};

use crate::storage::Durability;
use kingme_shared::ai::egdb::Egdb;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Everything an operator may tune. `Default` gives the documented values (see PROTOCOL.md).
#[derive(Debug, Clone)]
pub struct Config {
    /// Most connections held at once; the accept loop waits for a free permit beyond this.
    pub max_connections: usize,
    /// Time a new connection has to say hello.
    pub handshake_timeout: Duration,
    /// Silence after which the server pings a client; as long again without an answer closes
    /// the connection.
    pub idle_timeout: Duration,
    /// How long an absent player keeps its seats before forfeiting them.
    pub grace: Duration,
    /// Most open or running games one player may be in at once.
    pub max_games_per_player: usize,
    /// Messages a connection may send in a burst.
    pub rate_burst: u32,
    /// Messages per second that refill the burst.
    pub rate_per_second: u32,
    /// Messages queued for one connection before it counts as too slow and is dropped.
    pub outbox_capacity: usize,
    /// How long a finished game stays open for a rematch while its players are still there.
    pub finished_linger: Duration,
    /// The time a bot may think per move in a game without clocks.
    pub bot_think_time: Duration,
    /// The pause before each move of a game between the server's bots that a person may watch
    /// (a person created it, or someone watches), so people can follow it.
    pub bot_move_delay: Duration,
    /// Most bot searches running at once (each takes a blocking thread).
    pub bot_searches: usize,
    /// The review board's limits: analyses at once, per asker, and the search per position.
    pub analysis: AnalysisLimits,
    /// The checkers endgame database the bots (and the review board) consult (`game::endgame::open` reads one), or
    /// none.
    pub endgame_database: Option<Arc<Egdb>>,
    /// Where games, identities and ratings are kept.
    pub database: Database,
    /// Start even when the database file is missing, empty or another than the one this server
    /// used before (its seal names another): the operator's `--new-database`.
    pub new_database: bool,
    /// What a committed move survives: a killed process (the default) or also a power loss
    /// (`--fsync`).
    pub durability: Durability,
    /// Join a cluster of nodes sharing Redis (and a PostgreSQL database): `--cluster`. `None`:
    /// the server runs alone, and no Redis code runs.
    pub cluster: Option<ClusterSettings>,
    /// TLS on both doors: the certificate, or `--plaintext`.
    pub tls: TlsSettings,
    /// The admins, by key fingerprint (`--admin`): shared, so that SIGHUP can replace them.
    pub admins: Arc<Admins>,
    /// The limits in force, shared so that SIGHUP can replace them: the server puts the fields
    /// above in it when it starts ([`Limits::of`]), and its parts read them from here.
    pub live: Arc<LiveLimits>,
}

/// Where the server's certificate comes from, and the proxy's, if one ends TLS in front of it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TlsSettings {
    /// Where the server's own certificate comes from.
    pub source: TlsSource,
    /// The certificate a reverse proxy that ends TLS presents to clients (`--proxy-cert`): a
    /// person's proof is then checked against it, since that is the certificate the person saw.
    pub proxy_cert: Option<PathBuf>,
}

/// Where the server's certificate comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TlsSource {
    /// Made by the server on its first start and kept beside its database (an in-memory
    /// database: made for this run only): the default.
    #[default]
    SelfSigned,
    /// The host's PEM files (`--tls-cert`, `--tls-key`), read again on SIGHUP.
    Files {
        /// The certificate chain, PEM.
        cert: PathBuf,
        /// Its private key, PEM.
        key: PathBuf,
    },
    /// No TLS (`--plaintext`): moves, chat and sign-ins cross the network in the clear.
    Plaintext,
}

/// How a node joins a cluster (`--cluster redis://HOST:PORT --advertise HOST:PORT`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterSettings {
    /// The Redis all nodes share, `redis://HOST:PORT`.
    pub redis_url: String,
    /// The address clients use to reach this node, told to clients of every node.
    pub advertise: String,
    /// How long a node's heartbeat and its leases on games last without renewal: how soon
    /// another node takes over the games of a node that died.
    pub lease: Duration,
}

impl ClusterSettings {
    /// The default lease: renewed every third of it, so two lost renewals in a row are borne.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(3);
}

/// Where the server keeps its database.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Database {
    /// A private database that lives as long as the server (tests, throwaway servers).
    #[default]
    InMemory,
    /// An SQLite file, created on first use.
    File(PathBuf),
    /// A PostgreSQL database, by its URL (`postgres://USER:PASSWORD@HOST:PORT/DB`), which
    /// several servers may share.
    Postgres(String),
}

impl Database {
    /// Reads a `--db` value: `:memory:`, a `postgres://` (or `postgresql://`) URL, or a path.
    #[must_use]
    pub fn from_arg(arg: &str) -> Database {
        if arg == crate::storage::location::IN_MEMORY {
            Database::InMemory
        } else if crate::storage::database_url::is_postgres_url(arg) {
            Database::Postgres(arg.to_owned())
        } else {
            Database::File(PathBuf::from(arg))
        }
    }

    /// The path SQLite opens (the URL's text for PostgreSQL, which SQLite never opens).
    #[must_use]
    pub fn path(&self) -> PathBuf {
        match self {
            Database::InMemory => PathBuf::from(crate::storage::location::IN_MEMORY),
            Database::File(path) => path.clone(),
            Database::Postgres(url) => PathBuf::from(url),
        }
    }
}

/// How the database is named in messages and logs: a PostgreSQL URL without its password.
impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::InMemory => f.write_str(crate::storage::location::IN_MEMORY),
            Database::File(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&crate::storage::database_url::redacted(url)),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        let limits = Limits::DEFAULT;
        Config {
            max_connections: limits.max_connections,
            handshake_timeout: limits.handshake_timeout,
            idle_timeout: limits.idle_timeout,
            grace: Duration::from_secs(60),
            max_games_per_player: limits.max_games_per_player,
            rate_burst: limits.rate_burst,
            rate_per_second: limits.rate_per_second,
            outbox_capacity: 512,
            finished_linger: Duration::from_secs(300),
            bot_think_time: Duration::from_secs(1),
            bot_move_delay: Duration::from_millis(500),
            bot_searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
            analysis: AnalysisLimits::default(),
            endgame_database: None,
            database: Database::InMemory,
            new_database: false,
            durability: Durability::Process,
            cluster: None,
            tls: TlsSettings::default(),
            admins: Arc::default(),
            live: Arc::new(LiveLimits::new(limits)),
        }
    }
}
