//! The handshake, and hostile or broken clients: each is closed with an error saying why, and a
//! game running beside them goes on as if nothing happened.

use bytes::BytesMut;
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, EndReason, ErrorKind, GameStatus, PROTOCOL_VERSION, ServerMessage,
};
use kingme_shared::{GameKind, Side};
use kingme_testkit::client::hello_message;
use kingme_testkit::{Client, open_game, play_first_moves, start_server, test_config, two_players};
use tokio_util::codec::Encoder;

#[tokio::test]
async fn a_hello_gets_a_welcome_and_a_wrong_version_or_name_is_refused_by_name() {
    let server = start_server(test_config()).await;
    let ada = Client::hello(server.addr(), "  ada  ").await;
    let bob = Client::hello(server.addr(), "bob").await;
    assert_ne!(ada.player, bob.player);
    assert_eq!(ada.token.len(), 32);
    assert_ne!(ada.token, bob.token);

    let mut old = Client::connect(server.addr()).await;
    old.send(ClientMessage::Hello {
        protocol_version: PROTOCOL_VERSION + 98,
        name: "old".to_owned(),
        resume: None,
        public_key: None,
        legacy_secret: None,
        guest: false,
    })
    .await;
    let (kind, message) = old.fatal_error().await;
    assert_eq!(kind, ErrorKind::VersionMismatch);
    let ours = format!("version {PROTOCOL_VERSION}");
    let theirs = format!("version {}", PROTOCOL_VERSION + 98);
    assert!(
        message.contains(&ours) && message.contains(&theirs),
        "{message}"
    );
    // A newer client is not told to upgrade itself.
    assert!(message.contains("which is newer"), "{message}");
    assert!(!message.contains("upgrade the client"), "{message}");

    for name in ["", "   ", &"n".repeat(33), "bell\u{7}"] {
        let mut client = Client::connect(server.addr()).await;
        client
            .send(ClientMessage::Hello {
                protocol_version: PROTOCOL_VERSION,
                name: name.to_owned(),
                resume: None,
                public_key: None,
                legacy_secret: None,
                guest: false,
            })
            .await;
        let (kind, message) = client.fatal_error().await;
        assert_eq!(kind, ErrorKind::Unauthorized, "{name:?}");
        assert!(message.contains("1 to 32 characters"), "{message}");
    }

    let mut rude = Client::connect(server.addr()).await;
    rude.send(ClientMessage::ListGames).await;
    let (kind, message) = rude.fatal_error().await;
    assert_eq!(kind, ErrorKind::HandshakeRequired);
    assert!(message.contains("Hello"), "{message}");
    server.shutdown().await;
}

#[tokio::test]
async fn garbage_oversize_and_undecodable_frames_close_only_their_own_connection() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    ada.your_turn(game).await;
    ada.send_move(game, "5").await;

    let garbage: &[u8] = b"GET / HTTP/1.1\r\nHost: kingme\r\n\r\n";
    let oversize: &[u8] = &[0x00, 0x10, 0x00, 0x00, 1, 2, 3];
    // A valid frame of three bytes whose payload is no message.
    let undecodable: &[u8] = &[0, 0, 0, 3, 0xff, 0xff, 0xff];
    for (bytes, expected) in [
        (garbage, "longer than the limit"),
        (oversize, "1048576 bytes is longer than the limit of 4096"),
        (undecodable, "undecodable"),
    ] {
        // Before the hello and after it alike.
        let mut stranger = Client::connect(server.addr()).await;
        stranger.send_raw(bytes).await;
        let (kind, message) = stranger.fatal_error().await;
        assert_eq!(kind, ErrorKind::Malformed);
        assert!(message.contains(expected), "{message}");
        let mut player = Client::hello(server.addr(), "mallory").await;
        player.send_raw(bytes).await;
        let (kind, _) = player.fatal_error().await;
        assert_eq!(kind, ErrorKind::Malformed);
    }

    let (result, moves) = play_first_moves([&mut bob, &mut ada], game, 0).await;
    assert!(!moves.is_empty());
    assert!(matches!(
        result.reason,
        EndReason::Win(_) | EndReason::Draw(_)
    ));
    server.shutdown().await;
}

