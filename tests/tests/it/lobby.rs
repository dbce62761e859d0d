//! The live lobby: a client that watches the lobby is sent the game list at once and again
//! whenever games open, fill or end, without asking; one that stops watching is sent nothing.
//! A burst of new games is served, not refused.

use kingme_shared::GameKind;
use kingme_shared::protocol::{ClientMessage, GameId, GameStatus, GameSummary, ServerMessage};
use kingme_testkit::{Client, open_game, start_server, test_config};

/// The next pushed or answered game list.
async fn game_list(client: &mut Client) -> Vec<GameSummary> {
    client
        .until(|message| match message {
            ServerMessage::GameList { games } => Some(games.clone()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_watching_client_sees_games_open_fill_and_go_without_asking() {
    let server = start_server(test_config()).await;
    let mut watcher = Client::hello(server.addr(), "wendy").await;
    watcher.send(ClientMessage::WatchLobby { on: true }).await;
    assert!(game_list(&mut watcher).await.is_empty());

    let mut ada = Client::hello(server.addr(), "ada").await;
    let game = ada.create(open_game(GameKind::TicTacToe)).await.id;
    // Pushed: the new game, waiting for a player.
    let listed = |games: &[GameSummary], id: GameId| {
        games
            .iter()
            .find(|summary| summary.id == id)
            .map(|s| s.status)
    };
    let mut games = game_list(&mut watcher).await;
    while listed(&games, game).is_none() {
        games = game_list(&mut watcher).await;
    }
    assert_eq!(listed(&games, game), Some(GameStatus::Open));

    let mut bob = Client::hello(server.addr(), "bob").await;
    bob.send(ClientMessage::Join { game }).await;
    while listed(&games, game) != Some(GameStatus::Playing) {
        games = game_list(&mut watcher).await;
    }

    // Once it stops watching it is sent nothing: when a client still watching has been sent
    // the list with a new game, the one that stopped has not (its pong comes first).
    let mut still = Client::hello(server.addr(), "sam").await;
    still.send(ClientMessage::WatchLobby { on: true }).await;
    game_list(&mut still).await;
    watcher.send(ClientMessage::WatchLobby { on: false }).await;
    watcher.send(ClientMessage::Ping { nonce: 6 }).await;
    watcher
        .until(|m| matches!(m, ServerMessage::Pong { nonce: 6 }).then_some(()))
        .await;
    let other = ada.create(open_game(GameKind::Pente)).await.id;
    while listed(&game_list(&mut still).await, other).is_none() {}
    watcher.send(ClientMessage::Ping { nonce: 8 }).await;
    let pushed = watcher
        .until(|message| match message {
            ServerMessage::Pong { nonce: 8 } => Some(false),
            ServerMessage::GameList { games } => Some(listed(&games, other).is_some()),
            _ => None,
        })
        .await;
    assert!(
        !pushed,
        "a list with the new game was pushed after WatchLobby off"
    );
    server.shutdown().await;
}

/// A burst of new games, asked for all at once, larger than the block of game ids the server
/// reserves ahead (`game_ids::BLOCK`, 32): every one is created (the load runs once saw the
/// ids run out and new games refused as "not stored").
#[tokio::test]
async fn a_burst_of_new_games_beyond_the_ids_reserved_ahead_is_served() {
    const CLIENTS: usize = 8;
    const EACH: usize = 12;
    let server = start_server(test_config()).await;
    let mut clients = Vec::new();
    for index in 0..CLIENTS {
        clients.push(Client::hello(server.addr(), &format!("burst{index}")).await);
    }
    // Every request is sent before any answer is read.
    for client in &mut clients {
        for _ in 0..EACH {
            client
                .send(ClientMessage::CreateGame(open_game(GameKind::TicTacToe)))
                .await;
        }
    }
    let mut ids = Vec::new();
    for client in &mut clients {
        for _ in 0..EACH {
            let created = client
                .until(|message| match message {
                    ServerMessage::State(state) => Some(Ok(state.id)),
                    ServerMessage::Error { message, .. } => Some(Err(message.clone())),
                    _ => None,
                })
                .await;
            ids.push(created.expect("every game of the burst is created"));
        }
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), CLIENTS * EACH, "each game has an id of its own");
    server.shutdown().await;
}
