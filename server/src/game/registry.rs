//! Every open table by id, the game ids to hand out, and the recently finished games: the
//! register tables enter when they open and leave when they close, which the lobby lists.
//!
//! A table publishes its summary on a watch channel, so listing games reads the latest summaries
//! without asking (or waiting for) any table. Finished games stay listed a while after their
//! table closes. Every change to the list (a table opening, closing or publishing a new summary)
//! bumps a version on a watch channel, which the lobby's feed waits on.

use super::game_ids::GameIds;
use super::table_handle::TableHandle;
use crate::refusal::Refusal;
use crate::storage::Storage;
use kingme_shared::protocol::{GameId, GameStatus, GameSummary, MAX_LISTED_GAMES};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};
use tokio::sync::watch;

/// Finished games remembered after their tables close.
const FINISHED_KEPT: usize = 50;

/// Every table, and the recently finished games.
#[derive(Debug)]
pub struct TableRegistry {
    tables: Mutex<BTreeMap<GameId, TableHandle>>,
    finished: Mutex<VecDeque<GameSummary>>,
    /// On a cluster node: the games other nodes run, as they last told.
    elsewhere: Mutex<Vec<GameSummary>>,
    /// Ids reserved from the database, handed to new games.
    pub ids: std::sync::Arc<GameIds>,
    /// The list's version: bumped on every change.
    version: watch::Sender<u64>,
}

impl Default for TableRegistry {
    fn default() -> TableRegistry {
        TableRegistry {
            tables: Mutex::default(),
            finished: Mutex::default(),
            elsewhere: Mutex::default(),
            ids: std::sync::Arc::default(),
            version: watch::Sender::new(0),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TableRegistry {
    /// A fresh game id from the database's, waiting for the next block if the pool is empty;
    /// a refusal while the database gives none.
    pub async fn next_id(&self, storage: &Storage) -> Result<GameId, Refusal> {
        self.ids.next(storage).await.map_err(|err| {
            tracing::warn!(%err, "no game id for a new game");
            Refusal::NoGameId
        })
    }

    /// Lists a new table.
    pub fn insert(&self, table: TableHandle) {
        lock(&self.tables).insert(table.id, table);
        self.changed();
    }

    /// Notes that the list changed (a table published a new summary).
    pub fn changed(&self) {
        self.version
            .send_modify(|version| *version = version.wrapping_add(1));
    }

    /// A receiver that sees the list's version change.
    #[must_use]
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    /// Unlists a closing table, remembering its last summary if the game was played out.
    pub fn remove(&self, id: GameId, last: GameSummary) {
        lock(&self.tables).remove(&id);
        if matches!(last.status, GameStatus::Over(_)) && last.moves > 0 {
            let mut finished = lock(&self.finished);
            finished.push_front(last);
            finished.truncate(FINISHED_KEPT);
        }
        self.changed();
    }

    /// The table of a game, or a refusal naming the id.
    pub fn table(&self, id: GameId) -> Result<TableHandle, Refusal> {
        lock(&self.tables)
            .get(&id)
            .cloned()
            .ok_or(Refusal::NoSuchGame(id))
    }

    /// How many of `games` are open or running (a player's games, to hold them to the limit).
    #[must_use]
    pub fn active_among(&self, games: &[GameId]) -> usize {
        let tables = lock(&self.tables);
        games
            .iter()
            .filter_map(|id| tables.get(id))
            .filter(|table| !matches!(table.summary().status, GameStatus::Over(_)))
            .count()
    }

    /// How many tables are open.
    #[must_use]
    pub fn len(&self) -> usize {
        lock(&self.tables).len()
    }

    /// Whether no table is open.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Replaces the games other nodes of a cluster run (the lobby lists them too).
    pub fn set_elsewhere(&self, games: Vec<GameSummary>) {
        let mut elsewhere = lock(&self.elsewhere);
        if *elsewhere != games {
            *elsewhere = games;
            drop(elsewhere);
            self.changed();
        }
    }

    /// The summaries of the tables open here, for the other nodes of a cluster.
    #[must_use]
    pub fn local(&self) -> Vec<GameSummary> {
        lock(&self.tables)
            .values()
            .map(TableHandle::summary)
            .collect()
    }

    /// The game list: open seats first, then games in progress, then finished ones (newest
    /// first), at most [`MAX_LISTED_GAMES`]; on a cluster node, other nodes' games too.
    #[must_use]
    pub fn list(&self) -> Vec<GameSummary> {
        let mut live = self.local();
        live.extend(lock(&self.elsewhere).iter().cloned());
        let rank = |summary: &GameSummary| match summary.status {
            GameStatus::Open => 0,
            GameStatus::Playing => 1,
            GameStatus::Over(_) => 2,
        };
        let mut games = live;
        games.sort_by_key(|summary| (rank(summary), std::cmp::Reverse(summary.id)));
        games.extend(lock(&self.finished).iter().cloned());
        games.truncate(MAX_LISTED_GAMES);
        games
    }
}
