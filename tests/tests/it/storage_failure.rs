//! The server's promise when its database fails (a full disk, a read-only file): nothing is
//! announced that was not stored. A store that fails on demand ([`FaultyStore`]) stands in for
//! the disk: a bot's move that cannot be stored pauses the game (the players are told) instead of
//! ending it, a result that cannot be stored is not announced, and once the store works again
//! the game goes on and what was announced is what is stored. A new game that cannot be stored
//! is refused, with nothing of it announced first. A client arriving while the store fails is
//! let in to list and watch games, and told plainly why it cannot play.

use kingme_server::host::ServerHandle;
use kingme_server::test_support::{Faults, FaultyStore, SqliteStore, Storage};
use kingme_shared::ai::Level;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::Opponent;
use kingme_shared::protocol::{ClientMessage, EndReason, ErrorKind, GameStatus, ServerMessage};
use kingme_shared::{GameKind, Side};
use kingme_testkit::Client;
use kingme_testkit::{open_game, options, test_config};

/// Reads messages until the game's pause notice; returns what came before it.
async fn until_paused(client: &mut Client) -> Vec<ServerMessage> {
    let mut before = Vec::new();
    loop {
        let message = client.recv().await;
        match &message {
            ServerMessage::Error { message, .. } if message.contains("is paused") => {
                return before;
            }
            _ => before.push(message),
        }
    }
}

/// A server on an in-memory store whose failures the test switches on and off.
async fn server_on_a_faulty_store() -> (ServerHandle, Faults) {
    let store =
        SqliteStore::open(std::path::Path::new(":memory:"), 0).expect("an in-memory database");
    let (store, faults) = FaultyStore::new(store);
    let server =
        ServerHandle::start_with_storage("127.0.0.1:0", test_config(), Storage::start(store))
            .await
            .expect("the server starts");
    (server, faults)
}

