//! Every open table by id, the game ids to hand out, and the recently finished games: the
//! register tables enter when they open and leave when they close, which the lobby lists.
//!
//! On a cluster node, the games this node is taking over are marked while their tables open (the
//! lease is this node's, the table not yet listed): a request for one waits a moment for its
//! table ([`TableRegistry::opened`]) rather than being told there is no such game.
//!
//! A table publishes its summary on a watch channel, so listing games reads the latest summaries
//! without asking (or waiting for) any table. Finished games stay listed a while after their
//! table closes. Every change to the list (a table opening, closing or publishing a new summary)
//! bumps a version on a watch channel, which the lobby's feed waits on.

use super::game_ids::GameIds;
use super::table_handle::TableHandle;
use crate::refusal::Refusal;
use crate::storage::Storage;
use kingme_shared::protocol::{GameId, GameStatus, GameSummary, MAX_LISTED_GAMES, SeatHolder};
use parking_lot::Mutex;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Duration;
use tokio::sync::watch;

/// Finished games remembered after their tables close.
const FINISHED_KEPT: usize = 50;
/// How long a request for a game whose table is being opened here (a cluster node taking it
/// over) waits for the table before it is told there is no such game.
pub const OPENING_WAIT: Duration = Duration::from_secs(2);

/// Every table, and the recently finished games.
#[derive(Debug)]
pub struct TableRegistry {
    tables: Mutex<BTreeMap<GameId, TableHandle>>,
    finished: Mutex<VecDeque<GameSummary>>,
    /// On a cluster node: the games other nodes run, as they last told.
    elsewhere: Mutex<Vec<GameSummary>>,
    /// Games whose tables are being opened here (a takeover: lease taken, table not yet listed).
    opening: Mutex<BTreeSet<GameId>>,
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
            opening: Mutex::default(),
            ids: std::sync::Arc::default(),
            version: watch::Sender::new(0),
        }
    }
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
        self.tables.lock().insert(table.id, table);
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

    /// Unlists a closing table, remembering its last summary if the game was played out (with
    /// nobody watching: a closed table has no spectators).
    pub fn remove(&self, id: GameId, mut last: GameSummary) {
        self.tables.lock().remove(&id);
        last.spectators = 0;
        if matches!(last.status, GameStatus::Over(_)) && last.moves > 0 {
            let mut finished = self.finished.lock();
            finished.push_front(last);
            finished.truncate(FINISHED_KEPT);
        }
        self.changed();
    }

    /// The table of a game, or a refusal naming the id.
    pub fn table(&self, id: GameId) -> Result<TableHandle, Refusal> {
        self.tables
            .lock()
            .get(&id)
            .cloned()
            .ok_or(Refusal::NoSuchGame(id))
    }

    /// Marks `id` as being opened here until the mark is dropped (after its table is listed, or
    /// the opening failed).
    #[must_use]
    pub fn opening(&self, id: GameId) -> Opening<'_> {
        self.opening.lock().insert(id);
        Opening { registry: self, id }
    }

    /// The table of a game, waiting up to `limit` for it while it is being opened here (see
    /// [`TableRegistry::opening`]); a refusal naming the id if it is neither open nor opening, or
    /// still not open after `limit`.
    pub async fn opened(&self, id: GameId, limit: Duration) -> Result<TableHandle, Refusal> {
        let mut changes = self.watch();
        let wait = async {
            loop {
                // Marked seen before looking, so a change after the look wakes the wait.
                changes.borrow_and_update();
                if let Ok(table) = self.table(id) {
                    return Ok(table);
                }
                if !self.is_opening(id) {
                    // A table is listed before its mark is dropped: look once more.
                    return self.table(id);
                }
                if changes.changed().await.is_err() {
                    return Err(Refusal::NoSuchGame(id));
                }
            }
        };
        tokio::time::timeout(limit, wait)
            .await
            .unwrap_or(Err(Refusal::NoSuchGame(id)))
    }

    /// Whether `id`'s table is being opened here.
    #[must_use]
    pub fn is_opening(&self, id: GameId) -> bool {
        self.opening.lock().contains(&id)
    }

    /// How many of `games` are open or running (a player's games, to hold them to the limit).
    #[must_use]
    pub fn active_among(&self, games: &[GameId]) -> usize {
        let tables = self.tables.lock();
        games
            .iter()
            .filter_map(|id| tables.get(id))
            .filter(|table| !matches!(table.summary().status, GameStatus::Over(_)))
            .count()
    }

    /// Replaces the games other nodes of a cluster run (the lobby lists them too).
    pub fn set_elsewhere(&self, games: Vec<GameSummary>) {
        let mut elsewhere = self.elsewhere.lock();
        if *elsewhere != games {
            *elsewhere = games;
            drop(elsewhere);
            self.changed();
        }
    }

    /// The status of game `id` as this node knows it: its table's here, else (on a cluster node)
    /// as the node running it last listed it; `None` for a game running nowhere.
    #[must_use]
    pub fn status(&self, id: GameId) -> Option<GameStatus> {
        if let Some(table) = self.tables.lock().get(&id) {
            return Some(table.summary().status);
        }
        self.elsewhere
            .lock()
            .iter()
            .find(|summary| summary.id == id)
            .map(|summary| summary.status)
    }

    /// The tables here where the person (or guest) `name` holds a seat.
    #[must_use]
    pub fn seating(&self, name: &str) -> Vec<TableHandle> {
        self.tables
            .lock()
            .values()
            .filter(|table| {
                table.summary().seats.iter().any(
                    |seat| matches!(seat, SeatHolder::Human { name: held, .. } if held == name),
                )
            })
            .cloned()
            .collect()
    }

    /// The summaries of the tables open here, for the other nodes of a cluster.
    #[must_use]
    pub fn local(&self) -> Vec<GameSummary> {
        self.tables
            .lock()
            .values()
            .map(TableHandle::summary)
            .collect()
    }

    /// The game list: open seats first, then games in progress, then finished ones (newest
    /// first), at most [`MAX_LISTED_GAMES`]; on a cluster node, other nodes' games too.
    #[must_use]
    pub fn list(&self) -> Vec<GameSummary> {
        let mut live = self.local();
        live.extend(self.elsewhere.lock().iter().cloned());
        let rank = |summary: &GameSummary| match summary.status {
            GameStatus::Open => 0,
            GameStatus::Playing => 1,
            GameStatus::Over(_) => 2,
        };
        let mut games = live;
        games.sort_by_key(|summary| (rank(summary), std::cmp::Reverse(summary.id)));
        games.extend(self.finished.lock().iter().cloned());
        games.truncate(MAX_LISTED_GAMES);
        games
    }
}

