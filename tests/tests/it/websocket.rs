//! The WebSocket door against the real server: the documented JSON exchange, a person's
//! handshake with a signed challenge, a whole game against a bot, every kind of bad frame (each
//! closing only its own connection), the shared rate limit, a TCP player and a WebSocket player
//! in one game seeing the same moves, chat and clocks, and the web page's files (its clocks the
//! terminal client's) and the binding it is told. All over TLS (HTTPS and WSS).

use futures::SinkExt;
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::identity::{ChannelBinding, SigningKey};
use kingme_shared::protocol::json::decode_server_text;
use kingme_shared::protocol::{
    ClientMessage, ErrorKind, GameId, GameStatus, MAX_CLIENT_TEXT, ServerMessage, TimeControl,
};
use kingme_testkit::http::get;
use kingme_testkit::link::{Wire, dial};
use kingme_testkit::{
    Client, against_bot, open_game, play_first_moves, start_web_server, test_config,
};
use std::net::SocketAddr;
use tokio_tungstenite::tungstenite::Message;

/// The web door's address of a server started by [`start_web_server`].
fn web(server: &kingme_server::host::ServerHandle) -> SocketAddr {
    server.http_addr().expect("the HTTP door is open")
}

/// The sample exchange of PROTOCOL.md ("The WebSocket door"): lines starting `>` are sent as
/// they are, lines starting `<` are what the server answers, where a string `"..."` stands for
/// any value.
fn documented_exchange() -> Vec<(bool, String)> {
    let doc = include_str!("../../../PROTOCOL.md");
    let start = doc
        .find("<!-- websocket sample -->")
        .expect("PROTOCOL.md has the WebSocket sample");
    let block = &doc[start..];
    let block = &block[..block.find("<!-- end -->").expect("the sample ends")];
    block
        .lines()
        .filter_map(|line| {
            if let Some(sent) = line.strip_prefix("> ") {
                Some((true, sent.to_owned()))
            } else {
                line.strip_prefix("< ")
                    .map(|received| (false, received.to_owned()))
            }
        })
        .collect()
}

/// Whether `actual` matches `expected`, where the string `"..."` matches anything.
fn matches(expected: &serde_json::Value, actual: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (expected, actual) {
        (Value::String(any), _) if any == "..." => true,
        (Value::Object(expected), Value::Object(actual)) => {
            expected.len() == actual.len()
                && expected
                    .iter()
                    .all(|(key, value)| actual.get(key).is_some_and(|a| matches(value, a)))
        }
        (Value::Array(expected), Value::Array(actual)) => {
            expected.len() == actual.len()
                && expected.iter().zip(actual).all(|(e, a)| matches(e, a))
        }
        (expected, actual) => expected == actual,
    }
}

