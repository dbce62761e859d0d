//! The suite's cases about players and the server: ratings and the leaderboard (also two stores
//! rating at once), a name bound to one key, resume tokens (and forgetting the old ones), and
//! the server's id.

use super::*;
use crate::storage::rating_update::rate_game;
use crate::storage::ratings::{Rated, Rating};
use crate::storage::records::Participant;
use crate::storage::store::Store;
use kingme_shared::ai::Level;
use kingme_shared::domain::{EndReason, GameId, GameResult};
use kingme_shared::{GameKind, Side, WinReason};

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

/// Tokens saved before the time given are forgotten, except those of guests seated (in either
/// seat) in a game without a result; a guest whose game is over, a guest with no game, a person
/// of the same name and a newer token do not keep or lose theirs by mistake.
pub fn old_resume_tokens_are_forgotten_unless_their_guest_is_in_an_unfinished_game(
    database: &mut dyn TestDatabase,
) {
    let mut store = database.fresh();
    let store = store.as_mut();
    let [playing, waiting, over, persons] = ids(store, 4)[..] else {
        unreachable!("four ids")
    };
    let guest = |name: &str| Participant::Guest(name.into());
    let bot = Participant::Bot(Level::Advanced);
    create(
        store,
        &new_game(playing, GameKind::Checkers, [guest("ann"), bot.clone()]),
    );
    create(
        store,
        &new_game(waiting, GameKind::Pente, [Participant::Empty, guest("fay")]),
    );
    create(
        store,
        &new_game(over, GameKind::Checkers, [guest("bob"), bot.clone()]),
    );
    create(
        store,
        &new_game(
            persons,
            GameKind::Checkers,
            [Participant::Person("eve".into()), bot],
        ),
    );
    let result = GameResult {
        winner: Some(Side::First),
        reason: EndReason::Resignation,
    };
    ok(store.finish_game(over, &result, 50), "a result");
    for (hash, name, at) in [
        (1, "ann", 100),
        (2, "fay", 100),
        (3, "bob", 100),
        (4, "carol", 100),
        (5, "eve", 100),
        (6, "dan", 5_000),
    ] {
        ok(store.save_resume_token(&[hash], name, at), "a token");
    }
    assert_eq!(ok(store.forget_resume_tokens(1_000), "forgetting"), 3);
    let kept: Vec<Option<String>> = (1..=6)
        .map(|hash| ok(store.resume_token_owner(&[hash]), "owner"))
        .collect();
    assert_eq!(
        kept,
        [
            Some("ann".into()),
            Some("fay".into()),
            None,
            None,
            None,
            Some("dan".into())
        ]
    );
    assert_eq!(ok(store.forget_resume_tokens(1_000), "again"), 0);
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
        // Both sides move: a game ended sooner is not rated.
        for (ply, text) in [(1, "11-15"), (2, "23-19")] {
            ok(first.record_move(*id, &stored_move(ply, text)), "a move");
        }
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
            game.moves.len(),
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
