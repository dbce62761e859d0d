//! The `kingme-server` binary: parses the command line, starts logging, binds the port and runs
//! the judge until Ctrl-C or SIGTERM.

use anyhow::Context;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};
use kingme_server::host::Durability;
use kingme_server::host::backup;
use kingme_server::host::{
    Admins, AnalysisLimits, ClusterSettings, Config, ConfigFile, Database, Fingerprint, Limits,
    LogFormat, TlsSettings, TlsSource,
};
use kingme_server::host::{Doors, SERVER_DB_FILE, default_db_path};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

mod signals;
use signals::{LiveSettings, reload_on_hangup, shutdown_signal};

/// jemalloc rather than glibc's malloc: after a load glibc kept the memory of its peak (freed
/// but held in per-thread arenas it rarely trims), while jemalloc's background threads give
/// freed pages back to the system a second after they were freed
/// (docs/measurements/memory.md). SQLite's own allocations go through it too (unprefixed `malloc`).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Milliseconds freed ("dirty") pages stay with jemalloc before they go back to the system
/// (jemalloc's default is 10 s).
#[cfg(not(target_env = "msvc"))]
const DIRTY_DECAY_MS: isize = 1000;

/// Turns on jemalloc's background purging threads and a short decay, so memory goes back even
/// while the server is idle (without them, pages are purged only when allocations happen).
/// A failure only costs memory, so it is logged, not fatal.
#[cfg(not(target_env = "msvc"))]
fn tune_allocator() {
    use tikv_jemalloc_ctl::{AsName, background_thread};
    // The defaults for arenas made from now on, then arena 0 (made at start-up).
    let settings: [(&[u8], isize); 4] = [
        (b"arenas.dirty_decay_ms\0", DIRTY_DECAY_MS),
        (b"arenas.muzzy_decay_ms\0", 0),
        (b"arena.0.dirty_decay_ms\0", DIRTY_DECAY_MS),
        (b"arena.0.muzzy_decay_ms\0", 0),
    ];
    for (key, value) in settings {
        if let Err(err) = tikv_jemalloc_ctl::Access::write(key.name(), value) {
            tracing::warn!(%err, key = %key.name(), "could not set the allocator's decay time");
        }
    }
    if let Err(err) = background_thread::write(true) {
        tracing::warn!(%err, "could not start the allocator's background threads");
    }
}

#[cfg(target_env = "msvc")]
fn tune_allocator() {}

