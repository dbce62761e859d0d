//! The accept loop and the server's lifetime: a connection permit is taken before `accept`, each
//! connection runs in its own task, and shutdown happens in order: stop accepting, stop every
//! table (its game stays stored, unfinished, and resumes at the next start), then tell every
//! connection and close it. The HTTP door (`--http`: the WebSocket and the web page), when
//! opened, shares the connection permits and the shutdown order.

#[cfg(feature = "cluster")]
use crate::cluster::{Cluster, ClusterError, relay};
use crate::config::{Config, Database, Limits};
use crate::game::analysis::Analyst;
use crate::game::bot::SearchPool;
use crate::game::{TableContext, TableRegistry, TableTiming};
use crate::lobby::{Lobby, feed, resume};
use crate::net::tls::{ServerTls, TlsError};
#[cfg(feature = "metrics")]
use crate::net::web::metrics_door::serve_metrics;
#[cfg(feature = "web")]
use crate::net::web::{WebDoor, serve_http};
use crate::net::{ConnectionContext, ConnectionLimits, connection, permits};
use crate::players::Sessions;
#[cfg(feature = "postgres")]
use crate::storage::PgStore;
use crate::storage::records::unix_ms;
use crate::storage::{SqliteStore, Storage, StoreError, token_retention};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::task::JoinHandle;
use tokio::time::Duration;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Why a server did not serve.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The cluster's Redis cannot be reached or refuses the node.
    #[cfg(feature = "cluster")]
    #[error("cannot join the cluster: {0}")]
    Cluster(#[from] ClusterError),
    /// A cluster was asked of a build without one.
    #[error(
        "this kingme-server was built without cluster support: build it with its default \
         features (or `--features cluster`) to use --cluster"
    )]
    NoCluster,
    /// The HTTP door was asked of a build without one.
    #[error(
        "this build has no web door: build it with the `web` feature (kingme-server has it by \
         default) to use --http"
    )]
    NoWebDoor,
    /// The metrics door was asked of a build without metrics.
    #[error(
        "this build records no metrics: build it with the `metrics` feature (kingme-server has it \
         by default) to use --metrics"
    )]
    NoMetrics,
}

/// The listeners a server serves on, its doors.
#[derive(Debug)]
pub struct Doors {
    /// The TCP door: the binary protocol.
    pub tcp: TcpListener,
    /// The HTTP door (`--http`): the web page, the WebSocket, `/healthz`, `/readyz` and, without
    /// a metrics door, `/metrics`.
    pub http: Option<TcpListener>,
    /// The metrics door (`--metrics`): `/metrics`, `/healthz` and `/readyz` in plain HTTP.
    pub metrics: Option<TcpListener>,
}

impl Doors {
    /// The TCP door alone.
    #[must_use]
    pub fn tcp(listener: TcpListener) -> Doors {
        Doors {
            tcp: listener,
            http: None,
            metrics: None,
        }
    }
}

/// Opens (creating and migrating if needed) the database `config` names, on a blocking thread,
/// and hands it to a storage worker.
pub async fn open_storage(config: &Config) -> Result<Storage, StoreError> {
    let database = config.database.clone();
    let new_database = config.new_database;
    let durability = config.durability;
    tokio::task::spawn_blocking(move || match database {
        #[cfg(feature = "postgres")]
        Database::Postgres(url) => PgStore::connect(&url, unix_ms()).map(Storage::start),
        #[cfg(not(feature = "postgres"))]
        Database::Postgres(url) => Err(StoreError::Database(format!(
            "{} is a PostgreSQL database, and this build has no PostgreSQL support: use an SQLite \
             file, or build kingme-server with its default features",
            crate::storage::database_url::redacted(&url)
        ))),
        Database::InMemory | Database::File(_) => {
            let mut store = SqliteStore::open_sealed(&database.path(), unix_ms(), new_database)?;
            store.set_durability(durability)?;
            Ok(Storage::start(store))
        }
    })
    .await
    .map_err(|err| StoreError::Database(format!("opening the database failed: {err}")))?
}

/// Runs the server on `listener` until `shutdown` completes, then shuts down cleanly. The
/// database is the one `config` names; a server that cannot open it logs why and does not serve.
pub async fn run(listener: TcpListener, shutdown: impl Future, config: Config) {
    match open_storage(&config).await {
        Ok(storage) => run_with_storage(listener, shutdown, config, storage).await,
        Err(err) => tracing::error!(%err, "cannot open the database; not serving"),
    }
}