#[tokio::test]
async fn analyse_requests_out_of_bounds_are_capped_or_refused_and_games_go_on() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    // A client of version 7 knows no Analyse; one that sends it anyway is told so.
    let mut old = Client::connect(server.addr()).await;
    let mut hello = hello_message("old", None, None);
    if let ClientMessage::Hello {
        protocol_version, ..
    } = &mut hello
    {
        *protocol_version = 7;
    }
    old.send(hello).await;
    old.recv().await;
    let analyse = |game, depth, time_ms| ClientMessage::Analyse {
        game,
        depth,
        time_ms,
    };
    old.send(analyse(game, None, None)).await;
    let (kind, message) = old.error().await;
    assert_eq!(kind, ErrorKind::VersionMismatch);
    assert!(message.contains("protocol version 8"), "{message}");
    // A game in play is no one's to analyse, not even a spectator's at the largest bounds.
    let mut spy = Client::hello(server.addr(), "spy").await;
    spy.send(analyse(game, Some(u32::MAX), Some(u64::MAX)))
        .await;
    assert_eq!(spy.error().await.0, ErrorKind::NotAllowed);
    let (result, moves) = play_first_moves([&mut ada, &mut bob], game, 0).await;
    assert!(matches!(
        result.reason,
        EndReason::Win(_) | EndReason::Draw(_)
    ));
    // Over, it is analysed, the bounds capped by the server.
    spy.send(analyse(game, Some(u32::MAX), Some(u64::MAX)))
        .await;
    let plies = spy
        .until(|message| match message {
            ServerMessage::Analysis { review, .. } => Some(review.plies.len()),
            ServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(plies, moves.len());
    server.shutdown().await;
}

#[tokio::test]
async fn a_flood_of_messages_hits_the_rate_limit() {
    let server = start_server(test_config()).await;
    let mut flood = Client::hello(server.addr(), "flood").await;
    // All at once, as one write: the server reads them faster than any limit allows.
    let mut bytes = BytesMut::new();
    let mut codec = ClientCodec::client();
    for nonce in 0..400 {
        codec
            .encode(ClientMessage::Ping { nonce }, &mut bytes)
            .unwrap();
    }
    flood.send_raw(&bytes).await;
    let (kind, message) = flood.fatal_error().await;
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(message.contains("slow down"), "{message}");
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_client_that_never_says_hello_or_stops_answering_pings_is_closed() {
    let server = start_server(test_config()).await;
    let mut mute = Client::connect(server.addr()).await;
    let mut sleeper = Client::hello(server.addr(), "sleeper").await;
    // A game is played beside them before any of their timers runs out.
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    let (result, _) = play_first_moves([&mut ada, &mut bob], game, 0).await;
    assert_eq!(result.winner, Some(Side::First));

    let (kind, message) = mute.fatal_error().await;
    assert_eq!(kind, ErrorKind::HandshakeRequired);
    assert!(message.contains("no Hello within 10 s"), "{message}");

    assert!(matches!(
        sleeper.recv_raw().await,
        Some(ServerMessage::Ping { .. })
    ));
    let mut last = None;
    while let Some(message) = sleeper.recv_raw().await {
        last = Some(message);
    }
    assert!(
        matches!(
            last,
            Some(ServerMessage::Error {
                kind: ErrorKind::Timeout,
                fatal: true,
                ..
            })
        ),
        "{last:?}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn shutdown_keeps_games_tells_every_client_and_the_next_start_resumes_them() {
    let dir = tempfile::tempdir().unwrap();
    let config = || kingme_server::host::Config {
        database: kingme_server::host::Database::File(dir.path().join("kingme.db")),
        ..test_config()
    };
    let server = start_server(config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::Checkers)).await;
    let mut idle = Client::hello(server.addr(), "idle").await;
    ada.your_turn(game).await;
    ada.send_move(game, "11-15").await;
    bob.move_played(game).await;
    let tokens = [ada.token.clone(), bob.token.clone()];
    server.shutdown().await;
    for client in [&mut ada, &mut bob, &mut idle] {
        let seen = client.until_closed().await;
        // Nobody is told the game ended: it did not.
        assert!(
            !seen
                .iter()
                .any(|message| matches!(message, ServerMessage::GameOver { .. })),
            "{seen:?}"
        );
        assert!(
            matches!(seen.last(), Some(ServerMessage::ShuttingDown { message })
                if message.contains("your games are kept")),
            "{seen:?}"
        );
    }
    // The next start has the game as it was, and both players come back to it.
    let server = start_server(config()).await;
    let (mut ada, _) = Client::resume(server.addr(), &tokens[0]).await;
    let (mut bob, _) = Client::resume(server.addr(), &tokens[1]).await;
    let state = ada.state().await;
    assert_eq!((state.id, state.status), (game, GameStatus::Playing));
    assert_eq!(state.moves.len(), 1);
    bob.state().await;
    bob.send_move(game, "23-19").await;
    assert_eq!(ada.move_played(game).await, (2, "23-19".to_owned()));
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn beyond_the_connection_limit_a_client_waits_until_a_place_is_free() {
    let config = kingme_server::host::Config {
        max_connections: 1,
        ..test_config()
    };
    let server = start_server(config).await;
    let first = Client::hello(server.addr(), "first").await;
    // The second connection's TLS handshake and hello wait in the backlog.
    let addr = server.addr();
    let mut second = tokio::spawn(async move { Client::hello(addr, "second").await });
    // On the paused clock this wait ends only once nothing else can happen: the server has not
    // taken the second connection while the first holds the only place.
    let waited = tokio::time::timeout(std::time::Duration::from_secs(2), &mut second).await;
    assert!(waited.is_err(), "{waited:?}");
    drop(first);
    // Welcomed (`Client::hello` checks the `Welcome`).
    let second = second.await.unwrap();
    assert_ne!(second.player.0, 0);
    server.shutdown().await;
}

#[tokio::test]
async fn a_spectator_that_stops_reading_is_dropped_and_the_game_goes_on() {
    let config = kingme_server::host::Config {
        rate_burst: 1_000_000,
        rate_per_second: 1_000_000,
        ..test_config()
    };
    let server = start_server(config).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let game = ada
        .create(kingme_testkit::against_bot(
            GameKind::TicTacToe,
            kingme_shared::ai::Level::Random,
        ))
        .await
        .id;
    let legal = ada.your_turn(game).await;
    let mut cy = Client::hello(server.addr(), "cy").await;
    cy.send(ClientMessage::Watch { game }).await;
    cy.state().await;
    // Cy reads nothing more. Dan, watching too, chats in the spectators' room in batches and
    // reads his own lines back, until the lobby shows the game without its silent spectator.
    let mut dan = Client::hello(server.addr(), "dan").await;
    dan.send(ClientMessage::Watch { game }).await;
    dan.state().await;
    let line = "x".repeat(300);
    let mut codec = ClientCodec::client();
    let chat_seen = |m: ServerMessage| matches!(m, ServerMessage::Chat { .. }).then_some(());
    let mut batches = 0;
    loop {
        let mut bytes = BytesMut::new();
        for _ in 0..500 {
            let chat = ClientMessage::Chat {
                game,
                text: line.clone(),
            };
            codec.encode(chat, &mut bytes).unwrap();
        }
        dan.send_raw(&bytes).await;
        for _ in 0..500 {
            dan.until(chat_seen).await;
        }
        batches += 1;
        ada.send(ClientMessage::ListGames).await;
        let spectators = ada
            .until(|m| match m {
                ServerMessage::GameList { games } => {
                    games.iter().find(|g| g.id == game).map(|g| g.spectators)
                }
                _ => None,
            })
            .await;
        if spectators == 1 {
            break;
        }
        assert!(batches < 400, "the silent spectator was never dropped");
    }
    assert!(cy.is_closed().await);
    // Ada's game was never held up: she plays on against the bot.
    ada.send_move(game, &legal[0]).await;
    assert_eq!(ada.move_played(game).await.0, 1);
    server.shutdown().await;
}
