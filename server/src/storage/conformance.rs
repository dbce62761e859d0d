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
//! - resume tokens by their hash, a name's tokens, a token given again to another name;
//! - the server's id: 32 hex digits, the same for every store on the database;
//! - a batch is seen by others only once committed, a rolled-back batch not at all, and a failing
//!   request (even one the database itself refuses) is undone without losing the batch;
//! - game ids: never the same twice, also between two stores reserving at once, and above every
//!   id handed out before a restart;
//! - rated results finished at once from two stores on one database lose no rating update.

use super::rating_update::rate_game;
use super::ratings::{Rated, Rating};
use super::records::{NewGame, Participant, StoredMove};
use super::store::{HistoryQuery, Store, StoreError};
use kingme_shared::ai::Level;
use kingme_shared::domain::{EndReason, GameId, GameResult, TimeControl};
use kingme_shared::{DrawReason, GameKind, GameSpec, Side, Variant, WinReason};
use std::collections::HashSet;

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
pub const CASES: [(&str, Case); 13] = [
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

/// Creation, seats, moves, takeback and result, each refusal with its error.
pub fn a_game_is_kept_from_creation_to_result(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    let [id, unknown] = ids(store, 2)[..] else {
        unreachable!("two ids")
    };
    let game = new_game(
        id,
        GameKind::Checkers,
        [Participant::Empty, Participant::Empty],
    );
    create(store, &game);
    ok(
        store.set_seat(id, Side::First, &Participant::Person("alice".into())),
        "seating alice",
    );
    ok(
        store.set_seat(id, Side::Second, &Participant::Bot(Level::Advanced)),
        "seating a bot",
    );
    for (ply, text) in [(1, "11-15"), (2, "23-19"), (3, "8-11")] {
        ok(store.record_move(id, &stored_move(ply, text)), "a move");
    }
    // Out of order, and for a game that does not exist.
    assert_eq!(
        store.record_move(id, &stored_move(3, "9-13")),
        Err(StoreError::OutOfSequence {
            game: id,
            ply: 3,
            expected: 4
        })
    );
    assert_eq!(
        store.record_move(id, &stored_move(5, "9-13")),
        Err(StoreError::OutOfSequence {
            game: id,
            ply: 5,
            expected: 4
        })
    );
    assert!(matches!(
        store.record_move(unknown, &stored_move(1, "9-13")),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.set_seat(unknown, Side::First, &Participant::Guest("g".into())),
        Err(StoreError::NotFound(_))
    ));
    ok(store.take_back(id, 2), "a takeback");
    ok(
        store.record_move(id, &stored_move(3, "9-13")),
        "a move after it",
    );
    assert_eq!(ok(store.unfinished_games(), "unfinished").len(), 1);
    let result = GameResult {
        winner: Some(Side::Second),
        reason: EndReason::Resignation,
    };
    ok(store.finish_game(id, &result, 99), "the result");
    // A game ends once, and takes no move or seat after.
    assert!(matches!(
        store.finish_game(id, &result, 100),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.record_move(id, &stored_move(4, "22-18")),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.set_seat(id, Side::First, &Participant::Guest("g".into())),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.finish_game(unknown, &result, 100),
        Err(StoreError::NotFound(_))
    ));
    let stored = ok(store.game(id), "the game").expect("the game is stored");
    assert_eq!(stored.game.seats, alice_and_bot());
    let texts: Vec<&str> = stored.moves.iter().map(|mv| mv.text.as_str()).collect();
    assert_eq!(texts, ["11-15", "23-19", "9-13"]);
    assert_eq!(stored.moves[2], stored_move(3, "9-13"));
    assert_eq!(stored.result, Some(result));
    assert_eq!(stored.finished_at_ms, Some(99));
    assert!(ok(store.unfinished_games(), "unfinished").is_empty());
    assert_eq!(ok(store.game(unknown), "an unknown game"), None);
    assert_eq!(ok(store.game(GameId(u64::MAX)), "an id out of range"), None);
}

/// Every kind of value a game holds comes back as it went in.
pub fn every_stored_value_reads_back(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    let time_controls = [
        TimeControl::Unlimited,
        TimeControl::Incremental {
            initial_secs: 300,
            increment_secs: 5,
        },
        TimeControl::PerMove { secs: 10 },
    ];
    let seats = [
        [
            Participant::Guest("bob: the second".into()),
            Participant::Person("Zoë".into()),
        ],
        [
            Participant::Bot(Level::Random),
            Participant::Bot(Level::Expert),
        ],
        alice_and_bot(),
    ];
    let specs = [
        GameSpec::new(GameKind::Pente, Variant::Free).expect("free Pente"),
        GameSpec::standard(GameKind::Pente),
        GameSpec::standard(GameKind::TicTacToe),
    ];
    let ids = ids(store, 3);
    let mut games = Vec::new();
    for (index, ((time_control, seats), spec)) in
        time_controls.into_iter().zip(seats).zip(specs).enumerate()
    {
        let game = NewGame {
            id: ids[index],
            spec,
            time_control,
            rated: index % 2 == 0,
            start_position: (index == 0).then(|| "1:::0,0".to_owned()),
            seats,
            created_at_ms: 1_700_000_000_000 + i64::try_from(index).unwrap_or(0),
        };
        create(store, &game);
        let mv = StoredMove {
            ply: 1,
            text: "K10".into(),
            clocks_ms: [Some(u64::from(u32::MAX) * 4), Some(0)],
            played_at_ms: 1_700_000_000_500,
        };
        ok(store.record_move(game.id, &mv), "a move");
        games.push((game, mv));
    }
    let draw = GameResult {
        winner: None,
        reason: EndReason::DrawAgreed,
    };
    ok(
        store.finish_game(ids[1], &draw, 1_800_000_000_000),
        "a draw",
    );
    for (game, mv) in &games {
        let stored = ok(store.game(game.id), "a game").expect("stored");
        assert_eq!(&stored.game, game);
        assert_eq!(stored.moves, std::slice::from_ref(mv));
    }
    let drawn = ok(store.game(ids[1]), "the draw").expect("stored");
    assert_eq!(drawn.result, Some(draw));
    assert_eq!(drawn.finished_at_ms, Some(1_800_000_000_000));
    // Oldest first: what a restarted server resumes.
    let unfinished: Vec<GameId> = ok(store.unfinished_games(), "unfinished")
        .iter()
        .map(|game| game.game.id)
        .collect();
    assert_eq!(unfinished, [ids[0], ids[2]]);
}

/// Open games close in one statement; games with both seats filled stay.
pub fn games_that_never_started_are_aborted_in_one_statement(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    let ids = ids(store, 4);
    let open = [Participant::Person("alice".into()), Participant::Empty];
    for id in &ids[..3] {
        create(store, &new_game(*id, GameKind::Checkers, open.clone()));
    }
    create(
        store,
        &new_game(ids[3], GameKind::Checkers, alice_and_bot()),
    );
    assert_eq!(ok(store.abort_open_games(99), "aborting"), 3);
    let left: Vec<GameId> = ok(store.unfinished_games(), "unfinished")
        .iter()
        .map(|g| g.game.id)
        .collect();
    assert_eq!(left, vec![ids[3]]);
    let aborted = ok(store.game(ids[1]), "an aborted game").expect("stored");
    assert_eq!(aborted.result.map(|r| r.reason), Some(EndReason::Aborted));
    assert_eq!(aborted.result.and_then(|r| r.winner), None);
    assert_eq!(aborted.finished_at_ms, Some(99));
    assert_eq!(ok(store.abort_open_games(100), "aborting again"), 0);
}

/// Finished games, newest first, by player and kind, limited; unfinished ones never.
pub fn history_lists_finished_games_newest_first_with_filters(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    let seats = [
        alice_and_bot(),
        [
            Participant::Guest("bob".into()),
            Participant::Person("alice".into()),
        ],
        [
            Participant::Guest("bob".into()),
            Participant::Bot(Level::Random),
        ],
    ];
    let kinds = [GameKind::Checkers, GameKind::Pente, GameKind::TicTacToe];
    let ids = ids(store, 4);
    for (index, (seats, kind)) in seats.into_iter().zip(kinds).enumerate() {
        let id = ids[index];
        create(store, &new_game(id, kind, seats));
        for ply in 1..=u32::try_from(index).unwrap_or(0) {
            ok(store.record_move(id, &stored_move(ply, "x")), "a move");
        }
        let result = GameResult {
            winner: None,
            reason: EndReason::Draw(DrawReason::Repetition),
        };
        let at = 10 * i64::try_from(index + 1).unwrap_or(0);
        ok(store.finish_game(id, &result, at), "a result");
    }
    create(
        store,
        &new_game(ids[3], GameKind::Checkers, alice_and_bot()),
    );
    let listed = |query: HistoryQuery, store: &mut dyn Store| -> Vec<GameId> {
        ok(
            store.history(&HistoryQuery { limit: 10, ..query }),
            "history",
        )
        .iter()
        .map(|entry| entry.id)
        .collect()
    };
    assert_eq!(
        listed(HistoryQuery::default(), store),
        [ids[2], ids[1], ids[0]]
    );
    let player = |name: &str| HistoryQuery {
        player: Some(name.to_owned()),
        ..HistoryQuery::default()
    };
    assert_eq!(listed(player("alice"), store), [ids[1], ids[0]]);
    assert_eq!(listed(player("bob"), store), [ids[2], ids[1]]);
    assert_eq!(listed(player("carol"), store), Vec::<GameId>::new());
    let pente = HistoryQuery {
        kind: Some(GameKind::Pente),
        ..HistoryQuery::default()
    };
    assert_eq!(listed(pente, store), [ids[1]]);
    let both = HistoryQuery {
        kind: Some(GameKind::Checkers),
        ..player("bob")
    };
    assert_eq!(listed(both, store), Vec::<GameId>::new());
    let entries = ok(
        store.history(&HistoryQuery {
            limit: 1,
            ..HistoryQuery::default()
        }),
        "history",
    );
    assert_eq!(entries.len(), 1);
    let newest = &entries[0];
    assert_eq!(newest.players, ["bob (guest)", "random (bot)"]);
    assert_eq!(
        (
            newest.kind,
            newest.moves,
            newest.rated,
            newest.finished_at_ms
        ),
        (GameKind::TicTacToe, 2, true, 30)
    );
    assert_eq!(
        newest.result.reason,
        EndReason::Draw(DrawReason::Repetition)
    );
}

fn rating(value: f64) -> Rating {
    Rating {
        rating: value,
        games: 3,
        wins: 1,
        draws: 1,
        losses: 1,
    }
}

/// A rating per kind and identity; the leaderboard best first, by kind or of all, limited.
pub fn ratings_are_kept_per_game_and_listed_best_first(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    let alice = Rated::Person("alice".into());
    // A person may be named like a bot level: the two are different identities.
    let advanced_person = Rated::Person("advanced".into());
    let bot = Rated::Bot(Level::Advanced);
    let set = |store: &mut dyn Store, kind, who: &Rated, value| {
        ok(store.set_rating(kind, who, &rating(value)), "a rating");
    };
    set(store, GameKind::Checkers, &alice, 1516.0);
    set(store, GameKind::Checkers, &bot, 1600.4);
    set(store, GameKind::Checkers, &advanced_person, 1400.0);
    set(store, GameKind::Pente, &alice, 1400.0);
    // Replaced, not added.
    set(store, GameKind::Checkers, &alice, 1516.25);
    assert_eq!(
        ok(store.rating(GameKind::Checkers, &alice), "a rating"),
        Some(rating(1516.25))
    );
    assert_eq!(
        ok(
            store.rating(GameKind::Checkers, &advanced_person),
            "a rating"
        ),
        Some(rating(1400.0))
    );
    assert_eq!(
        ok(store.rating(GameKind::TicTacToe, &alice), "no rating"),
        None
    );
    let board = ok(store.leaderboard(Some(GameKind::Checkers), 10), "board");
    let names: Vec<(&str, bool, i32)> = board
        .iter()
        .map(|entry| (entry.player.as_str(), entry.bot, entry.rating))
        .collect();
    assert_eq!(
        names,
        [
            ("advanced", true, 1600),
            ("alice", false, 1516),
            ("advanced", false, 1400)
        ]
    );
    let first = &board[0];
    assert_eq!(
        (
            first.kind,
            first.games,
            first.wins,
            first.draws,
            first.losses
        ),
        (GameKind::Checkers, 3, 1, 1, 1)
    );
    assert_eq!(ok(store.leaderboard(None, 10), "board").len(), 4);
    assert_eq!(ok(store.leaderboard(None, 1), "board").len(), 1);
    assert_eq!(
        ok(store.leaderboard(Some(GameKind::TicTacToe), 10), "board"),
        []
    );
}

/// A name is registered with a key once; another key cannot take it.
pub fn a_name_is_bound_to_one_key(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    assert_eq!(ok(store.identity("ann"), "nobody"), None);
    assert!(ok(store.bind_key("ann", &[1; 32], 5), "binding"));
    assert!(!ok(store.bind_key("ann", &[2; 32], 6), "binding again"));
    assert!(!ok(
        store.bind_key("ann", &[1; 32], 7),
        "the same key again"
    ));
    let ann = ok(store.identity("ann"), "ann").expect("ann is registered");
    assert_eq!(ann.public_key, Some([1; 32]));
    assert_eq!(ann.legacy_secret_hash, None);
    // Names are compared exactly.
    assert_eq!(ok(store.identity("Ann"), "another name"), None);
    let mut other = database.another();
    assert_eq!(
        ok(other.identity("ann"), "ann from another store").and_then(|id| id.public_key),
        Some([1; 32])
    );
}

/// Tokens are found by their hash; a name lists its tokens.
pub fn resume_tokens_are_kept_by_their_hash(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    ok(store.save_resume_token(&[1, 2, 3], "ann", 1), "a token");
    ok(store.save_resume_token(&[4, 5, 6], "ann", 2), "a token");
    ok(store.save_resume_token(&[7], "bob", 3), "a token");
    assert_eq!(
        ok(store.resume_token_owner(&[1, 2, 3]), "owner").as_deref(),
        Some("ann")
    );
    assert_eq!(ok(store.resume_token_owner(&[1, 2]), "no owner"), None);
    let mut tokens = ok(store.resume_tokens_of("ann"), "tokens");
    tokens.sort();
    assert_eq!(tokens, [vec![1, 2, 3], vec![4, 5, 6]]);
    assert_eq!(
        ok(store.resume_tokens_of("carol"), "no tokens"),
        Vec::<Vec<u8>>::new()
    );
    // A token saved again belongs to the name it was saved for last.
    ok(store.save_resume_token(&[7], "carol", 4), "a token again");
    assert_eq!(
        ok(store.resume_token_owner(&[7]), "owner").as_deref(),
        Some("carol")
    );
    assert_eq!(
        ok(store.resume_tokens_of("bob"), "tokens"),
        Vec::<Vec<u8>>::new()
    );
}

/// 32 hex digits, stable for the database's life, shared by every store on it.
pub fn the_server_id_is_the_databases(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let id = ok(store.server_id(), "the server id");
    assert_eq!(id.len(), 32, "{id}");
    assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
    assert_eq!(ok(store.server_id(), "again"), id);
    assert_eq!(ok(database.another().server_id(), "another store's"), id);
    let other = ok(database.fresh().server_id(), "another database's");
    assert_ne!(other, id, "each database has its own id");
}

/// Others see a batch only after its commit; a rolled-back batch leaves nothing.
pub fn a_batch_is_seen_only_once_committed(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let mut reader = database.another();
    let ids = ids(store.as_mut(), 2);
    ok(store.begin_batch(), "begin");
    ok(store.begin_request(), "a request");
    create(
        store.as_mut(),
        &new_game(ids[0], GameKind::Pente, alice_and_bot()),
    );
    ok(store.end_request(true), "its end");
    assert_eq!(ok(reader.game(ids[0]), "before the commit"), None);
    ok(store.commit_batch(), "commit");
    assert!(ok(reader.game(ids[0]), "after the commit").is_some());

    ok(store.begin_batch(), "begin");
    ok(store.begin_request(), "a request");
    create(
        store.as_mut(),
        &new_game(ids[1], GameKind::Pente, alice_and_bot()),
    );
    ok(
        store.record_move(ids[0], &stored_move(1, "K10")),
        "a move of the first game",
    );
    ok(store.end_request(true), "its end");
    store.rollback_batch();
    assert_eq!(ok(store.game(ids[1]), "a rolled-back game"), None);
    assert_eq!(
        ok(reader.game(ids[0]), "the first game").map(|game| game.moves.len()),
        Some(0)
    );
    // The store works on after a rollback.
    ok(store.record_move(ids[0], &stored_move(1, "K10")), "a move");
    assert_eq!(
        ok(reader.game(ids[0]), "the first game").map(|game| game.moves.len()),
        Some(1)
    );
}

/// A request that fails (also one the database refuses, a duplicate game) is undone alone.
pub fn a_failing_request_is_undone_and_the_batch_goes_on(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let ids = ids(store.as_mut(), 1);
    let game = new_game(ids[0], GameKind::TicTacToe, alice_and_bot());
    ok(store.begin_batch(), "begin");
    ok(store.begin_request(), "a request");
    create(store.as_mut(), &game);
    ok(store.end_request(true), "kept");
    ok(store.begin_request(), "a request");
    ok(store.record_move(ids[0], &stored_move(1, "5")), "a move");
    assert!(
        matches!(store.create_game(&game), Err(StoreError::Database(_))),
        "a game id is stored once"
    );
    ok(store.end_request(false), "undone");
    // A request may meet an error and answer with it, asking to keep its (lack of) changes: the
    // batch goes on.
    ok(store.begin_request(), "a request");
    assert!(
        store.create_game(&game).is_err(),
        "a game id is stored once"
    );
    ok(
        store.end_request(true),
        "a request that answered with its error",
    );
    ok(store.begin_request(), "a request");
    ok(
        store.set_seat(ids[0], Side::First, &Participant::Person("zed".into())),
        "a seat",
    );
    ok(store.end_request(true), "kept");
    ok(store.commit_batch(), "commit");
    let stored = ok(database.another().game(ids[0]), "the game").expect("stored");
    assert_eq!(stored.moves, [], "the undone request's move is gone");
    assert_eq!(stored.game.seats[0], Participant::Person("zed".into()));
}

/// Ids are unique across stores on one database, reserving at once, and across restarts.
pub fn game_ids_are_never_handed_out_twice(database: &mut dyn TestDatabase) {
    let mut first = database.fresh();
    let mut second = database.another();
    let mut seen = HashSet::new();
    let mut highest = 0;
    for _ in 0..3 {
        for store in [&mut first, &mut second] {
            for id in ids(store.as_mut(), 5) {
                assert!(seen.insert(id), "{id} handed out twice");
                highest = highest.max(id.0);
            }
        }
    }
    let at_once: Vec<Vec<GameId>> = std::thread::scope(|scope| {
        let handles: Vec<_> = [first, second]
            .into_iter()
            .map(|mut store| {
                scope.spawn(move || (0..20).flat_map(|_| ids(store.as_mut(), 3)).collect())
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a reserving thread"))
            .collect()
    });
    for id in at_once.into_iter().flatten() {
        assert!(seen.insert(id), "{id} handed out twice at once");
        highest = highest.max(id.0);
    }
    // A restarted server goes on above every id handed out.
    let mut restarted = database.another();
    let next = ids(restarted.as_mut(), 1)[0];
    assert!(next.0 > highest, "{next} after {highest}");
    assert_eq!(ok(restarted.reserve_game_ids(0), "no ids"), []);
}

/// Rated results finished at the same time by two stores (two servers) on one database, each in
/// its own transaction as the storage worker runs it, lose no update.
pub fn rated_results_from_two_stores_at_once_lose_no_update(database: &mut dyn TestDatabase) {
    const GAMES_EACH: usize = 12;
    let mut first = database.fresh();
    let second = database.another();
    let ids = ids(first.as_mut(), u32::try_from(2 * GAMES_EACH).unwrap_or(0));
    let alice = Participant::Person("alice".into());
    let bob = Participant::Person("bob".into());
    for (index, id) in ids.iter().enumerate() {
        // Both colours, so that the two servers take the two ratings in both orders.
        let seats = if index % 2 == 0 {
            [alice.clone(), bob.clone()]
        } else {
            [bob.clone(), alice.clone()]
        };
        create(first.as_mut(), &new_game(*id, GameKind::Checkers, seats));
    }
    let win = GameResult {
        winner: Some(Side::First),
        reason: EndReason::Win(WinReason::NoLegalMoves),
    };
    std::thread::scope(|scope| {
        for (store, games) in [first, second].into_iter().zip(ids.chunks(GAMES_EACH)) {
            scope.spawn(move || {
                let mut store = store;
                for id in games {
                    finish_rated(store.as_mut(), *id, &win);
                }
            });
        }
    });
    let mut reader = database.another();
    for name in ["alice", "bob"] {
        let who = Rated::Person(name.into());
        let rating =
            ok(reader.rating(GameKind::Checkers, &who), "a rating").expect("both are rated");
        assert_eq!(rating.games as usize, 2 * GAMES_EACH, "{name}: {rating:?}");
        assert_eq!(rating.wins + rating.losses, rating.games, "{name}");
        assert_eq!(rating.wins as usize, GAMES_EACH, "{name} won as first");
    }
    let alice = ok(
        reader.rating(GameKind::Checkers, &Rated::Person("alice".into())),
        "",
    )
    .expect("rated");
    let bob = ok(
        reader.rating(GameKind::Checkers, &Rated::Person("bob".into())),
        "",
    )
    .expect("rated");
    // Elo moves points from one side to the other: what one gained, the other lost.
    assert!(
        (alice.rating + bob.rating - 3000.0).abs() < 1e-6,
        "{alice:?} {bob:?}"
    );
}

/// Finishes a rated game as the storage worker does: the result and both ratings in one
/// transaction.
fn finish_rated(store: &mut dyn Store, id: GameId, result: &GameResult) {
    ok(store.begin_batch(), "begin");
    let done = (|| {
        let game = store.game(id)?.expect("the game is stored");
        store.finish_game(id, result, 50)?;
        rate_game(
            store,
            game.game.spec.kind(),
            &game.game.seats,
            game.game.rated,
            result,
        )
    })();
    match done {
        Ok(changes) => {
            assert!(changes.is_some(), "a rated game between people");
            ok(store.commit_batch(), "commit");
        }
        Err(err) => {
            store.rollback_batch();
            panic!("finishing {id}: {err}");
        }
    }
}

/// Fencing: each claim draws the game's next token; a check with an older token (or for a game
/// never claimed) fails as `Fenced`; a claim by a second store waits for a batch holding the
/// game's lease row, so the new owner reads every move the old one committed.
pub fn only_the_latest_lease_writes_a_game(database: &mut dyn TestDatabase) {
    let mut old_owner = database.fresh();
    let mut new_owner = database.another();
    let [id, never_claimed] = ids(old_owner.as_mut(), 2)[..] else {
        unreachable!("two ids")
    };
    create(
        old_owner.as_mut(),
        &new_game(id, GameKind::TicTacToe, alice_and_bot()),
    );
    let first = ok(old_owner.claim_lease(id), "claiming a lease");
    ok(old_owner.check_lease(id, first), "the latest lease");
    assert_eq!(
        old_owner.check_lease(never_claimed, first),
        Err(StoreError::Fenced {
            game: never_claimed,
            token: first
        })
    );
    // The old owner writes a move under its lease while the new owner claims the game.
    ok(old_owner.begin_batch(), "a batch");
    ok(old_owner.check_lease(id, first), "the lease in the batch");
    ok(old_owner.record_move(id, &stored_move(1, "b2")), "a move");
    let claimed = std::thread::scope(|scope| {
        let claiming = scope.spawn(|| {
            ok(new_owner.begin_batch(), "the claim's batch");
            let token = ok(new_owner.claim_lease(id), "claiming the game");
            ok(new_owner.commit_batch(), "committing the claim");
            let stored = ok(new_owner.game(id), "reading the game").expect("the game");
            (token, stored.moves.len())
        });
        ok(old_owner.commit_batch(), "committing the move");
        claiming.join().expect("the claiming thread")
    });
    let (second, moves_seen) = claimed;
    assert!(second > first, "token {second} after {first}");
    assert_eq!(
        moves_seen, 1,
        "the new owner reads the move committed before"
    );
    assert_eq!(
        old_owner.check_lease(id, first),
        Err(StoreError::Fenced {
            game: id,
            token: first
        })
    );
    ok(new_owner.check_lease(id, second), "the new lease");
    ok(
        old_owner.check_lease(id, second),
        "any store checks the same latest token",
    );
}
