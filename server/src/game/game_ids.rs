//! Game ids come from the database, so that servers sharing one (PostgreSQL) never hand out the
//! same id. A block of ids is reserved ahead and topped up in the background when it runs low,
//! so taking one does not wait. A burst of new games that empties the pool before the top-up
//! comes back is served, not refused: a request that finds the pool empty waits for the next
//! block ([`GameIds::next`]; one reservation at a time, the others wait for it), and each time
//! the pool runs dry the blocks grow, up to [`MAX_BLOCK`]. Ids reserved but never used are
//! given back when the server stops, where the database can take them back (SQLite, a server
//! of its own: the embedded server's games go on #1, #2, #3 across restarts); elsewhere, or
//! after a crash, they are skipped for good, never handed out again.

use crate::storage::{Storage, StoreError};
use kingme_shared::domain::GameId;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Ids reserved from the database at a time, at first.
pub const BLOCK: u32 = 32;
/// The most ids reserved at a time, however fast they go.
pub const MAX_BLOCK: u32 = 1024;
/// How long the supply waits before asking a database that failed again.
const RETRY: Duration = Duration::from_secs(1);

/// The ids reserved and not yet handed out.
#[derive(Debug)]
pub struct GameIds {
    pool: Mutex<VecDeque<GameId>>,
    /// How many ids the next reservation asks for: doubled each time the pool runs dry.
    block: AtomicU32,
    /// Held while a block is being reserved, so that a burst asks the database once.
    reserving: tokio::sync::Mutex<()>,
    /// Woken when the pool runs low.
    low: Notify,
}

impl Default for GameIds {
    fn default() -> GameIds {
        GameIds {
            pool: Mutex::default(),
            block: AtomicU32::new(BLOCK),
            reserving: tokio::sync::Mutex::new(()),
            low: Notify::new(),
        }
    }
}

impl GameIds {
    /// A fresh id at once, or `None` when the pool is empty (a burst used it up, or the
    /// database has not answered); [`GameIds::next`] waits for one instead.
    pub fn take(&self) -> Option<GameId> {
        let mut pool = self.pool.lock();
        let id = pool.pop_front();
        if pool.len() < self.low_water() {
            self.low.notify_one();
        }
        id
    }