/// The next text frame (skipping the WebSocket's own pings).
async fn next_text(client: &mut Client) -> String {
    let socket = client.link().socket().unwrap();
    loop {
        match futures::StreamExt::next(socket).await.unwrap().unwrap() {
            Message::Text(text) => return text.as_str().to_owned(),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn the_documented_json_exchange_is_what_the_server_says() {
    let server = start_web_server(test_config()).await;
    let mut client = Client::connect_websocket(web(&server)).await;
    let exchange = documented_exchange();
    assert!(exchange.len() >= 6, "the sample has both sides");
    for (sent, line) in exchange {
        if sent {
            let socket = client.link().socket().unwrap();
            socket.send(Message::text(line)).await.unwrap();
        } else {
            let expected: serde_json::Value = serde_json::from_str(&line).unwrap();
            let text = next_text(&mut client).await;
            let actual: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(
                matches(&expected, &actual),
                "PROTOCOL.md says\n{line}\nthe server said\n{text}"
            );
            decode_server_text(&text).unwrap();
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_person_signs_the_challenge_over_the_websocket_and_keeps_the_name() {
    let server = start_web_server(test_config()).await;
    let key = SigningKey::from_bytes(&[7; 32]);
    let (_web_client, answer) = Client::connect_websocket(web(&server))
        .await
        .prove("grace", &key)
        .await;
    assert!(
        matches!(answer, ServerMessage::Welcome { .. }),
        "{answer:?}"
    );
    // The name is now bound to the key on both doors: another key is refused over TCP.
    let other = SigningKey::from_bytes(&[8; 32]);
    let (_tcp_client, answer) = Client::sign_in(server.addr(), "grace", &other).await;
    assert!(
        matches!(
            answer,
            ServerMessage::Error {
                kind: ErrorKind::Unauthorized,
                fatal: true,
                ..
            }
        ),
        "{answer:?}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_websocket_player_plays_a_whole_game_against_a_bot() {
    let server = start_web_server(test_config()).await;
    let mut ada = Client::websocket_guest(web(&server), "ada").await;
    let state = ada
        .create(against_bot(GameKind::Checkers, Level::Random))
        .await;
    assert_eq!(state.status, GameStatus::Playing);
    let game = state.id;
    let mut plies = 0;
    let result = loop {
        match ada.turn_or_end(game).await {
            Ok(legal) => {
                ada.send_move(game, &legal[plies % legal.len()]).await;
                plies += 1;
            }
            Err(result) => break result,
        }
    };
    assert!(plies > 5, "a checkers game lasts more than five own moves");
    // The game is in the archive like any other.
    ada.send(ClientMessage::Export { game }).await;
    let record = ada
        .until(|message| match message {
            ServerMessage::Record { record, .. } => Some(record.clone()),
            _ => None,
        })
        .await;
    assert_eq!(record.result.map(|r| r.winner), Some(result.winner));
    server.shutdown().await;
}

/// Sends `frame` on a new guest WebSocket; returns the fatal error the server closes with.
async fn refused_frame(addr: SocketAddr, frame: Message) -> (ErrorKind, String) {
    let mut client = Client::websocket_guest(addr, "mallory").await;
    client.link().socket().unwrap().send(frame).await.unwrap();
    client.fatal_error().await
}

#[tokio::test]
async fn bad_frames_close_only_their_own_connection_with_the_reason() {
    let server = start_web_server(test_config()).await;
    let addr = web(&server);
    // A game over TCP and one over WebSocket go on through everything below.
    let (mut ada, mut bob, game) =
        kingme_testkit::two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    let mut carol = Client::websocket_guest(addr, "carol").await;

    let (kind, message) = refused_frame(addr, Message::binary(vec![0, 0, 0, 1, 3])).await;
    assert_eq!(kind, ErrorKind::Malformed);
    assert!(message.contains("binary frame"), "{message}");

    for text in [
        "not json",
        "{\"Move\":{\"game\":1}}",
        "{\"Fly\":{}}",
        "[1,2,3]",
    ] {
        let (kind, message) = refused_frame(addr, Message::text(text)).await;
        assert_eq!(kind, ErrorKind::Malformed, "{text}");
        assert!(
            message.contains("not a kingme message in JSON"),
            "{message}"
        );
    }

    let oversize = format!(
        "{{\"Chat\":{{\"game\":{},\"text\":\"{}\"}}}}",
        game.0,
        "x".repeat(MAX_CLIENT_TEXT)
    );
    let (kind, message) = refused_frame(addr, Message::text(oversize)).await;
    assert_eq!(kind, ErrorKind::Malformed);
    assert!(message.contains("longer than the limit"), "{message}");

    // The first message must still be a hello, as on TCP.
    let mut early = Client::connect_websocket(addr).await;
    early.send(ClientMessage::ListGames).await;
    assert_eq!(early.fatal_error().await.0, ErrorKind::HandshakeRequired);

    carol.send(ClientMessage::Ping { nonce: 9 }).await;
    assert_eq!(carol.recv().await, ServerMessage::Pong { nonce: 9 });
    let (_result, moves) = play_first_moves([&mut ada, &mut bob], game, 0).await;
    assert!(moves.len() >= 5, "{moves:?}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_flood_over_the_websocket_meets_the_same_rate_limit() {
    let config = kingme_server::host::Config {
        rate_burst: 10,
        rate_per_second: 1,
        ..test_config()
    };
    let server = start_web_server(config).await;
    let mut client = Client::websocket_guest(web(&server), "flood").await;
    for _ in 0..20 {
        client.send(ClientMessage::ListGames).await;
    }
    let (kind, message) = client.fatal_error().await;
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(message.contains("slow down"), "{message}");
    server.shutdown().await;
}

/// Reads `client`'s messages until `stop` accepts one (returned), keeping every `MovePlayed`,
/// `Chat` and `GameOver` of `game` in `story`.
async fn follow<T>(
    client: &mut Client,
    game: GameId,
    story: &mut Vec<ServerMessage>,
    mut stop: impl FnMut(&ServerMessage) -> Option<T>,
) -> T {
    loop {
        let message = client.recv().await;
        if let ServerMessage::MovePlayed { game: id, .. }
        | ServerMessage::Chat { game: id, .. }
        | ServerMessage::GameOver { game: id, .. } = &message
            && *id == game
        {
            story.push(message.clone());
        }
        if let Some(stopped) = stop(&message) {
            return stopped;
        }
    }
}

#[tokio::test]
async fn a_tcp_player_and_a_websocket_player_agree_on_moves_chat_and_clocks() {
    let server = start_web_server(test_config()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let mut bob = Client::websocket_guest(web(&server), "bob").await;
    let mut options = open_game(GameKind::TicTacToe);
    options.time_control = TimeControl::Incremental {
        initial_secs: 300,
        increment_secs: 2,
    };
    let created = ada.create(options).await;
    bob.send(ClientMessage::Join { game: created.id }).await;
    let joined = bob.state().await;
    assert_eq!(joined.status, GameStatus::Playing);
    let game = created.id;
    // Each says something, then they play; each side's moves go through its own door.
    ada.send(ClientMessage::Chat {
        game,
        text: "hello from the terminal".to_owned(),
    })
    .await;
    bob.send(ClientMessage::Chat {
        game,
        text: "hello from the browser".to_owned(),
    })
    .await;
    let moves = ["1", "4", "2", "5", "3"];
    let mut stories = [Vec::new(), Vec::new()];
    for (ply, text) in moves.iter().enumerate() {
        let (mover, story) = if ply % 2 == 0 {
            (&mut ada, &mut stories[0])
        } else {
            (&mut bob, &mut stories[1])
        };
        follow(mover, game, story, |message| {
            matches!(message, ServerMessage::YourTurn { game: id, .. } if *id == game).then_some(())
        })
        .await;
        mover.send_move(game, text).await;
    }
    let over = |message: &ServerMessage| {
        matches!(message, ServerMessage::GameOver { game: id, .. } if *id == game).then_some(())
    };
    follow(&mut ada, game, &mut stories[0], over).await;
    follow(&mut bob, game, &mut stories[1], over).await;
    let [seen_by_ada, seen_by_bob] = stories;
    assert_eq!(seen_by_ada, seen_by_bob, "both doors tell the same story");
    let played: Vec<_> = seen_by_ada
        .iter()
        .filter_map(|message| match message {
            ServerMessage::MovePlayed { record, clocks, .. } => {
                Some((record.text.clone(), *clocks))
            }
            _ => None,
        })
        .collect();
    assert_eq!(played.len(), moves.len());
    for ((text, clocks), expected) in played.iter().zip(moves) {
        assert_eq!(text, expected);
        assert!(
            clocks
                .remaining_ms
                .iter()
                .all(|left| left.is_some_and(|ms| ms > 250_000))
        );
    }
    let chats = seen_by_ada
        .iter()
        .filter(|message| matches!(message, ServerMessage::Chat { .. }))
        .count();
    assert_eq!(chats, 2);
    server.shutdown().await;
}

/// The page cannot see its connection's certificate, so it asks the server for the binding its
/// proofs sign: the one of the certificate a client sees in its own handshake.
#[tokio::test]
async fn the_page_is_told_the_binding_of_the_certificate_a_client_sees() {
    let server = start_web_server(test_config()).await;
    let addr = web(&server);
    let seen = dial(addr, Wire::Tls).await.binding;
    assert!(matches!(seen, ChannelBinding::TlsServerEndPoint(_)));
    let (head, body) = get(addr, "/binding").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("no-store"), "{head}");
    let told: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        told,
        serde_json::json!({"label": "tls-server-end-point", "hex": seen.to_string()})
    );
    server.shutdown().await;
}

#[tokio::test]
async fn the_page_and_its_modules_are_served_and_nothing_else() {
    let server = start_web_server(test_config()).await;
    let addr = web(&server);
    let (head, body) = get(addr, "/").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/html"), "{head}");
    assert!(body.contains("type=\"module\""), "{body}");
    let (head, body) = get(addr, "/app.js").await;
    assert!(head.contains("text/javascript"), "{head}");
    assert!(body.contains("import"), "{body}");
    for path in ["/nothing.js", "/../Cargo.toml", "/%2e%2e/Cargo.toml"] {
        let (head, _) = get(addr, path).await;
        assert!(head.starts_with("HTTP/1.1 404"), "{path}: {head}");
    }
    server.shutdown().await;
}

/// The page's create form offers the terminal client's clocks, the same ones in the same order.
#[tokio::test]
async fn the_pages_clocks_are_the_terminal_clients() {
    let server = start_web_server(test_config()).await;
    let (_, page) = get(web(&server), "/").await;
    let form = page
        .split("<select id=\"create-clock\">")
        .nth(1)
        .and_then(|rest| rest.split("</select>").next())
        .expect("the page has the clock choice");
    let offered: Vec<&str> = form
        .split("<option value=\"")
        .skip(1)
        .filter_map(|option| option.split('"').next())
        .collect();
    let expected: Vec<String> = kingme_client::tui::create_form::TIME_CONTROLS
        .iter()
        .map(|time| match time {
            TimeControl::Unlimited => "none".to_owned(),
            TimeControl::Incremental {
                initial_secs,
                increment_secs,
            } => format!("inc:{initial_secs}:{increment_secs}"),
            TimeControl::PerMove { secs } => format!("move:{secs}"),
        })
        .collect();
    assert_eq!(offered, expected);
    server.shutdown().await;
}