/// A game's mark as being opened (see [`TableRegistry::opening`]); dropping it ends the mark and
/// wakes whoever waits for the table.
#[derive(Debug)]
pub struct Opening<'a> {
    registry: &'a TableRegistry,
    id: GameId,
}

impl Drop for Opening<'_> {
    fn drop(&mut self) {
        self.registry.opening.lock().remove(&self.id);
        self.registry.changed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;
    use kingme_shared::protocol::{SeatHolder, TimeControl};
    use std::sync::Arc;
    use tokio::sync::mpsc;

    fn handle(id: GameId) -> (TableHandle, watch::Sender<GameSummary>) {
        let summary = GameSummary {
            id,
            spec: GameKind::TicTacToe.into(),
            seats: [SeatHolder::Empty, SeatHolder::Empty],
            time_control: TimeControl::Unlimited,
            moves: 0,
            status: GameStatus::Playing,
            spectators: 0,
        };
        let (summaries, receiver) = watch::channel(summary);
        let (commands, _) = mpsc::channel(1);
        (TableHandle::new(id, commands, receiver), summaries)
    }

    const LIMIT: Duration = Duration::from_secs(2);

    /// A request waiting for `id`'s table, as a task.
    fn waiter(
        registry: &Arc<TableRegistry>,
        id: GameId,
    ) -> tokio::task::JoinHandle<Result<GameId, Refusal>> {
        let registry = Arc::clone(registry);
        tokio::spawn(async move { registry.opened(id, LIMIT).await.map(|table| table.id) })
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_for_a_game_being_opened_waits_for_its_table() {
        let registry = Arc::new(TableRegistry::default());
        let id = GameId(7);
        let opening = registry.opening(id);
        let waiting = waiter(&registry, id);
        tokio::time::sleep(LIMIT / 2).await;
        assert!(!waiting.is_finished(), "it waits while the game opens");
        let (table, _summaries) = handle(id);
        registry.insert(table);
        drop(opening);
        assert_eq!(waiting.await.unwrap(), Ok(id));
        assert!(!registry.is_opening(id));
    }

    #[test]
    fn a_finished_game_is_listed_with_nobody_watching_once_its_table_closed() {
        use kingme_shared::Side;
        use kingme_shared::protocol::{EndReason, GameResult};
        let registry = TableRegistry::default();
        let (table, summaries) = handle(GameId(4));
        registry.insert(table);
        // Its last summary, as the table published it: over, with someone still watching.
        let mut last = summaries.borrow().clone();
        last.moves = 9;
        last.spectators = 1;
        last.status = GameStatus::Over(GameResult {
            winner: Some(Side::First),
            reason: EndReason::Resignation,
        });
        registry.remove(GameId(4), last);
        let listed = registry.list();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            listed[0].spectators, 0,
            "a closed table has nobody watching"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_ends_with_the_honest_refusal() {
        let registry = Arc::new(TableRegistry::default());
        // Neither open nor opening: at once.
        assert_eq!(
            waiter(&registry, GameId(1)).await.unwrap(),
            Err(Refusal::NoSuchGame(GameId(1)))
        );
        // Opening for longer than the limit.
        let _opening = registry.opening(GameId(2));
        let started = tokio::time::Instant::now();
        assert_eq!(
            waiter(&registry, GameId(2)).await.unwrap(),
            Err(Refusal::NoSuchGame(GameId(2)))
        );
        assert_eq!(started.elapsed(), LIMIT);
        // An opening that failed: the waiter hears at once.
        let failing = registry.opening(GameId(3));
        let waiting = waiter(&registry, GameId(3));
        tokio::task::yield_now().await;
        let started = tokio::time::Instant::now();
        drop(failing);
        assert_eq!(waiting.await.unwrap(), Err(Refusal::NoSuchGame(GameId(3))));
        assert!(started.elapsed() < LIMIT);
    }
}
