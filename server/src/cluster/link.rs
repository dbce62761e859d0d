//! The node's connection to Redis: one multiplexed connection that reconnects by itself
//! (the `redis` crate's `ConnectionManager`), with short timeouts so an unreachable Redis never
//! holds a task for long, and the outage logged once when it starts and once when it ends, not
//! on every failed request.

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long one Redis request or connection attempt may take.
const REDIS_TIMEOUT: Duration = Duration::from_millis(1000);

/// A shared, self-healing connection to the cluster's Redis.
#[derive(Clone)]
pub struct Link {
    connection: ConnectionManager,
    /// Whether the last request worked (for logging an outage once).
    up: Arc<AtomicBool>,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("up", &self.up.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Link {
    /// Connects to the Redis at `url` (`redis://HOST:PORT`).
    pub async fn connect(url: &str) -> redis::RedisResult<Link> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(REDIS_TIMEOUT)
            .set_response_timeout(REDIS_TIMEOUT)
            .set_number_of_retries(1)
            .set_max_delay(500);
        let connection = ConnectionManager::new_with_config(client, config).await?;
        Ok(Link {
            connection,
            up: Arc::new(AtomicBool::new(true)),
        })
    }

    /// A handle for one request (cheap: the connection is shared).
    #[must_use]
    pub fn connection(&self) -> ConnectionManager {
        self.connection.clone()
    }

    /// Notes how a request went, logging the start and the end of an outage once each.
    pub fn noted<T>(&self, result: redis::RedisResult<T>) -> redis::RedisResult<T> {
        match &result {
            Ok(_) => {
                if !self.up.swap(true, Ordering::Relaxed) {
                    tracing::warn!("Redis answers again; the cluster goes on");
                }
            }
            Err(err) => {
                if self.up.swap(false, Ordering::Relaxed) {
                    tracing::error!(
                        %err,
                        "Redis is not answering: games in play go on, new games and takeovers \
                         wait until it is back"
                    );
                }
            }
        }
        result
    }
}
