//! Game ids come from the database, so that servers sharing one (PostgreSQL) never hand out the
//! same id. Taking an id must not wait (a table opens a rematch from inside its own task), so a
//! block of ids is reserved ahead and topped up in the background when it runs low. Ids reserved
//! but never used (the server stopped) are skipped for good, never handed out again.

use crate::storage::{Storage, StoreError};
use kingme_shared::domain::GameId;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Ids reserved from the database at a time.
pub const BLOCK: u32 = 32;
/// The pool is topped up when it holds fewer ids than this.
const LOW_WATER: usize = BLOCK as usize / 2;
/// How long the supply waits before asking a database that failed again.
const RETRY: Duration = Duration::from_secs(1);

/// The ids reserved and not yet handed out.
#[derive(Debug, Default)]
pub struct GameIds {
    pool: Mutex<VecDeque<GameId>>,
    /// Woken when the pool runs low.
    low: Notify,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl GameIds {
    /// A fresh id, or `None` while the database has not given any (it is not answering).
    pub fn take(&self) -> Option<GameId> {
        let mut pool = lock(&self.pool);
        let id = pool.pop_front();
        if pool.len() < LOW_WATER {
            self.low.notify_one();
        }
        id
    }

    /// How many ids are ready.
    #[must_use]
    pub fn ready(&self) -> usize {
        lock(&self.pool).len()
    }

    /// Reserves one block from the database into the pool.
    pub async fn fill(&self, storage: &Storage) -> Result<(), StoreError> {
        let ids = storage.reserve_game_ids(BLOCK).await?;
        lock(&self.pool).extend(ids);
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
                while ids.ready() < LOW_WATER {
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
                    () = stop.cancelled() => return,
                    () = ids.low.notified() => {}
                }
            }
        });
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
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
        // The next block follows every id handed out, also after a restart.
        assert_eq!(
            storage.reserve_game_ids(1).await.unwrap()[0].0,
            u64::from(3 * BLOCK) + u64::try_from(ids.ready()).unwrap() + 1
        );
    }
}
