//! Watching games between the server's bots (issue 32, defect 3): a game between bots that a
//! person created (or someone watches) is paced, each move after the server's `bot_move_delay`,
//! so a person can follow it; a finished game whose table has closed is listed with nobody
//! watching (defect 9) and opens from the archive (its `State`, over, with every move) instead
//! of "there is no game N".

use kingme_server::host::{Config, Database};
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{ClientMessage, GameStatus, SeatChoice, ServerMessage};
use kingme_testkit::{Client, against_bot, start_server, test_config};
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_watched_game_between_bots_is_paced_for_people_to_follow() {
    let delay = Duration::from_millis(300);
    let server = start_server(Config {
        bot_move_delay: delay,
        ..test_config()
    })
    .await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let mut options = against_bot(GameKind::TicTacToe, Level::Random);
    options.seat = SeatChoice::Spectate;
    let game = ada.create(options).await.id;
    ada.attach_bot(game).await;
    let mut moves = Vec::new();
    loop {
        match ada.recv().await {
            ServerMessage::MovePlayed { game: id, .. } if id == game => {
                moves.push(Instant::now());
            }
            ServerMessage::GameOver { game: id, .. } if id == game => break,
            _ => {}
        }
    }
    assert!(moves.len() >= 5, "a whole game: {} moves", moves.len());
    for (ply, pair) in moves.windows(2).enumerate() {
        let gap = pair[1] - pair[0];
        // The pause runs from when the bot is asked, which is a moment before the last move
        // reaches the watcher.
        assert!(
            gap >= delay.mul_f64(0.8),
            "move {} came {gap:?} after the one before (the delay is {delay:?})",
            ply + 2
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_finished_game_whose_table_closed_opens_from_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        database: Database::File(dir.path().join("kingme.db")),
        bot_move_delay: Duration::ZERO,
        ..test_config()
    };
    // A game between bots, played out while its creator watched; its table closes (nobody
    // plays in it), and the lobby then lists it with nobody watching.
    let server = start_server(config.clone()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let (game, result) = ada.bot_game_played_out().await;
    let listed = ada.list_games().await;
    let summary = listed.iter().find(|summary| summary.id == game).unwrap();
    assert_eq!(summary.spectators, 0, "{summary:?}");
    server.shutdown().await;

    // Another start on the same database: no table has the finished game, the archive does.
    let server = start_server(config).await;
    let mut bob = Client::hello(server.addr(), "bob").await;
    bob.send(ClientMessage::Watch { game }).await;
    let state = bob
        .until(|message| match message {
            ServerMessage::State(state) if state.id == game => Some(state),
            ServerMessage::Error { message, .. } => panic!("watching game {game}: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(state.status, GameStatus::Over(result));
    assert_eq!(state.your_side, None, "watched");
    assert!(state.moves.len() >= 5, "every move: {:?}", state.moves);
    assert!(state.moves.iter().all(|record| !record.path.is_empty()));
    // Leaving it is done at once; a game never played is still no game.
    bob.send(ClientMessage::Leave { game }).await;
    bob.until(|message| {
        matches!(message, ServerMessage::Left { game: id } if id == game).then_some(())
    })
    .await;
    let unknown = kingme_shared::protocol::GameId(9999);
    bob.send(ClientMessage::Watch { game: unknown }).await;
    let (_, message) = bob.error().await;
    assert!(message.contains("there is no game 9999"), "{message}");
    server.shutdown().await;
}