    /// A fresh id: from the pool, or when it is empty from the next block, waiting for it. An
    /// error only when the database does not answer.
    pub async fn next(&self, storage: &Storage) -> Result<GameId, StoreError> {
        loop {
            if let Some(id) = self.take() {
                return Ok(id);
            }
            let _reserving = self.reserving.lock().await;
            // Whoever held the lock before may have filled the pool meanwhile.
            if self.ready() == 0 {
                // Ids go faster than a block a round trip: reserve more at a time from now on.
                let _ = self
                    .block
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |block| {
                        Some(block.saturating_mul(2).min(MAX_BLOCK))
                    });
                self.reserve(storage).await?;
            }
        }
    }

    /// How many ids are ready.
    #[must_use]
    pub fn ready(&self) -> usize {
        self.pool.lock().len()
    }

    /// How many ids the next reservation asks for.
    #[must_use]
    pub fn block(&self) -> u32 {
        self.block.load(Ordering::Relaxed)
    }

    /// The pool is topped up when it holds fewer ids than this: half a block.
    fn low_water(&self) -> usize {
        usize::try_from(self.block() / 2).unwrap_or(usize::MAX)
    }

    /// Reserves one block from the database into the pool (unless another reservation is under
    /// way, which this waits for).
    pub async fn fill(&self, storage: &Storage) -> Result<(), StoreError> {
        let _reserving = self.reserving.lock().await;
        self.reserve(storage).await
    }

    /// Reserves one block; the caller holds `reserving`.
    async fn reserve(&self, storage: &Storage) -> Result<(), StoreError> {
        let ids = storage.reserve_game_ids(self.block()).await?;
        self.pool.lock().extend(ids);
        Ok(())
    }

    /// Keeps the pool topped up from `storage` until `stop`, on `tasks`. A database that does not
    /// answer is logged once per outage and asked again every second.
    pub fn supply(
        self: &Arc<Self>,
        storage: Storage,
        stop: CancellationToken,
        tasks: &TaskTracker,
    ) {
        let ids = Arc::clone(self);
        tasks.spawn(async move {
            let mut failing = false;
            loop {
                while ids.ready() < ids.low_water() {
                    match ids.fill(&storage).await {
                        Ok(()) => failing = false,
                        Err(err) => {
                            if !failing {
                                tracing::error!(%err, "cannot reserve game ids; retrying");
                                failing = true;
                            }
                            tokio::select! {
                                () = stop.cancelled() => return,
                                () = tokio::time::sleep(RETRY) => {}
                            }
                        }
                    }
                }
                tokio::select! {
                    () = stop.cancelled() => break,
                    () = ids.low.notified() => {}
                }
            }
            ids.give_back(&storage).await;
        });
    }

    /// Empties the pool and gives its ids back to the database: the run of consecutive ids
    /// that ends with the highest (ids are handed out in order, so that is all of them unless
    /// another server shares the database).
    async fn give_back(&self, storage: &Storage) {
        let unused: Vec<GameId> = self.pool.lock().drain(..).collect();
        let Some(&last) = unused.last() else {
            return;
        };
        let mut first = last;
        for id in unused.iter().rev().skip(1) {
            if id.0 + 1 != first.0 {
                break;
            }
            first = *id;
        }
        if let Err(err) = storage.release_game_ids(first, last).await {
            tracing::warn!(%err, "could not give back the unused game ids {first} to {last}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::SqliteStore;

    #[tokio::test]
    async fn ids_come_from_the_database_and_the_pool_is_topped_up() {
        let storage =
            Storage::start(SqliteStore::open(std::path::Path::new(":memory:"), 0).unwrap());
        let ids = Arc::new(GameIds::default());
        assert_eq!(ids.take(), None, "nothing before the database gave ids");
        ids.fill(&storage).await.unwrap();
        let stop = CancellationToken::new();
        let tasks = TaskTracker::new();
        ids.supply(storage.clone(), stop.clone(), &tasks);
        let mut taken = Vec::new();
        for _ in 0..3 * BLOCK {
            while ids.ready() == 0 {
                tokio::task::yield_now().await;
            }
            taken.push(ids.take().unwrap());
        }
        let expected: Vec<GameId> = (1..=u64::from(3 * BLOCK)).map(GameId).collect();
        assert_eq!(taken, expected);
        stop.cancel();
        tasks.close();
        tasks.wait().await;
        // Stopped, the supply gave back the ids it had not handed out: the next id, also after
        // a restart, is the one after the last handed out.
        assert_eq!(ids.ready(), 0);
        assert_eq!(
            storage.reserve_game_ids(1).await.unwrap()[0].0,
            u64::from(3 * BLOCK) + 1
        );
    }

    #[tokio::test]
    async fn a_burst_that_empties_the_pool_is_served_by_one_reservation_and_grows_the_blocks() {
        let storage =
            Storage::start(SqliteStore::open(std::path::Path::new(":memory:"), 0).unwrap());
        let ids = Arc::new(GameIds::default());
        ids.fill(&storage).await.unwrap();
        // Nobody tops the pool up (no supply): the burst itself must find ids.
        let burst = 3 * BLOCK as usize;
        let mut waiting = tokio::task::JoinSet::new();
        for _ in 0..burst {
            let ids = Arc::clone(&ids);
            let storage = storage.clone();
            waiting.spawn(async move { ids.next(&storage).await });
        }
        let mut given: Vec<u64> = waiting
            .join_all()
            .await
            .into_iter()
            .map(|id| id.unwrap().0)
            .collect();
        given.sort_unstable();
        given.dedup();
        assert_eq!(given.len(), burst, "every request got an id of its own");
        assert!(
            ids.block() > BLOCK,
            "a dry pool makes the next blocks larger"
        );
        // Handed out plus left in the pool is exactly what was reserved: the waiting requests
        // shared each reservation instead of each asking the database for a block.
        let reserved = storage.reserve_game_ids(1).await.unwrap()[0].0 - 1;
        assert_eq!(
            reserved,
            u64::try_from(burst + ids.ready()).unwrap(),
            "no block reserved and dropped"
        );
        assert!(
            reserved <= u64::from(BLOCK + 2 * BLOCK + 4 * BLOCK),
            "three reservations at most, growing: {reserved} ids"
        );
    }

    #[tokio::test]
    async fn the_blocks_never_grow_past_the_largest() {
        let storage =
            Storage::start(SqliteStore::open(std::path::Path::new(":memory:"), 0).unwrap());
        let ids = GameIds::default();
        for _ in 0..10 {
            while ids.take().is_some() {}
            ids.next(&storage).await.unwrap();
            assert!(ids.block() <= MAX_BLOCK);
        }
        assert_eq!(ids.block(), MAX_BLOCK);
    }
}
