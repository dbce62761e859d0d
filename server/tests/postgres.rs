//! The PostgreSQL store against a real PostgreSQL that each test starts itself from the system's
//! packages (`kingme_testkit::temp_postgres`): the whole store conformance suite, two servers
//! migrating one new database at once, a missing database refused, a store living through a
//! PostgreSQL restart, the real `kingme-server --db postgres://...` playing, killed and resuming
//! (the scenario SQLite runs in `restart.rs`), and two real servers sharing one database (game
//! ids, identities, history).
//!
//! Behind the `postgres-tests` feature: `cargo test -p kingme-server --features postgres-tests`.
//! Without PostgreSQL installed these tests fail, saying what to install; they never pass
//! quietly.

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

use kingme_server::test_support::CURRENT_VERSION;
use kingme_server::test_support::conformance::{self, TestDatabase};
use kingme_server::test_support::{PgStore, Storage, Store, StoreError};
use kingme_testkit::server_process::start_server_process;
use kingme_testkit::temp_postgres::TempPostgres;
use kingme_testkit::{Client, first_legal, scenario, tictactoe_options};

/// The server binary the tests start.
const SERVER: &str = env!("CARGO_BIN_EXE_kingme-server");

/// A new database on the test's server for every fresh store.
struct PgDatabases {
    server: TempPostgres,
    current: String,
}

impl TestDatabase for PgDatabases {
    fn fresh(&mut self) -> Box<dyn Store> {
        self.current = self.server.create_database();
        self.another()
    }

    fn another(&mut self) -> Box<dyn Store> {
        Box::new(PgStore::connect(&self.current, 0).unwrap())
    }
}

#[test]
fn the_postgres_store_passes_the_conformance_suite() {
    let mut databases = PgDatabases {
        server: TempPostgres::start(),
        current: String::new(),
    };
    conformance::check(&mut databases);
}

#[test]
fn servers_starting_together_migrate_a_new_database_once() {
    let mut server = TempPostgres::start();
    let url = server.create_database();
    let versions: Vec<i64> = std::thread::scope(|scope| {
        let starting: Vec<_> = (0..3)
            .map(|_| scope.spawn(|| PgStore::connect(&url, 0).unwrap().schema_version().unwrap()))
            .collect();
        starting.into_iter().map(|s| s.join().unwrap()).collect()
    });
    assert_eq!(versions, [CURRENT_VERSION; 3]);
    // And once more on the migrated database: nothing to do, the games' id source kept.
    let mut store = PgStore::connect(&url, 1).unwrap();
    let first = store.reserve_game_ids(1).unwrap();
    let mut again = PgStore::connect(&url, 2).unwrap();
    assert!(again.reserve_game_ids(1).unwrap()[0] > first[0]);
}

#[test]
fn a_database_that_is_not_there_is_refused_with_the_reason() {
    let server = TempPostgres::start();
    let url = server
        .url("nobody_made_this")
        .replace("kingme@", "kingme:secret@");
    let Err(err) = PgStore::connect(&url, 0) else {
        panic!("a missing database opened");
    };
    let message = err.to_string();
    assert!(matches!(err, StoreError::Database(_)), "{message}");
    assert!(
        message.contains("cannot connect to PostgreSQL at postgres://kingme:***@127.0.0.1:")
            && message.contains("nobody_made_this")
            && !message.contains("secret"),
        "{message}"
    );
}

#[tokio::test]
async fn a_store_whose_postgres_restarted_connects_again_at_the_next_batch() {
    let mut server = TempPostgres::start();
    let url = server.create_database();
    let opening = url.clone();
    let store = tokio::task::spawn_blocking(move || PgStore::connect(&opening, 0))
        .await
        .unwrap()
        .unwrap();
    let storage = Storage::start(store);
    let before = storage.reserve_game_ids(1).await.unwrap();
    storage.admit_guest("ann".into(), "t", 1).await.unwrap();
    server.restart();
    // Nothing is lost, and the first request after the restart already works.
    let after = storage.reserve_game_ids(1).await.unwrap();
    assert!(after[0] > before[0], "{after:?} after {before:?}");
    assert_eq!(
        storage.resume_token_owner("t").await.unwrap().as_deref(),
        Some("ann")
    );
    storage.close().await;
}

