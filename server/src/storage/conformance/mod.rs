//! The [`Store`] conformance suite: every behaviour of the store seam, tested once, the same way
//! for every implementation, so the server above it can rely on the trait alone. SQLite runs it
//! in `cargo test --workspace` (`sqlite.rs`); PostgreSQL runs it behind the `postgres-tests`
//! feature (`server/tests/postgres.rs`), against a server the test starts itself.
//!
//! An implementation joins with a [`TestDatabase`] (how to make an empty database and open a
//! second store on it) and one call of [`check`]. The cases:
//! - a game is kept from creation to result: seats, moves in sequence (out of sequence and
//!   unknown games refused with their errors), takebacks, one result, every field read back;
//! - games that never started are aborted in one statement; unfinished games come oldest first;
//! - history: finished games newest first, by player (person or guest) and by kind, limited;
//! - ratings per game kind and identity, the leaderboard best first and limited;
//! - identities: a name is bound to one key, once;
//! - resume tokens by their hash, a name's tokens, a token given again to another name; old
//!   tokens forgotten, but not those of guests seated in an unfinished game;
//! - the server's id: 32 hex digits, the same for every store on the database;
//! - a batch is seen by others only once committed, a rolled-back batch not at all, and a failing
//!   request (even one the database itself refuses) is undone without losing the batch;
//! - game ids: never the same twice, also between two stores reserving at once, and above every
//!   id handed out before a restart;
//! - rated results finished at once from two stores on one database lose no rating update;
//! - moderation: bans (with their reasons) and mutes by name until lifted, seen by another
//!   store on the database, and the admin log newest first.

mod batches;
mod games;
mod moderation;
mod players;

pub use batches::*;
pub use games::*;
pub use moderation::*;
pub use players::*;

use super::records::{NewGame, Participant, StoredMove};
use super::store::{Store, StoreError};
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::domain::{GameId, TimeControl};

/// A database the suite may empty and open stores on.
pub trait TestDatabase {
    /// A store on a new, empty database (migrated, as the server opens it).
    fn fresh(&mut self) -> Box<dyn Store>;
    /// Another store on the database the last [`TestDatabase::fresh`] made: a second server
    /// sharing it, or the same server after a restart.
    fn another(&mut self) -> Box<dyn Store>;
}

/// One behaviour of the suite.
pub type Case = fn(&mut dyn TestDatabase);

/// Every case, by name.
pub const CASES: [(&str, Case); 15] = [
    (
        "a game is kept from creation to result",
        a_game_is_kept_from_creation_to_result,
    ),
    (
        "every stored value reads back",
        every_stored_value_reads_back,
    ),
    (
        "games that never started are aborted in one statement",
        games_that_never_started_are_aborted_in_one_statement,
    ),
    (
        "history lists finished games newest first with filters",
        history_lists_finished_games_newest_first_with_filters,
    ),
    (
        "ratings are kept per game and listed best first",
        ratings_are_kept_per_game_and_listed_best_first,
    ),
    ("a name is bound to one key", a_name_is_bound_to_one_key),
    (
        "resume tokens are kept by their hash",
        resume_tokens_are_kept_by_their_hash,
    ),
    (
        "old resume tokens are forgotten unless their guest is in an unfinished game",
        old_resume_tokens_are_forgotten_unless_their_guest_is_in_an_unfinished_game,
    ),
    (
        "the server id is the database's",
        the_server_id_is_the_databases,
    ),
    (
        "a batch is seen only once committed",
        a_batch_is_seen_only_once_committed,
    ),
    (
        "a failing request is undone and the batch goes on",
        a_failing_request_is_undone_and_the_batch_goes_on,
    ),
    (
        "game ids are never handed out twice",
        game_ids_are_never_handed_out_twice,
    ),
    (
        "rated results from two stores at once lose no update",
        rated_results_from_two_stores_at_once_lose_no_update,
    ),
    (
        "only the latest lease writes a game",
        only_the_latest_lease_writes_a_game,
    ),
    (
        "sanctions and the admin log are kept",
        sanctions_and_the_admin_log_are_kept,
    ),
];

/// Runs every case, each on a fresh database, naming the case that fails.
pub fn check(database: &mut dyn TestDatabase) {
    for (name, case) in CASES {
        eprintln!("store conformance: {name}");
        case(database);
    }
}

fn ok<T>(result: Result<T, StoreError>, what: &str) -> T {
    match result {
        Ok(value) => value,
        Err(err) => panic!("{what}: {err}"),
    }
}

/// `count` fresh ids from `store`.
fn ids(store: &mut dyn Store, count: u32) -> Vec<GameId> {
    let ids = ok(store.reserve_game_ids(count), "reserving game ids");
    assert_eq!(ids.len(), count as usize, "{ids:?}");
    ids
}

/// A rated game of `kind` with a clock, created at a time that follows its id.
#[must_use]
pub fn new_game(id: GameId, kind: GameKind, seats: [Participant; 2]) -> NewGame {
    NewGame {
        id,
        spec: kind.into(),
        time_control: TimeControl::Incremental {
            initial_secs: 60,
            increment_secs: 1,
        },
        rated: true,
        start_position: None,
        seats,
        created_at_ms: 1_000 * i64::try_from(id.0).unwrap_or(0),
    }
}

/// Move `ply`, with the first side's clock a little lower each move.
#[must_use]
pub fn stored_move(ply: u32, text: &str) -> StoredMove {
    StoredMove {
        ply,
        text: text.to_owned(),
        clocks_ms: [Some(60_000 - u64::from(ply)), None],
        played_at_ms: i64::from(ply),
    }
}

/// The person alice against the advanced bot.
#[must_use]
pub fn alice_and_bot() -> [Participant; 2] {
    [
        Participant::Person("alice".into()),
        Participant::Bot(Level::Advanced),
    ]
}

fn create(store: &mut dyn Store, game: &NewGame) {
    ok(store.create_game(game), "creating a game");
}