/// The kingme game server: hosts checkers, Pente and noughts-and-crosses games over TCP.
#[derive(Debug, Clone, clap::Parser)]
#[command(name = "kingme-server", version, about)]
struct Args {
    /// Read the settings from this TOML file: one key for every flag, named as the flag
    /// (`grace-secs = 60`); the flags given here override it. Example: contrib/kingme.toml.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Print the effective settings (the file's, the flags' and the defaults) as a
    /// configuration file, passwords masked, and exit.
    #[arg(long)]
    print_config: bool,
    /// How the log (standard output) is written: `text`, a line an event, or `json`, a JSON
    /// object an event for log collectors.
    #[arg(long, default_value_t = LogFormat::Text, value_name = "text|json")]
    log_format: LogFormat,
    /// Address to listen on; use 0.0.0.0:7878 to host for other machines.
    #[arg(long, default_value = "127.0.0.1:7878")]
    listen: String,
    /// Also open the HTTP door on this address: the web page at `/` and the WebSocket (JSON
    /// messages, for browsers and bots in any language) at `/ws`. Off unless given.
    #[arg(long, value_name = "HOST:PORT")]
    http: Option<String>,
    /// Serve `/metrics` (Prometheus text), `/healthz` and `/readyz` in plain HTTP on this
    /// address, a door of their own, and no longer `/metrics` on the HTTP door: keep it on
    /// loopback or a private network (e.g. 127.0.0.1:9100). Off unless given.
    #[arg(long, value_name = "HOST:PORT")]
    metrics: Option<String>,
    /// Seconds an absent player keeps its seats before forfeiting.
    #[arg(long, default_value_t = 60)]
    grace_secs: u64,
    /// Most connections held at once.
    #[arg(long, default_value_t = Config::default().max_connections)]
    max_connections: usize,
    /// Seconds a new connection has to say hello.
    #[arg(long, default_value_t = 10)]
    handshake_timeout_secs: u64,
    /// Seconds of client silence before a ping; as long again closes the connection.
    #[arg(long, default_value_t = 30)]
    idle_timeout_secs: u64,
    /// Most open or running games per player.
    #[arg(long, default_value_t = Config::default().max_games_per_player)]
    max_games_per_player: usize,
    /// Messages a connection may send in a burst.
    #[arg(long, default_value_t = Config::default().rate_burst)]
    rate_burst: u32,
    /// Messages per second that refill the burst.
    #[arg(long, default_value_t = Config::default().rate_per_second)]
    rate_per_second: u32,
    /// Milliseconds a bot thinks per move in games without clocks.
    #[arg(long, default_value_t = 1000)]
    bot_think_ms: u64,
    /// Bot searches running at once (default: one per core).
    #[arg(long)]
    bot_searches: Option<usize>,
    /// Game reviews (the review board's Analyse) running at once (default: one per core).
    #[arg(long)]
    analyses: Option<usize>,
    /// The database for games, identities and ratings: an SQLite file (created on first run),
    /// `:memory:` for a throwaway one, or a PostgreSQL URL
    /// (`postgres://USER:PASSWORD@HOST:PORT/DB`) that several servers may share. Default:
    /// kingme.db in the platform's data directory.
    #[arg(long)]
    db: Option<String>,
    /// Start even when the database file is missing, empty or another than the one this server
    /// used before (the seal beside it, `<db>-seal`, names the database that held the games).
    /// SQLite files only.
    #[arg(long)]
    new_database: bool,
    /// Wait for the disk (fsync) on every committed batch, so that an acknowledged move survives
    /// a power loss too. Without it an acknowledged move survives a killed or crashed server
    /// but a power loss may lose the last moments of play.
    #[arg(long)]
    fsync: bool,
    /// A checkers endgame database (from `kingme egdb build`) for the bots to consult: exact
    /// endgames and won positions converted. Read whole at start; a damaged file stops the start.
    #[arg(long, value_name = "FILE")]
    egdb: Option<std::path::PathBuf>,
    /// Join a cluster of nodes sharing this Redis (`redis://HOST:PORT`) and the `--db`
    /// PostgreSQL database: games are spread over the nodes, and a dead node's games go on at
    /// another. Needs --advertise.
    #[arg(long, value_name = "REDIS_URL", requires = "advertise")]
    cluster: Option<String>,
    /// The address clients use to reach this node (told to clients of every node).
    #[arg(long, value_name = "HOST:PORT", requires = "cluster")]
    advertise: Option<String>,
    /// Milliseconds a node's heartbeat and its game leases last without renewal: how soon
    /// another node takes over the games of one that died.
    #[arg(long, default_value_t = 3000, value_name = "MS")]
    lease_ms: u64,
    /// The server's certificate chain (PEM, the server's own first; e.g. from an ACME client).
    /// Read again on SIGHUP. Without it (and --tls-key) the server makes a self-signed
    /// certificate on its first start and keeps it beside its database (`<db>-tls.pem`).
    #[arg(
        long,
        value_name = "FILE",
        requires = "tls_key",
        conflicts_with = "plaintext"
    )]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM). Read again on SIGHUP.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Turn TLS off on both doors: moves, chat and sign-ins cross the network in the clear, and
    /// people's clients will not sign in unless told to (`kingme --insecure`). Only for a
    /// network you trust, or behind a proxy that ends TLS (then also --proxy-cert).
    #[arg(long)]
    plaintext: bool,
    /// Behind a reverse proxy that ends TLS: the certificate (PEM) the proxy presents to
    /// clients. People's sign-ins are bound to the certificate they saw, so they are checked
    /// against this one.
    #[arg(long, value_name = "FILE")]
    proxy_cert: Option<PathBuf>,
    /// An admin, named by the fingerprint of their key (32 hexadecimal digits: `kingme
    /// identity show` prints it); give it once for each admin. Admins may ban, mute, close
    /// games and announce (`kingme admin`). Given here, they replace the file's `admins`.
    #[arg(long = "admin", value_name = "FINGERPRINT")]
    admins: Vec<Fingerprint>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Lays the configuration file's keys under the flags: a key counts where its flag was not
