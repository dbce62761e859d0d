//! The lobby: every open table by id, the list of games a client sees, and game creation.
//!
//! A table publishes its summary on a watch channel, so listing games reads the latest summaries
//! without asking (or waiting for) any table. Finished games stay listed a while after their
//! table closes.

use crate::error::Refusal;
use crate::options;
use crate::seat::Seat;
use crate::server::Shared;
use crate::session::Session;
use crate::table::{self, TableHandle};
use kingme_shared::Side;
use kingme_shared::protocol::{
    ErrorKind, GameId, GameOptions, GameStatus, GameSummary, MAX_LISTED_GAMES, Opponent, SeatChoice,
};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Finished games remembered after their tables close.
const FINISHED_KEPT: usize = 50;

/// Every table, and the recently finished games.
#[derive(Debug, Default)]
pub struct Lobby {
    tables: Mutex<BTreeMap<GameId, TableHandle>>,
    finished: Mutex<VecDeque<GameSummary>>,
    last_id: AtomicU64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Lobby {
    /// A fresh game id.
    pub fn next_id(&self) -> GameId {
        GameId(self.last_id.fetch_add(1, Ordering::Relaxed) + 1)
    }

    /// Makes the ids handed out from now on follow `last` (the highest id the database holds),
    /// so a restarted server never reuses a game's id.
    pub fn continue_after(&self, last: GameId) {
        self.last_id.fetch_max(last.0, Ordering::Relaxed);
    }

    /// Lists a new table.
    pub fn insert(&self, table: TableHandle) {
        lock(&self.tables).insert(table.id, table);
    }

    /// Unlists a closing table, remembering its last summary if the game was played out.
    pub fn remove(&self, id: GameId, last: GameSummary) {
        lock(&self.tables).remove(&id);
        if matches!(last.status, GameStatus::Over(_)) && last.moves > 0 {
            let mut finished = lock(&self.finished);
            finished.push_front(last);
            finished.truncate(FINISHED_KEPT);
        }
    }

    /// The table of a game, or a refusal naming the id.
    pub fn table(&self, id: GameId) -> Result<TableHandle, Refusal> {
        lock(&self.tables).get(&id).cloned().ok_or_else(|| {
            Refusal::new(
                ErrorKind::NoSuchGame,
                format!("there is no game {id}; the lobby lists the games there are"),
            )
        })
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

    /// The game list: open seats first, then games in progress, then finished ones (newest
    /// first), at most [`MAX_LISTED_GAMES`].
    #[must_use]
    pub fn list(&self) -> Vec<GameSummary> {
        let live: Vec<GameSummary> = lock(&self.tables)
            .values()
            .map(TableHandle::summary)
            .collect();
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

/// Creates a game for `session` with `options`: checks them, seats the creator and the
/// opponent, and opens the table (which sends the creator the game's state).
pub fn create_game(
    shared: &Arc<Shared>,
    session: &Arc<Session>,
    options: &GameOptions,
) -> Result<TableHandle, Refusal> {
    let limit = shared.config.max_games_per_player;
    if session.active_games() >= limit {
        return Err(Refusal::new(
            ErrorKind::LimitExceeded,
            format!("you are in {limit} open or running games already; finish or leave one first"),
        ));
    }
    let setup = options::validate(options)
        .map_err(|err| Refusal::new(ErrorKind::InvalidOptions, err.to_string()))?;
    let creator = match options.seat {
        SeatChoice::Side(side) => Some(side),
        SeatChoice::Random => Some(if rand::random() {
            Side::First
        } else {
            Side::Second
        }),
        SeatChoice::Spectate => None,
    };
    let mut seats = [Seat::Empty, Seat::Empty];
    if let Some(side) = creator {
        seats[side.index()] = Seat::human(Arc::clone(session));
    }
    if let Opponent::Bot(level) = options.opponent {
        let side = creator.map_or(Side::Second, Side::opponent);
        seats[side.index()] = Seat::Bot(crate::bot::Bot::new(level, Arc::clone(&shared.bots)));
    }
    let spectators = if creator.is_none() {
        vec![Arc::clone(session)]
    } else {
        Vec::new()
    };
    let id = shared.lobby.next_id();
    Ok(table::open(shared, id, setup, seats, spectators))
}
