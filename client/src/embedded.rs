//! The server embedded in the client: `kingme` with no `--server` starts the judge inside its
//! own process on a free loopback port and connects to it, so a newcomer can play a bot at
//! once without hosting anything. It stops with the client: running games end as aborted and
//! the connection closes. Its games, history and ratings live in `kingme-local.db` in the
//! user's data directory, apart from any standalone server's database. Its bots consult the
//! largest checkers endgame database in the data directory, if one was built.

use kingme_server::storage::location::{EMBEDDED_DB_FILE, default_db_path};
use kingme_server::{Config, Database, ServerHandle};
use std::net::SocketAddr;

/// The largest checkers endgame database in the data directory (`kingme egdb build` puts them
/// there), for the local bots; none when there is none or it cannot be used (said in the log).
fn local_endgame_database() -> Option<std::sync::Arc<kingme_shared::ai::egdb::Egdb>> {
    let path = crate::endgame_files::local()?;
    kingme_server::game::endgame::open(&path)
        .inspect_err(|err| tracing::warn!("local bots play without the endgame database: {err:#}"))
        .ok()
}

/// A server running inside this process.
#[derive(Debug)]
pub struct EmbeddedServer {
    handle: ServerHandle,
}

impl EmbeddedServer {
    /// Starts the server on 127.0.0.1 with a port the system picks.
    pub async fn start() -> anyhow::Result<EmbeddedServer> {
        let database = default_db_path(EMBEDDED_DB_FILE).map_or(Database::InMemory, Database::File);
        let config = Config {
            database,
            endgame_database: local_endgame_database(),
            ..Config::default()
        };
        let handle = ServerHandle::start("127.0.0.1:0", config)
            .await
            .map_err(|err| anyhow::anyhow!("cannot start the local server on 127.0.0.1: {err}"))?;
        Ok(EmbeddedServer { handle })
    }

    /// Where it listens.
    #[must_use]
    pub fn address(&self) -> SocketAddr {
        self.handle.addr()
    }

    /// Stops it and waits until it has finished.
    pub async fn stop(self) {
        self.handle.shutdown().await;
    }
}