/// Opens the TLS that `config` names (its certificate files, or the self-signed certificate
/// kept beside its database, made on first use), on a blocking thread.
///
/// # Errors
/// A certificate or key that cannot be read or used, or made and kept.
pub async fn open_tls(config: &Config) -> Result<Arc<ServerTls>, TlsError> {
    let (settings, database) = (config.tls.clone(), config.database.clone());
    tokio::task::spawn_blocking(move || ServerTls::open(&settings, &database).map(Arc::new))
        .await
        .map_err(|err| TlsError::Generate(format!("the TLS set-up failed: {err}")))?
}

/// Runs the server with an open database: first the games that were in progress when it last
/// stopped are resumed, then connections are accepted.
pub async fn run_with_storage(
    listener: TcpListener,
    shutdown: impl Future,
    config: Config,
    storage: Storage,
) {
    let tls = match open_tls(&config).await {
        Ok(tls) => tls,
        Err(err) => return tracing::error!(%err, "cannot set up TLS; not serving"),
    };
    if let Err(err) = run_doors(Doors::tcp(listener), shutdown, config, storage, tls).await {
        tracing::error!(%err, "not serving");
    }
}

/// [`run_with_storage`] on the given doors: the TCP door and, when given, the HTTP door (the
/// WebSocket endpoint and the web page) and the metrics door. A cluster node (`--cluster`) that
/// cannot join its cluster serves nothing and says why.
///
/// # Errors
/// The cluster's Redis cannot be reached or refuses the node, or this build lacks what the
/// configuration asks for (a cluster, the HTTP door, metrics).
pub async fn run_doors(
    doors: Doors,
    shutdown: impl Future,
    config: Config,
    storage: Storage,
    tls: Arc<ServerTls>,
) -> Result<(), ServeError> {
    let Doors {
        tcp: listener,
        http,
        metrics,
    } = doors;
    #[cfg(not(feature = "cluster"))]
    if config.cluster.is_some() {
        return Err(ServeError::NoCluster);
    }
    #[cfg(not(feature = "web"))]
    if http.is_some() {
        return Err(ServeError::NoWebDoor);
    }
    #[cfg(not(feature = "metrics"))]
    if metrics.is_some() {
        return Err(ServeError::NoMetrics);
    }
    let server_id = match storage.server_id().await {
        Ok(id) => id,
        Err(err) => {
            // Proofs still work against a per-run id; only the id's stability is lost.
            tracing::error!(%err, "could not read the server id; using one for this run");
            format!("{:032x}", rand::random::<u128>())
        }
    };
    // The limits in force from the configuration's fields, until SIGHUP replaces them.
    let live = Arc::clone(&config.live);
    live.replace(Limits::of(&config));
    let games = CancellationToken::new();
    let tasks = TaskTracker::new();
    // A cluster node joins before anything else: its tables take leases from the start.
    #[cfg(feature = "cluster")]
    let cluster = match &config.cluster {
        None => None,
        Some(settings) => {
            Some(Cluster::join(settings, storage.clone(), games.clone(), tasks.clone()).await?)
        }
    };
    let registry = Arc::new(TableRegistry::default());
    let sessions = Arc::new(Sessions::default());
    #[cfg(feature = "cluster")]
    let relay = cluster
        .as_ref()
        .map(|cluster| cluster.relay(&registry, &sessions, config.outbox_capacity, &games));
    // Each part gets what it uses: the tables their context, the connections theirs.
    let tables = Arc::new(TableContext {
        storage: storage.clone(),
        bots: SearchPool::new(config.bot_searches, config.endgame_database.clone()),
        registry,
        timing: TableTiming::of(&config),
        games,
        tasks,
        #[cfg(feature = "cluster")]
        ownership: cluster.as_ref().map(Cluster::ownership),
        #[cfg(feature = "cluster")]
        remote: cluster.as_ref().map(Cluster::fanout),
        #[cfg(feature = "cluster")]
        handover: relay.as_ref().map(relay::handover),
        #[cfg(not(feature = "cluster"))]
        ownership: None,
        #[cfg(not(feature = "cluster"))]
        remote: None,
        #[cfg(not(feature = "cluster"))]
        handover: None,
    });
    let timers = TaskTracker::new();
    let feed = feed::spawn(Arc::clone(&tables.registry), tables.games.clone(), &timers);
    let net = Arc::new(ConnectionContext {
        lobby: Lobby::new(Arc::clone(&tables), Arc::clone(&live), feed),
        sessions,
        storage,
        server_id,
        limits: ConnectionLimits::of(&config),
        live: Arc::clone(&live),
        connections: CancellationToken::new(),
        timers,
        last_connection: AtomicU64::new(0),
        #[cfg(feature = "cluster")]
        membership: cluster
            .as_ref()
            .map(|cluster| Arc::clone(&cluster.membership)),
        #[cfg(feature = "cluster")]
        relay: relay.clone(),
        tls: Arc::clone(&tls),
        admins: Arc::clone(&config.admins),
        notices: crate::net::notices::channel(),
        analyst: Arc::new(Analyst::new(
            config.analysis,
            config.endgame_database.clone(),
        )),
    });
    // Game ids come from the database: the first block before anyone may create a game.
    if let Err(err) = tables.registry.ids.fill(&tables.storage).await {
        tracing::error!(%err, "could not reserve game ids; games cannot be created until it works");
    }
    tables
        .registry
        .ids
        .supply(tables.storage.clone(), tables.games.clone(), &net.timers);
    // On a cluster node, other nodes may be running the stored games: a node takes over only
    // those whose lease lapsed, by the failover watcher.
    #[cfg(feature = "cluster")]
    let lone = match cluster.as_ref().zip(relay.as_ref()) {
        Some((cluster, relay)) => {
            cluster.start(&tables, &net.sessions, relay, &tables.games, &net.timers);
            false
        }
        None => true,
    };
    #[cfg(not(feature = "cluster"))]
    let lone = true;
    // Admins' actions made at other nodes are carried out here too.
    #[cfg(feature = "cluster")]
    if let Some(actions) = relay.as_ref().and_then(|relay| relay.moderation()) {
        net.timers.spawn(crate::net::moderation::from_other_nodes(
            Arc::clone(&net),
            actions,
        ));
    }
    token_retention::forget_old_resume_tokens(&net.storage).await;
    if lone {
        match resume::resume_games(&tables, &net.sessions).await {
            Ok(0) => {}
            Ok(count) => tracing::info!(count, "resumed the games in progress"),
            Err(err) => tracing::error!(%err, "could not resume the games in progress"),
        }
    }
    net.timers
        .spawn(watch_database(net.storage.clone(), net.connections.clone()));
    net.timers
        .spawn(token_retention::keep_forgetting_old_resume_tokens(
            net.storage.clone(),
            net.connections.clone(),
        ));
    let made_for = live.current();
    let permits = permits::for_limits(&made_for);
    net.timers.spawn(permits::follow(
        Arc::clone(&permits),
        made_for,
        live.subscribe(),
        net.connections.clone(),
    ));
    let connections = TaskTracker::new();
    // The HTTP door stops accepting when the TCP door does.
    let accepting = CancellationToken::new();
    #[cfg(feature = "web")]
    let door = WebDoor {
        context: Arc::clone(&net),
        permits: Arc::clone(&permits),
        connections: connections.clone(),
    };
    // `/metrics` goes to the metrics door when there is one, else to the HTTP door.
    #[cfg(feature = "metrics")]
    let (metrics_on_http, metrics) = (
        metrics.is_none(),
        metrics
            .map(|listener| tokio::spawn(serve_metrics(listener, door.clone(), accepting.clone()))),
    );
    #[cfg(all(feature = "web", not(feature = "metrics")))]
    let metrics_on_http = false;
    #[cfg(not(feature = "metrics"))]
    let metrics: Option<JoinHandle<()>> = None;
    #[cfg(feature = "web")]
    let web =
        http.map(|http| tokio::spawn(serve_http(http, door, accepting.clone(), metrics_on_http)));
    #[cfg(not(feature = "web"))]
    let web: Option<JoinHandle<()>> = None;
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "kingme server listening");
    }
    tokio::pin!(shutdown);
    loop {
        // The permit comes before accept: at the limit, new clients wait in the backlog
        // instead of being accepted and dropped.
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => permit,
            _ = &mut shutdown => break,
        };
        let Ok(permit) = permit else { break };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut shutdown => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                let net = Arc::clone(&net);
                let id = net.next_connection_id();
                connections.spawn(async move {
                    connection::serve(stream, peer, id, net).await;
                    drop(permit);
                });
            }
            Err(err) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!(%err, "accept failed");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(100)) => {}
                    _ = &mut shutdown => break,
                }
            }
        }
    }
    drop(listener);
    accepting.cancel();
    for door in web.into_iter().chain(metrics) {
        // Plain page requests finish; upgraded WebSockets are connections and close below.
        let _ = door.await;
    }
    tracing::info!("shutting down: ending games");
    tables.games.cancel();
    tables.tasks.close();
    tables.tasks.wait().await;
    tracing::info!("shutting down: closing connections");
    net.connections.cancel();
    connections.close();
    connections.wait().await;
    net.timers.close();
    net.timers.wait().await;
    net.storage.close().await;
    tracing::info!("shut down");
    Ok(())
}

