//! A client of protocol version 8 among the levels version 9 added: it is never sent a level it
//! could not decode. In the lobby's rows, in a watched game's state and in its seat changes,
//! `novice`, `skilled` and `master` reach it as the nearest older level below (`beginner`,
//! `intermediate`, `strong`), while a version-9 client sees them as they are; over TCP and over
//! the WebSocket door alike.

use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameId, LEVELS_VERSION, SeatChoice, SeatHolder, ServerMessage,
};
use kingme_testkit::{Client, against_bot, start_server, start_web_server, test_config};

/// The levels of version 9 that a version-8 client cannot decode, as the JSON of a message
/// names them: any of them anywhere in a message shows there.
const NEW_LEVELS: [Level; 3] = [Level::Novice, Level::Skilled, Level::Master];

/// Fails when `message` holds a level a version-8 client cannot decode.
fn assert_decodable_by_version_8(message: &ServerMessage) {
    let json = serde_json::to_string(message).expect("a message is JSON");
    for level in NEW_LEVELS {
        assert!(
            !json.contains(&format!("\"{level:?}\"")),
            "a version-8 client was sent {level}: {json}"
        );
    }
}

/// The bots seated in `seats`.
fn bots(seats: &[SeatHolder; 2]) -> Vec<Level> {
    seats
        .iter()
        .filter_map(|holder| match holder {
            SeatHolder::Bot { level } => Some(*level),
            _ => None,
        })
        .collect()
}

/// The bots in the lobby's row of `game` as `old` is sent it, every message on the way checked.
async fn bots_listed(old: &mut Client, game: GameId) -> Vec<Level> {
    old.send(ClientMessage::ListGames).await;
    let rows = loop {
        if let ServerMessage::GameList { games } = next_checked(old).await {
            break games;
        }
    };
    let row = rows
        .iter()
        .find(|row| row.id == game)
        .expect("the game is listed");
    bots(&row.seats)
}

/// The next message for the old client, checked.
async fn next_checked(old: &mut Client) -> ServerMessage {
    let message = old.recv().await;
    assert_decodable_by_version_8(&message);
    message
}

#[tokio::test]
async fn a_version_8_client_sees_the_new_levels_as_older_ones() {
    let server = start_server(test_config()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    // Ada moves first against a master, so the game waits for her.
    let waiting = ada
        .create(against_bot(GameKind::Checkers, Level::Master))
        .await;
    assert_eq!(bots(&waiting.seats), [Level::Master]);

    let mut olga = Client::connect(server.addr())
        .await
        .guest_of_version("olga", LEVELS_VERSION - 1)
        .await;
    assert_eq!(bots_listed(&mut olga, waiting.id).await, [Level::Strong]);

    olga.send(ClientMessage::Watch { game: waiting.id }).await;
    let state = loop {
        if let ServerMessage::State(state) = next_checked(&mut olga).await {
            break state;
        }
    };
    assert_eq!(bots(&state.seats), [Level::Strong]);

    // A game of two bots, watched from its start: a skilled bot waits in the second seat, a
    // novice is attached to the first, and they play it out.
    let mut options = against_bot(GameKind::TicTacToe, Level::Skilled);
    options.seat = SeatChoice::Spectate;
    let bots_game = ada.create(options).await.id;
    olga.send(ClientMessage::Watch { game: bots_game }).await;
    let state = loop {
        if let ServerMessage::State(state) = next_checked(&mut olga).await
            && state.id == bots_game
        {
            break state;
        }
    };
    assert_eq!(bots(&state.seats), [Level::Intermediate]);
    ada.send(ClientMessage::AttachBot {
        game: bots_game,
        level: Level::Novice,
    })
    .await;
    let mut seated = Vec::new();
    loop {
        match next_checked(&mut olga).await {
            ServerMessage::SeatChanged {
                game,
                holder: SeatHolder::Bot { level },
                ..
            } if game == bots_game => seated.push(level),
            ServerMessage::GameOver { game, .. } if game == bots_game => break,
            _ => {}
        }
    }
    assert_eq!(seated, [Level::Beginner]);
    // Ada speaks version 9 and is sent the levels as they are.
    let ada_saw = ada
        .until(|message| match message {
            ServerMessage::SeatChanged {
                game,
                holder: SeatHolder::Bot { level },
                ..
            } if game == bots_game => Some(level),
            _ => None,
        })
        .await;
    assert_eq!(ada_saw, Level::Novice);
}

/// The WebSocket door writes through the same adapting writer: a version-8 browser or bot is
/// sent the lobby's row of a game against a `master` as `strong`.
#[tokio::test]
async fn a_version_8_client_over_the_websocket_door_sees_the_new_levels_as_older_ones() {
    let server = start_web_server(test_config()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let waiting = ada
        .create(against_bot(GameKind::Checkers, Level::Master))
        .await;
    let web = server.http_addr().expect("the HTTP door is open");
    let mut olga = Client::connect_websocket(web)
        .await
        .guest_of_version("olga", LEVELS_VERSION - 1)
        .await;
    assert_eq!(bots_listed(&mut olga, waiting.id).await, [Level::Strong]);
}
