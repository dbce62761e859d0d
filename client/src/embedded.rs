//! The server embedded in the client: `kingme` with no `--server` starts the judge inside its
//! own process on a free loopback port and connects to it, so a newcomer can play a bot at
//! once without hosting anything. It stops with the client: running games end as aborted and
//! the connection closes.

use kingme_server::{Config, ServerHandle};
use std::net::SocketAddr;

/// A server running inside this process.
#[derive(Debug)]
pub struct EmbeddedServer {
    handle: ServerHandle,
}

impl EmbeddedServer {
    /// Starts the server on 127.0.0.1 with a port the system picks.
    pub async fn start() -> anyhow::Result<EmbeddedServer> {
        let handle = ServerHandle::start("127.0.0.1:0", Config::default())
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