/// How often an idle server checks that its database file is still the one it opened (every
/// commit checks it too).
const DATABASE_CHECK: Duration = Duration::from_secs(10);

/// Checks the database file periodically until the connections close, so that a removed or
/// replaced file is reported loudly even while nothing is written.
async fn watch_database(storage: Storage, until: CancellationToken) {
    let mut every = tokio::time::interval(DATABASE_CHECK);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = until.cancelled() => return,
            _ = every.tick() => {}
        }
        // The store logs the error itself; every write fails from now on.
        let _ = storage.verify().await;
    }
}

/// A server running in the background, for tests and the client's embedded mode.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    http_addr: Option<SocketAddr>,
    tls: Arc<ServerTls>,
    stop: CancellationToken,
    task: JoinHandle<Result<(), ServeError>>,
}

impl ServerHandle {
    /// Opens the database `config` names, binds `addr` (use port 0 for any free port) and
    /// starts a server there. A database that cannot be opened is an error here, before anyone
    /// connects.
    pub async fn start(addr: impl ToSocketAddrs, config: Config) -> std::io::Result<ServerHandle> {
        let storage = open_storage(&config).await.map_err(std::io::Error::other)?;
        ServerHandle::start_with_storage(addr, config, storage).await
    }

    /// Starts a server on `addr` with a storage of the caller's (`config.database` is not
    /// opened): tests hand it a store that fails on demand.
    pub async fn start_with_storage(
        addr: impl ToSocketAddrs,
        config: Config,
        storage: Storage,
    ) -> std::io::Result<ServerHandle> {
        Self::start_doors(addr, None::<SocketAddr>, config, storage).await
    }