/// given on the command line. `$plain` fields hold a value (a default, a flag), `$optional`
/// fields an `Option`.
macro_rules! lay_file_under_flags {
    ($args:expr, $file:expr, $given:expr, plain: [$($plain:ident),*], optional: [$($optional:ident),*]) => {
        $(if let Some(value) = $file.$plain && !$given(stringify!($plain)) {
            $args.$plain = value;
        })*
        $(if let Some(value) = $file.$optional && !$given(stringify!($optional)) {
            $args.$optional = Some(value);
        })*
    };
}

impl Args {
    /// The command line alone, and clap's record of which flags it gave.
    fn parse_flags() -> (Args, ArgMatches) {
        let matches = Args::command().get_matches();
        let args = Args::from_arg_matches(&matches).unwrap_or_else(|err| err.exit());
        (args, matches)
    }

    /// These flags (given as `matches` records) with the configuration file of `--config` under
    /// them.
    fn with_file(&self, matches: &ArgMatches) -> anyhow::Result<Args> {
        let mut args = self.clone();
        if let Some(path) = &self.config {
            let file = ConfigFile::read(path)
                .with_context(|| format!("cannot use the configuration file {}", path.display()))?;
            args.lay_under(file, matches);
            args.check_pairs()
                .with_context(|| format!("in the configuration file {}", path.display()))?;
        }
        Ok(args)
    }

    /// Takes each of `file`'s keys whose flag the command line (`matches`) did not give.
    fn lay_under(&mut self, file: ConfigFile, matches: &ArgMatches) {
        let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
        lay_file_under_flags!(self, file, given,
            plain: [listen, grace_secs, max_connections, handshake_timeout_secs,
                idle_timeout_secs, max_games_per_player, rate_burst, rate_per_second,
                bot_think_ms, new_database, fsync, lease_ms, plaintext, log_format, admins],
            optional: [http, metrics, bot_searches, analyses, db, egdb, cluster, advertise, tls_cert,
                tls_key, proxy_cert]);
    }

