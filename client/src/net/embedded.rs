//! The server embedded in the client: `kingme` with no `--server` starts the judge inside its
//! own process on a free loopback port and connects to it, so a newcomer can play a bot at
//! once without hosting anything. It stops with the client: running games end as aborted and
//! the connection closes. Its games, history and ratings live in `kingme-local.db` in the
//! user's data directory, apart from any standalone server's database. Its bots consult the
//! largest checkers endgame database in the data directory, if one was built. With `--http` it
//! opens the HTTP door too (the web page and the WebSocket) and tells its URL, in a build with
//! the `web` feature (the HTTP door's axum is left out otherwise). Both doors speak
//! TLS with a self-signed certificate kept beside the database; the client trusts exactly
//! that certificate.

use crate::net::Security;
use kingme_server::embed::{Config, Database, EMBEDDED_DB_FILE, ServerHandle, default_db_path};
use std::net::SocketAddr;

/// A server running inside this process.
#[derive(Debug)]
pub(crate) struct EmbeddedServer {
    handle: ServerHandle,
}

impl EmbeddedServer {
    /// Starts the server on 127.0.0.1 with a port the system picks, and the HTTP door on `http`
    /// when given.
    pub(crate) async fn start(http: Option<&str>) -> anyhow::Result<EmbeddedServer> {
        let database = default_db_path(EMBEDDED_DB_FILE).map_or(Database::InMemory, Database::File);
        // The largest checkers endgame database in the data directory (`kingme egdb build` puts
        // them there), for the local bots; a damaged one is said in the log and left out.
        let endgame_database = match crate::local::endgame_files::open_local().await {
            Some(Ok(egdb)) => Some(egdb),
            Some(Err(err)) => {
                tracing::warn!("local bots play without the endgame database: {err}");
                None
            }
            None => None,
        };
        let config = Config {
            database,
            endgame_database,
            ..Config::default()
        };
        let handle = match http {
            None => ServerHandle::start("127.0.0.1:0", config).await,
            #[cfg(feature = "web")]
            Some(http) => ServerHandle::start_with_http("127.0.0.1:0", http, config).await,
            #[cfg(not(feature = "web"))]
            Some(_) => anyhow::bail!(
                "this kingme was built without the web door: build it with \
                 `cargo build --release --bin kingme --features web`, or serve the page with \
                 `kingme-server --http HOST:PORT`"
            ),
        }
        .map_err(|err| anyhow::anyhow!("cannot start the local server: {err}"))?;
        Ok(EmbeddedServer { handle })
    }

    /// Where it listens.
    #[must_use]
    pub(crate) fn address(&self) -> SocketAddr {
        self.handle.addr()
    }

    /// How this process's client connects to it: TLS, trusting the certificate the server
    /// made itself (no first-use notice, no pin written).
    #[must_use]
    pub(crate) fn security(&self) -> Security {
        match self.handle.tls().current() {
            Some(certified) => Security::Pinned(certified.binding),
            // The embedded server always has TLS; a plaintext one would be this process's own.
            None => Security::Plaintext { sign_in: true },
        }
    }

    /// The web page's address, when the HTTP door is open.
    #[must_use]
    pub(crate) fn web_url(&self) -> Option<String> {
        self.handle
            .http_addr()
            .map(|addr| format!("https://{addr}/"))
    }

    /// Stops it and waits until it has finished.
    pub(crate) async fn stop(self) {
        self.handle.shutdown().await;
    }
}