    /// Opens the database `config` names and starts a server on `addr` with the HTTP door (the
    /// WebSocket and the web page) on `http` (port 0 for any free port).
    #[cfg(feature = "web")]
    pub async fn start_with_http(
        addr: impl ToSocketAddrs,
        http: impl ToSocketAddrs,
        config: Config,
    ) -> std::io::Result<ServerHandle> {
        let storage = open_storage(&config).await.map_err(std::io::Error::other)?;
        Self::start_doors(addr, Some(http), config, storage).await
    }

    async fn start_doors(
        addr: impl ToSocketAddrs,
        http: Option<impl ToSocketAddrs>,
        config: Config,
        storage: Storage,
    ) -> std::io::Result<ServerHandle> {
        let tls = open_tls(&config).await.map_err(std::io::Error::other)?;
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let http = match http {
            Some(http) => Some(TcpListener::bind(http).await?),
            None => None,
        };
        let http_addr = http.as_ref().map(TcpListener::local_addr).transpose()?;
        let stop = CancellationToken::new();
        let shutdown = stop.clone().cancelled_owned();
        let doors = Doors {
            tcp: listener,
            http,
            metrics: None,
        };
        let task = tokio::spawn(run_doors(
            doors,
            shutdown,
            config,
            storage,
            Arc::clone(&tls),
        ));
        Ok(ServerHandle {
            addr,
            http_addr,
            tls,
            stop,
            task,
        })
    }

    /// The address the server listens on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The address of the HTTP door (the web page at `/`, the WebSocket at `/ws`), if opened.
    #[must_use]
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.http_addr
    }

    /// The server's TLS: its certificate (none with `--plaintext`), and reloading it.
    #[must_use]
    pub fn tls(&self) -> &Arc<ServerTls> {
        &self.tls
    }

    /// Shuts the server down and waits until it has finished.
    pub async fn shutdown(self) {
        self.stop.cancel();
        match self.task.await {
            Ok(Ok(())) => {}
            Ok(Err(err)) => tracing::error!(%err, "not served"),
            Err(err) => tracing::error!(%err, "the server task failed"),
        }
    }
}
