//! The node's connection to Redis: one multiplexed connection that reconnects by itself
//! (the `redis` crate's `ConnectionManager`), with short timeouts so an unreachable Redis never
//! holds a task for long, and the outage logged once when it starts and once when it ends, not
//! on every failed request (each counted in `kingme_redis_errors_total`).

use crate::telemetry;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::time::Instant;

/// How long one Redis request or connection attempt may take.
pub const REDIS_TIMEOUT: Duration = Duration::from_millis(1000);

/// A shared, self-healing connection to the cluster's Redis.
#[derive(Clone)]
pub struct Link {
    client: redis::Client,
    connection: ConnectionManager,
    /// Whether the last request worked (for logging an outage once).
    up: Arc<AtomicBool>,
    /// When the last outage ended.
    recovered: Arc<Mutex<Option<Instant>>>,
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
        let connection = ConnectionManager::new_with_config(client.clone(), config).await?;
        Ok(Link {
            client,
            connection,
            up: Arc::new(AtomicBool::new(true)),
            recovered: Arc::default(),
        })
    }

    /// Whether an outage ended less than `quiet` ago (or one goes on): a Redis that restarted
    /// empty has lost the leases its holders have not put back yet.
    #[must_use]
    pub fn settling(&self, quiet: Duration) -> bool {
        if !self.up.load(Ordering::Relaxed) {
            return true;
        }
        let recovered = *self
            .recovered
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        recovered.is_some_and(|at| at.elapsed() < quiet)
    }

    /// A handle for one request (cheap: the connection is shared).
    #[must_use]
    pub fn connection(&self) -> ConnectionManager {
        self.connection.clone()
    }

    /// A connection of its own for subscribing to channels (pub/sub holds its connection).
    pub async fn subscriber(&self) -> redis::RedisResult<redis::aio::PubSub> {
        let subscriber = tokio::time::timeout(REDIS_TIMEOUT, self.client.get_async_pubsub())
            .await
            .map_err(|_| {
                redis::RedisError::from((redis::ErrorKind::IoError, "connecting timed out"))
            })?;
        self.noted(subscriber)
    }

    /// Notes how a request went, logging the start and the end of an outage once each.
    pub fn noted<T>(&self, result: redis::RedisResult<T>) -> redis::RedisResult<T> {
        match &result {
            Ok(_) => {
                if !self.up.swap(true, Ordering::Relaxed) {
                    *self
                        .recovered
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
                    tracing::warn!("Redis answers again; the cluster goes on");
                }
            }
            Err(err) => {
                telemetry::redis_failed();
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
