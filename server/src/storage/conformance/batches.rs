//! The suite's cases about batches and sharing a database: what a batch makes visible and
//! when, a failing request undone alone, game ids never handed out twice, and a game written
//! only under its latest lease.

use super::*;
use crate::storage::records::Participant;
use crate::storage::store::StoreError;
use kingme_shared::domain::GameId;
use kingme_shared::{GameKind, Side};
use std::collections::HashSet;

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
