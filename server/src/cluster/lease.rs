//! Leases on games: a game is run by one node, the holder of its lease. Taking one is
//! `SET kingme:game:ID:owner NODE:NONCE NX PX ttl` (so two nodes never both succeed) followed by
//! drawing the game's fencing token in the database ([`crate::storage::Store::claim_lease`]);
//! the holder's keeper renews it every third of its life with a Lua script that extends it only
//! if it is still this holder's, and gives it back when the table ends. A lease that could not
//! be renewed for its whole life, or that another node holds, is lost: the table stops, and the
//! fencing token keeps any write it still had in flight out of the database.

use super::keys;
use super::link::Link;
use crate::game::ownership::{Lease, Ownership};
use crate::refusal::Refusal;
use crate::storage::{Fence, Storage};
use crate::telemetry::LeaseGauge;
use futures::FutureExt;
use futures::future::BoxFuture;
use kingme_shared::domain::GameId;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Extends the lease `KEYS[1]` if it holds `ARGV[1]` (or is gone: Redis restarted empty), and
/// lists the game `ARGV[3]` in `KEYS[2]`; 0 when another holder has it.
const RENEW: &str = r"
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  return 0
end
redis.call('SADD', KEYS[2], ARGV[3])
return 1
";

/// Deletes the lease `KEYS[1]` if it still holds `ARGV[1]`.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// This node's leases: takes them, keeps them, gives them back.
#[derive(Debug, Clone)]
pub struct Leases {
    node: String,
    link: Link,
    storage: Storage,
    ttl: Duration,
    /// Cancelled at shutdown: every lease's `lost` is a child of it.
    games: CancellationToken,
    keepers: TaskTracker,
}

/// Why a lease was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    #[error("another node holds it")]
    Held,
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("the database: {0}")]
    Store(#[from] crate::storage::StoreError),
}

impl Leases {
    /// Leases for node `node`, lasting `ttl`, fenced in `storage`; `games` is the server's
    /// shutdown token and `keepers` tracks the renewing tasks.
    #[must_use]
    pub fn new(
        node: String,
        link: Link,
        storage: Storage,
        ttl: Duration,
        games: CancellationToken,
        keepers: TaskTracker,
    ) -> Leases {
        Leases {
            node,
            link,
            storage,
            ttl,
            games,
            keepers,
        }
    }

    /// How long a lease lasts without renewal.
    #[must_use]
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether some node holds `game`'s lease now.
    pub async fn is_held(&self, game: GameId) -> redis::RedisResult<bool> {
        let mut redis = self.link.connection();
        self.link.noted(
            redis::cmd("EXISTS")
                .arg(keys::owner(game))
                .query_async(&mut redis)
                .await,
        )
    }

    /// Lists `game` among those the failover watchers look after.
    pub async fn list_game(&self, game: GameId) -> redis::RedisResult<()> {
        self.games_set("SADD", game).await
    }

    /// Stops listing `game` (it is over or gone).
    pub async fn unlist_game(&self, game: GameId) -> redis::RedisResult<()> {
        self.games_set("SREM", game).await
    }

    async fn games_set(&self, command: &str, game: GameId) -> redis::RedisResult<()> {
        let mut redis = self.link.connection();
        self.link.noted(
            redis::cmd(command)
                .arg(keys::GAMES)
                .arg(game.0)
                .query_async(&mut redis)
                .await,
        )
    }

    /// Whether the database's games have been listed since Redis started (empty).
    pub async fn games_listed(&self) -> redis::RedisResult<bool> {
        let mut redis = self.link.connection();
        self.link.noted(
            redis::cmd("EXISTS")
                .arg(keys::LISTED)
                .query_async(&mut redis)
                .await,
        )
    }

    /// Notes that the database's games are listed (after listing them all: a node that dies
    /// while listing leaves the work to the others).
    pub async fn mark_games_listed(&self) -> redis::RedisResult<()> {
        let mut redis = self.link.connection();
        self.link.noted(
            redis::cmd("SET")
                .arg(keys::LISTED)
                .arg(1)
                .query_async(&mut redis)
                .await,
        )
    }

    /// Whether Redis came back from an outage less than a lease ago (see [`Link::settling`]):
    /// holders may not have put their leases back yet, so nothing is taken over.
    #[must_use]
    pub fn settling(&self) -> bool {
        self.link.settling(self.ttl)
    }

