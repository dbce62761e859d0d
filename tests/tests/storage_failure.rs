//! The server's promise when its database fails (a full disk, a read-only file): nothing is
//! announced that was not stored. A store that fails on demand ([`FaultyStore`]) stands in for
//! the disk: a bot's move that cannot be stored pauses the game (the players are told) instead of
//! ending it, a result that cannot be stored is not announced, and once the store works again
//! the game goes on and what was announced is what is stored.

use kingme_server::ServerHandle;
use kingme_server::storage::{FaultyStore, SqliteStore, Storage};
use kingme_shared::ai::Level;
use kingme_shared::protocol::Opponent;
use kingme_shared::protocol::{ClientMessage, EndReason, ServerMessage};
use kingme_shared::{GameKind, Side};
use kingme_tests::client::Client;
use kingme_tests::{options, test_config};

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

#[tokio::test(start_paused = true)]
async fn what_the_store_did_not_keep_is_never_announced_and_the_game_goes_on_after() {
    let store =
        SqliteStore::open(std::path::Path::new(":memory:"), 0).expect("an in-memory database");
    let (store, faults) = FaultyStore::new(store);
    let server =
        ServerHandle::start_with_storage("127.0.0.1:0", test_config(), Storage::start(store))
            .await
            .expect("the server starts");
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
    ada.play(game, "5").await;
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
