//! The suite's cases about games: one kept from creation to result, every stored value read
//! back, games that never started aborted at once, and the history of finished games.

use super::*;
use crate::storage::records::{NewGame, Participant, StoredMove};
use crate::storage::store::{HistoryQuery, Store, StoreError};
use kingme_shared::ai::Level;
use kingme_shared::domain::{EndReason, GameId, GameResult, TimeControl};
use kingme_shared::{DrawReason, GameKind, GameSpec, Side, Variant};

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
    // Finishing returns the game as stored and its moves' count (three: two kept, one after),
    // which rate it.
    let finished = ok(store.finish_game(id, &result, 99), "the result");
    assert_eq!(finished.game.seats, alice_and_bot());
    assert_eq!(finished.game.id, id);
    assert_eq!(finished.plies, 3);
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