#[tokio::test(start_paused = true)]
async fn what_the_store_did_not_keep_is_never_announced_and_the_game_goes_on_after() {
    let (server, faults) = server_on_a_faulty_store().await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let game = ada
        .create(options(
            GameKind::TicTacToe,
            Side::First,
            Opponent::Bot(Level::Random),
        ))
        .await
        .id;
    ada.your_turn(game).await;

    // Ada's move is stored; the bot's answer is not (the disk is full from then on).
    faults.fail_after(1);
    ada.send_move(game, "5").await;
    let before = until_paused(&mut ada).await;
    let plies: Vec<u32> = before
        .iter()
        .filter_map(|m| match m {
            ServerMessage::MovePlayed { ply, .. } => Some(*ply),
            _ => None,
        })
        .collect();
    assert_eq!(
        plies,
        vec![1],
        "only the stored move is announced: {before:?}"
    );
    assert!(
        !before
            .iter()
            .any(|m| matches!(m, ServerMessage::GameOver { .. })),
        "no game over for an unstored bot move: {before:?}"
    );
    // While paused, nothing changes: a resignation is refused with the reason.
    ada.send(ClientMessage::Resign { game }).await;
    let (_, refusal) = ada.error().await;
    assert!(
        refusal.contains("paused") && refusal.contains("try again"),
        "{refusal}"
    );

    // The disk has room again: the bot is asked again, its move stored, then announced.
    faults.repair();
    assert_eq!(ada.move_played(game).await.0, 2);
    ada.your_turn(game).await;

    // A result that cannot be stored is not announced either.
    faults.fail_now();
    ada.send(ClientMessage::Resign { game }).await;
    let before = until_paused(&mut ada).await;
    assert!(
        !before
            .iter()
            .any(|m| matches!(m, ServerMessage::GameOver { .. })),
        "{before:?}"
    );
    faults.repair();
    let result = ada.game_over(game).await;
    assert_eq!(result.reason, EndReason::Resignation);
    // What was announced is what is stored.
    ada.send(ClientMessage::Export { game }).await;
    let record = ada
        .until(|m| match m {
            ServerMessage::Record { record, .. } => Some(record.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        record.result.map(|r| r.reason),
        Some(Some(EndReason::Resignation)),
        "{record:?}"
    );
    assert_eq!(record.moves.len(), 2);
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_new_game_that_cannot_be_stored_is_refused_and_nothing_of_it_is_announced() {
    let (server, faults) = server_on_a_faulty_store().await;
    let mut ada = Client::hello(server.addr(), "ada").await;

    // The disk is full: the creation is refused, and the refusal is the first thing ada hears
    // (no `State`, no `YourTurn`, no `GameOver` of a game that was never stored).
    faults.fail_now();
    ada.send(ClientMessage::CreateGame(options(
        GameKind::TicTacToe,
        Side::First,
        Opponent::Bot(Level::Random),
    )))
    .await;
    match ada.recv().await {
        ServerMessage::Error {
            kind: ErrorKind::NotStored,
            message,
            fatal: false,
        } => assert!(
            message.contains("database or disk is full")
                && message.contains("not created")
                && message.contains("try again"),
            "{message}"
        ),
        other => panic!("the creation is refused before anything else: {other:?}"),
    }
    ada.send(ClientMessage::ListGames).await;
    let listed = ada
        .until(|m| match m {
            ServerMessage::GameList { games } => Some(games.clone()),
            other => panic!("nothing but the list after the refusal: {other:?}"),
        })
        .await;
    assert!(listed.is_empty(), "{listed:?}");

    // Once the disk has room again, the same request makes a game that is played and stored.
    faults.repair();
    let game = ada
        .create(options(
            GameKind::TicTacToe,
            Side::First,
            Opponent::Bot(Level::Random),
        ))
        .await
        .id;
    ada.your_turn(game).await;
    ada.send_move(game, "5").await;
    assert_eq!(ada.move_played(game).await.0, 1);
    server.shutdown().await;
}

/// The notice a client let in to watch only hears after its `Welcome`.
async fn watch_only_notice(client: &mut Client) -> String {
    let (kind, notice) = client.error().await;
    assert_eq!(kind, ErrorKind::NotStored);
    assert!(
        notice.contains("cannot use its database")
            && notice.contains("database or disk is full")
            && notice.contains("watch")
            && notice.contains("later"),
        "{notice}"
    );
    notice
}

#[tokio::test(start_paused = true)]
async fn a_client_arriving_while_the_store_fails_may_watch_and_is_told_why_it_cannot_play() {
    let (server, faults) = server_on_a_faulty_store().await;
    let addr = server.addr();
    let mut ada = Client::hello(addr, "ada").await;
    let game = ada.create(open_game(GameKind::Checkers)).await.id;
    let dan_key = SigningKey::from_bytes(&[7; 32]);

    faults.fail_now();
    // A guest: welcomed, told why, and able to list and watch but not to join or create.
    let mut cleo = Client::hello(addr, "cleo").await;
    let notice = watch_only_notice(&mut cleo).await;
    cleo.send(ClientMessage::ListGames).await;
    let listed = cleo
        .until(|m| match m {
            ServerMessage::GameList { games } => Some(games.clone()),
            _ => None,
        })
        .await;
    assert!(
        listed.iter().any(|summary| summary.id == game),
        "{listed:?}"
    );
    cleo.send(ClientMessage::Join { game }).await;
    assert_eq!(cleo.error().await, (ErrorKind::NotStored, notice.clone()));
    cleo.send(ClientMessage::CreateGame(open_game(GameKind::TicTacToe)))
        .await;
    assert_eq!(cleo.error().await, (ErrorKind::NotStored, notice));
    cleo.send(ClientMessage::Watch { game }).await;
    let watched = cleo.state().await;
    assert_eq!((watched.id, watched.your_side), (game, None));
    assert_eq!(
        watched.status,
        GameStatus::Open,
        "the refused join changed nothing"
    );

    // A person whose key proves itself but whose name cannot be looked up: the same, and the
    // connection stays open.
    let (mut dan, answer) = Client::sign_in(addr, "dan", &dan_key).await;
    assert!(
        matches!(answer, ServerMessage::Welcome { .. }),
        "{answer:?}"
    );
    watch_only_notice(&mut dan).await;
    dan.send(ClientMessage::Join { game }).await;
    let (_, refusal) = dan.error().await;
    assert!(refusal.contains("cannot use its database"), "{refusal}");
    dan.send(ClientMessage::Ping { nonce: 9 }).await;
    let pong = dan
        .until(|m| match m {
            ServerMessage::Pong { nonce } => Some(nonce),
            _ => None,
        })
        .await;
    assert_eq!(pong, 9);

    // Once the store works again, connecting again lets the person play.
    faults.repair();
    drop(dan);
    let mut dan = Client::person(addr, "dan", &dan_key).await;
    dan.send(ClientMessage::Join { game }).await;
    assert_eq!(dan.state().await.status, GameStatus::Playing);
    server.shutdown().await;
}
