//! The server embedded in the client: `kingme` with no `--server` starts the judge inside its
//! own process on a free loopback port and connects to it, so a newcomer can play a bot at
//! once without hosting anything. It stops with the client.

use std::net::SocketAddr;

/// A server running inside this process.
#[derive(Debug)]
pub struct EmbeddedServer {
    address: SocketAddr,
}

impl EmbeddedServer {
    /// Starts the server on 127.0.0.1 with a port the system picks.
    pub async fn start() -> anyhow::Result<EmbeddedServer> {
        anyhow::bail!(
            "this build has no embedded server yet; connect to one with --server HOST:PORT"
        )
    }

    /// Where it listens.
    #[must_use]
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Stops it: games end as aborted and connections close.
    pub async fn stop(self) {}
}