#[tokio::test]
async fn the_server_binary_on_postgres_survives_a_kill_and_a_restart() {
    let mut server = TempPostgres::start();
    let url = server.create_database();
    scenario::games_survive_a_kill_and_a_restart(SERVER, url.as_ref(), &[]).await;
}

#[tokio::test]
async fn two_servers_on_one_database_share_ids_identities_and_history() {
    use kingme_shared::ai::Level;
    use kingme_shared::identity::SigningKey;
    use kingme_shared::protocol::{ClientMessage, Opponent, ServerMessage, TimeControl};

    let mut postgres = TempPostgres::start();
    let url = postgres.create_database();
    let (mut first, at_first) = start_server_process(SERVER, url.as_ref(), &[]).await;
    let (mut second, at_second) = start_server_process(SERVER, url.as_ref(), &[]).await;

    // alice's name is bound to her key on the first server; the second knows it.
    let alice_key = SigningKey::from_bytes(&[1; 32]);
    let mut alice = Client::person(&at_first, "alice", &alice_key).await;
    let refusal = Client::refused(&at_second, "alice", &SigningKey::from_bytes(&[2; 32])).await;
    assert!(refusal.contains("belongs to another key"), "{refusal}");

    // A game on each server: their ids come from the one database, never the same.
    let mut bob = Client::hello(&at_first, "bob").await;
    alice
        .send(ClientMessage::CreateGame(tictactoe_options(
            Opponent::OpenSeat,
            TimeControl::Unlimited,
            true,
        )))
        .await;
    let on_first = alice
        .until(|message| match message {
            ServerMessage::State(state) => Some(state.id),
            _ => None,
        })
        .await;
    let mut carol = Client::hello(&at_second, "carol").await;
    carol
        .send(ClientMessage::CreateGame(tictactoe_options(
            Opponent::Bot(Level::Random),
            TimeControl::Unlimited,
            false,
        )))
        .await;
    let on_second = carol
        .until(|message| match message {
            ServerMessage::State(state) => Some(state.id),
            _ => None,
        })
        .await;
    assert_ne!(on_first, on_second);

    // A game played out on the first server is in the second's history.
    bob.send(ClientMessage::Join { game: on_first }).await;
    bob.state_of(on_first).await;
    // X takes the diagonal 3-5-7.
    alice.play(on_first, "5").await;
    bob.play(on_first, "1").await;
    alice.play(on_first, "3").await;
    bob.play(on_first, "2").await;
    alice.play(on_first, "7").await;
    alice.game_over(on_first).await;
    let mut reader = Client::hello(&at_second, "reader").await;
    reader
        .send(ClientMessage::History {
            player: Some("alice".into()),
            kind: None,
        })
        .await;
    let history = reader
        .until(|message| match message {
            ServerMessage::History { games } => Some(games),
            _ => None,
        })
        .await;
    let ids: Vec<_> = history.iter().map(|entry| entry.id).collect();
    assert_eq!(ids, [on_first]);
    assert_eq!(history[0].players, ["alice", "bob (guest)"]);

    for server in [&mut first, &mut second] {
        server.start_kill().unwrap();
        server.wait().await.unwrap();
    }
}

