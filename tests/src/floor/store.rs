//! The floor's storing mode (`kingme-floor --store`): the relay stores every move in an SQLite
//! file with kingme-server's own store, and echoes and copies it only once it is committed, as
//! a judge must ("announced only after it is stored"). Each pair is one game, created when the
//! pair meets; its moves are the game's plies in turn.
//!
//! Two ways to reach the store, to tell what storing costs from what handing it off costs:
//! - [`Storing::Worker`]: through kingme-server's storage worker ([`Storage`]) on tokio's
//!   blocking pool, moves queued together committed together, exactly as the server stores;
//! - [`Storing::Inline`]: by the pair's own task, each move its own transaction and commit,
//!   under a lock the pairs share. No hand-off at all; this blocks the runtime's thread while
//!   SQLite works, which the server may not do, so it is a lower bound on storing's cost and
//!   not a design.

use kingme_server::test_support::{
    NewGame, Participant, SqliteStore, Storage, Store, StoreError, StoredMove,
};
use kingme_shared::ai::Level;
use kingme_shared::protocol::{GameId, TimeControl};
use kingme_shared::{GameKind, GameSpec};
use std::path::Path;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// How the relay reaches its store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Storing {
    /// kingme-server's storage worker on the blocking pool, with its batches.
    Worker,
    /// The pair's own task, one commit a move (a lower bound; blocks the runtime).
    Inline,
}

/// The relay's store of games and moves.
pub struct MoveStore {
    reached: Reached,
    /// The games created, in order.
    games: Mutex<Vec<GameId>>,
}

/// How a [`MoveStore`] reaches SQLite.
enum Reached {
    /// Through the storage worker.
    Worker(Storage),
    /// Locked and used in place (boxed: the store is large beside the worker's handle).
    Inline(Box<Mutex<SqliteStore>>),
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

/// A pair's game as the store keeps it: noughts and crosses between two guests, no clock.
fn new_game(id: GameId) -> NewGame {
    NewGame {
        id,
        spec: GameSpec::standard(GameKind::TicTacToe),
        time_control: TimeControl::Unlimited,
        rated: false,
        start_position: None,
        seats: [
            Participant::Guest("first".to_owned()),
            Participant::Bot(Level::Random),
        ],
        created_at_ms: now_ms(),
    }
}

/// A pair's move `ply` as stored: a square's number (the store does not check the rules).
fn stored_move(ply: u32) -> StoredMove {
    StoredMove {
        ply,
        text: (ply % 9 + 1).to_string(),
        clocks_ms: [None, None],
        played_at_ms: now_ms(),
    }
}

/// Runs `work` in one transaction of `store`, committed if it succeeds.
fn in_one_commit<T>(
    store: &Mutex<SqliteStore>,
    work: impl FnOnce(&mut SqliteStore) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut store = store
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    store.begin_batch()?;
    match work(&mut store).and_then(|value| store.commit_batch().map(|()| value)) {
        Ok(value) => Ok(value),
        Err(err) => {
            store.rollback_batch();
            Err(err)
        }
    }
}

impl MoveStore {
    /// Opens (creating) the database at `path` as kingme-server opens its file (WAL, the
    /// default durability, the log checkpointed on a thread of its own), reached as `storing`
    /// says. [`Storing::Worker`] must be opened within a tokio runtime.
    pub fn open(path: &Path, storing: Storing) -> Result<MoveStore, StoreError> {
        let store = SqliteStore::open(path, now_ms())?;
        let reached = match storing {
            Storing::Worker => Reached::Worker(Storage::start(store)),
            Storing::Inline => Reached::Inline(Box::new(Mutex::new(store))),
        };
        Ok(MoveStore {
            reached,
            games: Mutex::default(),
        })
    }

    /// The games created so far, in order.
    pub fn games(&self) -> Vec<GameId> {
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Creates a pair's game and returns its id.
    pub async fn begin_game(&self) -> Result<GameId, StoreError> {
        let created = |store: &mut dyn Store| {
            let id = store
                .reserve_game_ids(1)?
                .first()
                .copied()
                .ok_or_else(|| StoreError::Database("no game id was reserved".to_owned()))?;
            store.create_game(&new_game(id))?;
            Ok(id)
        };
        let id = match &self.reached {
            Reached::Worker(storage) => storage.run(created).await,
            Reached::Inline(store) => in_one_commit(store, |store| created(store)),
        }?;
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(id);
        Ok(id)
    }

    /// Stores the game's move `ply` (1 for the first) and returns once it is committed.
    pub async fn store_move(&self, game: GameId, ply: u32) -> Result<(), StoreError> {
        match &self.reached {
            Reached::Worker(storage) => storage.record_move(game, stored_move(ply)).await,
            Reached::Inline(store) => {
                in_one_commit(store, |store| store.record_move(game, &stored_move(ply)))
            }
        }
    }

    /// How many moves the game `game` has stored.
    pub async fn stored_moves(&self, game: GameId) -> Result<usize, StoreError> {
        let count = move |store: &mut dyn Store| {
            store
                .game(game)
                .map(|stored| stored.map_or(0, |stored| stored.moves.len()))
        };
        match &self.reached {
            Reached::Worker(storage) => storage.run(count).await,
            Reached::Inline(store) => in_one_commit(store, |store| count(store)),
        }
    }
}