    /// Every listed game.
    pub async fn listed_games(&self) -> redis::RedisResult<Vec<GameId>> {
        let mut redis = self.link.connection();
        let ids: Vec<u64> = self.link.noted(
            redis::cmd("SMEMBERS")
                .arg(keys::GAMES)
                .query_async(&mut redis)
                .await,
        )?;
        Ok(ids.into_iter().map(GameId).collect())
    }

    /// Takes `game`'s lease if nobody holds it: in Redis first, then its fencing token in the
    /// database (after which the old holder can write nothing more), then starts its keeper.
    pub async fn take(&self, game: GameId) -> Result<Lease, LeaseError> {
        let holder = format!("{}:{:016x}", self.node, rand::random::<u64>());
        let mut redis = self.link.connection();
        let set: Option<String> = self.link.noted(
            redis::cmd("SET")
                .arg(keys::owner(game))
                .arg(&holder)
                .arg("NX")
                .arg("PX")
                .arg(self.ttl_ms())
                .query_async(&mut redis)
                .await,
        )?;
        if set.is_none() {
            return Err(LeaseError::Held);
        }
        let taken_at = Instant::now();
        let token = match self.storage.claim_lease(game).await {
            Ok(token) => token,
            Err(err) => {
                self.release(game, &holder).await;
                return Err(err.into());
            }
        };
        self.list_game(game).await?;
        let lost = self.games.child_token();
        let kept = CancellationToken::new();
        let held = LeaseGauge::held();
        self.keepers.spawn(self.clone().keep(
            game,
            holder,
            taken_at,
            lost.clone(),
            kept.clone(),
            held,
        ));
        Ok(Lease {
            fence: Fence { game, token },
            lost,
            _kept: kept.drop_guard(),
        })
    }

    /// Renews the lease until the table drops it (then gives it back) or it is lost; `held`
    /// counts it in `kingme_leases` meanwhile.
    async fn keep(
        self,
        game: GameId,
        holder: String,
        taken_at: Instant,
        lost: CancellationToken,
        kept: CancellationToken,
        held: LeaseGauge,
    ) {
        let script = redis::Script::new(RENEW);
        let mut every = tokio::time::interval_at(taken_at + self.ttl / 3, self.ttl / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = kept.cancelled() => break,
                () = lost.cancelled() => break,
                _ = every.tick() => {}
            }
            let mut redis = self.link.connection();
            let renewed: redis::RedisResult<i64> = script
                .key(keys::owner(game))
                .key(keys::GAMES)
                .arg(&holder)
                .arg(self.ttl_ms())
                .arg(game.0)
                .invoke_async(&mut redis)
                .await;
            match self.link.noted(renewed) {
                Ok(1) => {}
                Ok(_) => {
                    tracing::warn!(game = %game, "another node holds the game's lease now");
                    lost.cancel();
                }
                // Redis does not answer: the game goes on. No node can take the lease while
                // Redis is down, and one that takes it later (or while only this node is cut
                // off) draws a newer fencing token, so any later write here is refused by the
                // database and the table stops then. The next renewal puts the lease back if Redis
                // restarted empty.
                Err(_) => {}
            }
        }
        if !lost.is_cancelled() || self.games.is_cancelled() {
            // The table ended (or the node stops): the lease goes back at once, so another node
            // takes an unfinished game without waiting for it to lapse.
            self.release(game, &holder).await;
        }
        drop(held);
    }

    async fn release(&self, game: GameId, holder: &str) {
        let mut redis = self.link.connection();
        let released: redis::RedisResult<i64> = redis::Script::new(RELEASE)
            .key(keys::owner(game))
            .arg(holder)
            .invoke_async(&mut redis)
            .await;
        let _ = self.link.noted(released);
    }
}

impl Ownership for Leases {
    fn acquire(&self, game: GameId) -> BoxFuture<'static, Result<Lease, Refusal>> {
        let leases = self.clone();
        async move {
            leases.take(game).await.map_err(|err| match err {
                LeaseError::Store(err) => Refusal::CreationNotStored(err),
                err => Refusal::ClusterUnavailable(err.to_string()),
            })
        }
        .boxed()
    }
}

/// The leases as the tables' [`Ownership`].
#[must_use]
pub fn ownership(leases: &Leases) -> Arc<dyn Ownership> {
    Arc::new(leases.clone())
}