/// The frozen version-4 PostgreSQL database (`src/storage/fixtures/README.md`): a `pg_dump` of
/// what the version-4 server wrote, loaded into a new database (psql's `\restrict` lines left
/// out), migrated by this server's store, and resumed by this server's binary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_made_by_version_4_is_migrated_and_resumes_its_games() {
    use kingme_server::test_support::Participant;
    use kingme_shared::ai::Level;
    use kingme_shared::domain::{GameId, TimeControl};
    use kingme_shared::identity::SigningKey;
    use kingme_shared::{GameKind, Side};

    // Blocking clients (the harness's and the store's) off the test's runtime.
    let (_server, url) = tokio::task::spawn_blocking(move || {
        let mut server = TempPostgres::start();
        let url = server.create_database();
        let dump = include_str!("../src/storage/fixtures/postgres_v4.sql");
        let sql: String = dump
            .lines()
            .filter(|line| !line.starts_with('\\'))
            .map(|line| format!("{line}\n"))
            .collect();
        postgres::Client::connect(&url, postgres::NoTls)
            .unwrap()
            .batch_execute(&sql)
            .unwrap();
        let mut store = PgStore::connect(&url, 0).unwrap();
        assert_eq!(store.schema_version().unwrap(), CURRENT_VERSION);
        let person = |name: &str| Participant::Person(name.to_owned());
        for (id, moves, winner) in [
            (1, 9, None),
            (2, 8, Some(Side::Second)),
            (4, 7, Some(Side::First)),
        ] {
            let game = store.game(GameId(id)).unwrap().unwrap();
            assert_eq!(game.moves.len(), moves, "game {id}");
            assert_eq!(game.result.unwrap().winner, winner, "game {id}");
            assert!(game.to_record().replay().is_ok(), "game {id} replays");
        }
        assert_eq!(
            store.game(GameId(4)).unwrap().unwrap().game.seats,
            [person("ada"), Participant::Bot(Level::Random)]
        );
        let unfinished = store.unfinished_games().unwrap();
        let ids: Vec<u64> = unfinished.iter().map(|game| game.game.id.0).collect();
        assert_eq!(ids, [5, 6]);
        assert_eq!(unfinished[1].game.seats, [person("ada"), person("bob")]);
        assert_eq!(
            unfinished[1].game.time_control,
            TimeControl::Incremental {
                initial_secs: 600,
                increment_secs: 5
            }
        );
        assert_eq!(
            unfinished[1].moves[1].clocks_ms,
            [Some(599_999), Some(600_000)]
        );
        let board: Vec<(String, u32)> = store
            .leaderboard(Some(GameKind::TicTacToe), 10)
            .unwrap()
            .into_iter()
            .map(|entry| (entry.player, entry.games))
            .collect();
        // The random bot's rating was dropped by version 7 (the levels planned anew).
        assert_eq!(board, [("ada".to_owned(), 3), ("bob".to_owned(), 2)]);
        for (name, seed) in [("ada", 7), ("bob", 8), ("cy", 9)] {
            let key = SigningKey::from_bytes(&[seed; 32])
                .verifying_key()
                .to_bytes();
            assert_eq!(store.identity(name).unwrap().unwrap().public_key, Some(key));
        }
        // The game ids go on above the old ones; version 5's fencing works on an old game.
        assert!(store.reserve_game_ids(1).unwrap()[0].0 > 6);
        let token = store.claim_lease(GameId(6)).unwrap();
        assert!(store.check_lease(GameId(6), token).is_ok());
        (server, url)
    })
    .await
    .unwrap();

    // Today's server resumes both unfinished games.
    let (_node, addr) = start_server_process(SERVER, std::ffi::OsStr::new(&url), &[]).await;
    let key = |seed: u8| SigningKey::from_bytes(&[seed; 32]);
    let mut ada = Client::person(&addr, "ada", &key(7)).await;
    assert_eq!(ada.games, [GameId(6)]);
    let state = ada.state_of(GameId(6)).await;
    assert_eq!(state.moves.len(), 2);
    let mut bob = Client::person(&addr, "bob", &key(8)).await;
    bob.state_of(GameId(6)).await;
    let text = first_legal(&state);
    ada.play(GameId(6), &text).await;
    assert_eq!(bob.move_at(GameId(6), 3).await, text);
    let mut cy = Client::person(&addr, "cy", &key(9)).await;
    assert_eq!(cy.games, [GameId(5)]);
    let state = cy.state_of(GameId(5)).await;
    cy.play(GameId(5), &first_legal(&state)).await;
    cy.move_at(GameId(5), 4).await;
}