    /// The flags that go in pairs or exclude each other, as clap checks them on the command
    /// line, checked again once the file is laid under it.
    fn check_pairs(&self) -> anyhow::Result<()> {
        if self.cluster.is_some() != self.advertise.is_some() {
            anyhow::bail!("cluster and advertise go together: give both or neither");
        }
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            anyhow::bail!("tls-cert and tls-key go together: give both or neither");
        }
        if self.plaintext && self.tls_cert.is_some() {
            anyhow::bail!("plaintext turns TLS off: give it or tls-cert, not both");
        }
        Ok(())
    }

    /// The effective settings as a configuration file, passwords masked.
    fn effective(&self) -> anyhow::Result<ConfigFile> {
        Ok(ConfigFile {
            listen: Some(self.listen.clone()),
            http: self.http.clone(),
            metrics: self.metrics.clone(),
            grace_secs: Some(self.grace_secs),
            max_connections: Some(self.max_connections),
            handshake_timeout_secs: Some(self.handshake_timeout_secs),
            idle_timeout_secs: Some(self.idle_timeout_secs),
            max_games_per_player: Some(self.max_games_per_player),
            rate_burst: Some(self.rate_burst),
            rate_per_second: Some(self.rate_per_second),
            bot_think_ms: Some(self.bot_think_ms),
            bot_searches: Some(self.bot_searches.unwrap_or(Config::default().bot_searches)),
            analyses: Some(self.analyses.unwrap_or(Config::default().analysis.running)),
            db: Some(self.database()?.path().display().to_string()),
            new_database: Some(self.new_database),
            fsync: Some(self.fsync),
            egdb: self.egdb.clone(),
            cluster: self.cluster.clone(),
            advertise: self.advertise.clone(),
            lease_ms: Some(self.lease_ms),
            tls_cert: self.tls_cert.clone(),
            tls_key: self.tls_key.clone(),
            plaintext: Some(self.plaintext),
            proxy_cert: self.proxy_cert.clone(),
            log_format: Some(self.log_format),
            admins: Some(self.admins.clone()),
        }
        .masked())
    }

    fn database(&self) -> anyhow::Result<Database> {
        match &self.db {
            Some(arg) => Ok(Database::from_arg(arg)),
            None => default_db_path(SERVER_DB_FILE).map(Database::File).context(
                "this system has no data directory for the database; pass --db PATH or \
                 --db :memory:",
            ),
        }
    }

    /// Checks what can be checked before anything is touched: the addresses to listen on,
    /// and that a database file given with --db is in a directory that exists (the default
    /// one's directory is made when needed; a given one is never guessed at).
    async fn check(&self) -> anyhow::Result<()> {
        check_address("--listen", &self.listen).await?;
        if let Some(http) = &self.http {
            check_address("--http", http).await?;
        }
        if let Some(arg) = &self.db
            && let Database::File(path) = Database::from_arg(arg)
            && let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty())
            && !dir.is_dir()
        {
            anyhow::bail!(
                "--db {}: the directory {} does not exist; create it first, or give a path in \
                 a directory that exists",
                path.display(),
                dir.display()
            );
        }
        Ok(())
    }

    fn cluster_settings(&self) -> anyhow::Result<Option<ClusterSettings>> {
        let (Some(redis_url), Some(advertise)) = (&self.cluster, &self.advertise) else {
            return Ok(None);
        };
        if !matches!(self.database()?, Database::Postgres(_)) {
            anyhow::bail!(
                "--cluster needs a database all nodes share: pass --db postgres://USER@HOST:PORT/DB"
            );
        }
        if self.lease_ms < 300 {
            anyhow::bail!("--lease-ms {} is too short; use 300 or more", self.lease_ms);
        }
        Ok(Some(ClusterSettings {
            redis_url: redis_url.clone(),
            advertise: advertise.clone(),
            lease: Duration::from_millis(self.lease_ms),
        }))
    }

    fn tls(&self) -> TlsSettings {
        let source = match (&self.tls_cert, &self.tls_key) {
            _ if self.plaintext => TlsSource::Plaintext,
            (Some(cert), Some(key)) => TlsSource::Files {
                cert: cert.clone(),
                key: key.clone(),
            },
            _ => TlsSource::SelfSigned,
        };
        TlsSettings {
            source,
            proxy_cert: self.proxy_cert.clone(),
        }
    }

    /// The limits SIGHUP may change, as these settings set them.
    fn limits(&self) -> Limits {
        Limits {
            max_connections: self.max_connections,
            handshake_timeout: Duration::from_secs(self.handshake_timeout_secs),
            idle_timeout: Duration::from_secs(self.idle_timeout_secs),
            max_games_per_player: self.max_games_per_player,
            rate_burst: self.rate_burst,
            rate_per_second: self.rate_per_second,
        }
    }

    fn config(&self) -> anyhow::Result<Config> {
        let defaults = Config::default();
        let limits = self.limits();
        Ok(Config {
            max_connections: limits.max_connections,
            handshake_timeout: limits.handshake_timeout,
            idle_timeout: limits.idle_timeout,
            grace: Duration::from_secs(self.grace_secs),
            max_games_per_player: limits.max_games_per_player,
            rate_burst: limits.rate_burst,
            rate_per_second: limits.rate_per_second,
            bot_think_time: Duration::from_millis(self.bot_think_ms),
            bot_searches: self.bot_searches.unwrap_or(defaults.bot_searches),
            analysis: AnalysisLimits {
                running: self.analyses.unwrap_or(defaults.analysis.running),
                ..defaults.analysis
            },
            database: self.database()?,
            new_database: self.new_database,
            durability: if self.fsync {
                Durability::PowerLoss
            } else {
                Durability::Process
            },
            cluster: self.cluster_settings()?,
            tls: self.tls(),
            admins: Arc::new(Admins::new(self.admins.clone())),
            endgame_database: match &self.egdb {
                Some(path) => Some(kingme_shared::ai::egdb::open(path)?),
                None => None,
            },
            ..defaults
        })
    }
}

/// Checks that `address`, given with `flag`, is an address to listen on (HOST:PORT).
async fn check_address(flag: &str, address: &str) -> anyhow::Result<()> {
    match tokio::net::lookup_host(address)
        .await
        .map(|mut found| found.next())
    {
        Ok(Some(_)) => Ok(()),
        Ok(None) => anyhow::bail!("{flag} {address}: the name has no address; give HOST:PORT"),
        Err(err) => anyhow::bail!(
            "{flag} {address}: expected HOST:PORT, like 127.0.0.1:7878 or 0.0.0.0:7878 ({err})"
        ),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (flags, matches) = Args::parse_flags();
    let args = flags.with_file(&matches)?;
    let log = tracing_subscriber::fmt().with_env_filter(
        tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
    );
    match args.log_format {
        // Colour only for a person at a terminal: a log file or pipe gets plain text.
        LogFormat::Text => log
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .init(),
        LogFormat::Json => log.json().init(),
    }
    tune_allocator();
    if args.print_config {
        print!("{}", args.effective()?.to_toml());
        return Ok(());
    }
    if let Some(command) = &args.command {
        return command.run(&args.database()?);
    }
    // The arguments first: a mistake is told before any database is opened or made.
    args.check().await?;
    let config = args.config()?;
    // Recorded only where they can be read, from before the games resumed at start.
    #[cfg(feature = "metrics")]
    if args.http.is_some() || args.metrics.is_some() {
        kingme_server::host::install_metrics()?;
    }
    // The database first: a server that cannot keep its games should say so before anyone
    // connects.
    let storage = kingme_server::host::open_storage(&config)
        .await
        .with_context(|| format!("cannot open the database {}", config.database))?;
    tracing::info!(
        db = %config.database,
        durability = config.durability.promise(),
        "database open"
    );
    let tls = kingme_server::host::open_tls(&config)
        .await
        .context("cannot set up TLS (or pass --plaintext to run without it)")?;
    match tls.current() {
        Some(certified) => println!(
            "kingme TLS certificate SHA-256 fingerprint: {} (clients pin it on first use)",
            certified.binding
        ),
        None => tracing::warn!(
            "--plaintext: TLS is off; moves, chat and sign-ins cross the network in the clear, \
             and anyone on the path can read and change them"
        ),
    }
    let live = LiveSettings {
        started: args.effective()?,
        flags,
        matches,
        admins: Arc::clone(&config.admins),
        limits: Arc::clone(&config.live),
    };
    reload_on_hangup(Arc::clone(&tls), live);
    let listener = TcpListener::bind(&args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let http = match &args.http {
        Some(http) => {
            let listener = TcpListener::bind(http)
                .await
                .with_context(|| format!("cannot open the HTTP door on {http}"))?;
            let addr = listener.local_addr().context("the HTTP door's address")?;
            let (page, socket) = if tls.is_plaintext() {
                ("http", "ws")
            } else {
                ("https", "wss")
            };
            println!("kingme web page: {page}://{addr}/ (WebSocket: {socket}://{addr}/ws)");
            Some(listener)
        }
        None => None,
    };
    let metrics = match &args.metrics {
        Some(metrics) => {
            let listener = TcpListener::bind(metrics)
                .await
                .with_context(|| format!("cannot open the metrics door on {metrics}"))?;
            let addr = listener
                .local_addr()
                .context("the metrics door's address")?;
            println!("kingme metrics: http://{addr}/metrics (and /healthz, /readyz)");
            Some(listener)
        }
        None => None,
    };
    let doors = Doors {
        tcp: listener,
        http,
        metrics,
    };
    // A node that cannot join its cluster ends with an error status, not a clean exit.
    kingme_server::host::run_doors(doors, shutdown_signal(), config, storage, tls)
        .await
        .context("cannot serve")?;
    Ok(())
}

/// What the binary does instead of serving: tools for the host.
#[derive(Debug, Clone, clap::Subcommand)]
enum Command {
    /// Takes a backup of the database file (--db) into FILE, online: the server may be running
    /// on it. SQLite's backup API copies one committed state; the copy is checked and replaces
    /// FILE only when whole.
    Backup { file: std::path::PathBuf },
    /// Restores the backup FILE as the database file (--db). No server may have it open. The
    /// backup is checked, the old file and its -wal and -shm are renamed aside
    /// (`.before-restore-<time>`), never replayed into the restored file.
    Restore { file: std::path::PathBuf },
}

impl Command {
    fn run(&self, database: &Database) -> anyhow::Result<()> {
        let Database::File(path) = database else {
            anyhow::bail!(
                "backup and restore are for SQLite database files; back up PostgreSQL with \
                 pg_dump"
            );
        };
        match self {
            Command::Backup { file } => {
                backup::backup(path, file).with_context(|| {
                    format!("cannot back up {} to {}", path.display(), file.display())
                })?;
                println!("backed up {} to {}", path.display(), file.display());
            }
            Command::Restore { file } => {
                let restored = backup::restore(file, path).with_context(|| {
                    format!("cannot restore {} as {}", file.display(), path.display())
                })?;
                for old in restored.set_aside {
                    println!("set aside {}", old.display());
                }
                println!("restored {} as {}", file.display(), path.display());
            }
        }
        Ok(())
    }
}
