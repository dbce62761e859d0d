//! `/metrics` of the real `kingme-server` binary (its own process, so its counts are its own):
//! two games of noughts and crosses played out over the TCP door, a move refused, and the
//! scraped Prometheus text parsed: the moves, the games by state, the connections, the
//! relay-latency histogram, the storage commits and the refusal all match what was played.
//! With a metrics door of its own (`metrics` in the configuration file), `/metrics` and the
//! health checks are there in plain HTTP, and the HTTP door no longer shows `/metrics`. A game
//! against a bot: its searches are timed, one for each of its moves.

use crate::SERVER;
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{ClientMessage, GameStatus, ServerMessage};
use kingme_testkit::Client;
use kingme_testkit::http::{get, get_over};
use kingme_testkit::link::Wire;
use kingme_testkit::prometheus::{parse, value};
use kingme_testkit::server_process::{line_containing, listening_address, spawn_logged};
use kingme_testkit::{against_bot, open_game, play_first_moves, two_players};
use tokio::process::Command;

/// The `HOST:PORT` after `scheme` in a line the server printed (`kingme web page: https://…/`).
fn address_after(line: &str, scheme: &str) -> String {
    line.split(scheme)
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no {scheme} address in {line:?}"))
        .to_owned()
}

#[tokio::test]
async fn metrics_count_the_moves_games_and_refusals_of_real_games() {
    let (mut server, mut log) = spawn_logged(
        Command::new(SERVER)
            .args(["--listen", "127.0.0.1:0", "--http", "127.0.0.1:0"])
            .args(["--db", ":memory:"])
            .env("NO_COLOR", "1"),
    );
    let web = address_after(
        &line_containing(&mut log, "kingme web page: https://").await,
        "https://",
    );
    // The TCP door's line (the web door logs a "listening addr=" of its own).
    let addr = listening_address(&line_containing(&mut log, "kingme server listening").await);
    tokio::spawn(async move { while let Ok(Some(_)) = log.next_line().await {} });

    let kind = GameKind::TicTacToe;
    let (mut ada, mut bob, first) = two_players(&addr, open_game(kind)).await;
    let (_, first_moves) = play_first_moves([&mut ada, &mut bob], first, 0).await;
    let second = ada.create(open_game(kind)).await.id;
    bob.send(ClientMessage::Join { game: second }).await;
    bob.state_of(second).await;
    let (_, second_moves) = play_first_moves([&mut ada, &mut bob], second, 0).await;
    let played = (first_moves.len() + second_moves.len()) as f64;
    // A move in a finished game is refused.
    ada.send_move(second, "1").await;
    ada.until(|message| matches!(message, ServerMessage::MoveRejected { .. }).then_some(()))
        .await;
    // The lobby shows both games over: their tables have published their state.
    ada.send(ClientMessage::ListGames).await;
    let over = ada
        .until(|message| match message {
            ServerMessage::GameList { games } => Some(games),
            _ => None,
        })
        .await;
    assert_eq!(
        over.iter()
            .filter(|game| matches!(game.status, GameStatus::Over(_)))
            .count(),
        2
    );

    let (head, body) = get(&web, "/metrics").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/plain; version=0.0.4"), "{head}");
    let samples = parse(&body);
    let name = kind.name();
    assert_eq!(
        value(&samples, "kingme_moves_total", &[("kind", name)]),
        played,
        "{body}"
    );
    assert_eq!(
        value(
            &samples,
            "kingme_move_relay_seconds_count",
            &[("kind", name)]
        ),
        played,
        "{body}"
    );
    assert_eq!(
        value(
            &samples,
            "kingme_move_relay_seconds_bucket",
            &[("kind", name), ("le", "+Inf")]
        ),
        played
    );
    let games = |state| {
        value(
            &samples,
            "kingme_games",
            &[("kind", name), ("state", state)],
        )
    };
    assert_eq!(
        (games("open"), games("playing"), games("over")),
        (0.0, 0.0, 2.0),
        "{body}"
    );
    assert_eq!(
        value(&samples, "kingme_connections", &[("door", "tcp")]),
        2.0,
        "{body}"
    );
    assert_eq!(
        value(&samples, "kingme_refusals_total", &[("reason", "GameOver")]),
        1.0,
        "{body}"
    );
    // Every move was its own stored batch at least, besides the games' creation and seats.
    assert!(
        value(&samples, "kingme_storage_commit_seconds_count", &[]) >= played,
        "{body}"
    );

    // A connection that leaves is no longer counted.
    drop(bob);
    let mut left = 2.0;
    for _ in 0..100 {
        let (_, body) = get(&web, "/metrics").await;
        left = value(&parse(&body), "kingme_connections", &[("door", "tcp")]);
        if left == 1.0 {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(left, 1.0);
    server.kill().await.unwrap();
}

#[tokio::test]
async fn a_metrics_door_of_its_own_serves_metrics_and_health_and_the_public_door_hides_them() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("kingme.toml");
    std::fs::write(
        &config,
        "listen = \"127.0.0.1:0\"\nhttp = \"127.0.0.1:0\"\nmetrics = \"127.0.0.1:0\"\ndb = \":memory:\"\n",
    )
    .unwrap();
    let (mut server, mut log) = spawn_logged(
        Command::new(SERVER)
            .arg("--config")
            .arg(&config)
            .env("NO_COLOR", "1"),
    );
    let web = address_after(
        &line_containing(&mut log, "kingme web page: https://").await,
        "https://",
    );
    let door = address_after(
        &line_containing(&mut log, "kingme metrics: http://").await,
        "http://",
    );
    let addr = listening_address(&line_containing(&mut log, "kingme server listening").await);
    tokio::spawn(async move { while let Ok(Some(_)) = log.next_line().await {} });
    let _ada = Client::hello(&addr, "ada").await;

    let (head, body) = get_over(&door, "/metrics", Wire::Plaintext).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/plain; version=0.0.4"), "{head}");
    assert_eq!(
        value(&parse(&body), "kingme_connections", &[("door", "tcp")]),
        1.0,
        "{body}"
    );
    let (head, body) = get_over(&door, "/readyz", Wire::Plaintext).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(body, "ready\n");
    let (head, body) = get_over(&door, "/healthz", Wire::Plaintext).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(body, "alive\n");

    // The public door keeps its page and health checks, and shows no metrics.
    let (head, _) = get(&web, "/metrics").await;
    assert!(head.starts_with("HTTP/1.1 404"), "{head}");
    let (head, _) = get(&web, "/readyz").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    server.kill().await.unwrap();
}

#[tokio::test]
async fn bot_searches_are_timed_by_kind_and_level() {
    let (mut server, mut log) = spawn_logged(
        Command::new(SERVER)
            .args(["--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0"])
            .args(["--db", ":memory:", "--bot-think-ms", "50"])
            .env("NO_COLOR", "1"),
    );
    let door = address_after(
        &line_containing(&mut log, "kingme metrics: http://").await,
        "http://",
    );
    let addr = listening_address(&line_containing(&mut log, "kingme server listening").await);
    tokio::spawn(async move { while let Ok(Some(_)) = log.next_line().await {} });

    let kind = GameKind::TicTacToe;
    let mut ada = Client::hello(&addr, "ada").await;
    let game = ada.create(against_bot(kind, Level::Random)).await.id;
    let mut mine = 0.0;
    while let Ok(legal) = ada.turn_or_end(game).await {
        ada.send_move(game, &legal[0]).await;
        mine += 1.0;
    }

    let (_, body) = get_over(&door, "/metrics", Wire::Plaintext).await;
    let samples = parse(&body);
    let labels = [("kind", kind.name()), ("level", Level::Random.name())];
    let searches = value(&samples, "kingme_bot_search_seconds_count", &labels);
    let moves = value(&samples, "kingme_moves_total", &[("kind", kind.name())]);
    // The bot searched once for each of its moves.
    assert!(searches >= 1.0, "{body}");
    assert_eq!(searches, moves - mine, "{body}");
    let bucket = |le| {
        let mut labels = labels.to_vec();
        labels.push(("le", le));
        value(&samples, "kingme_bot_search_seconds_bucket", &labels)
    };
    assert_eq!(bucket("+Inf"), searches, "{body}");
    // A random bot answers at once: every search in a bucket below the top one (5 s).
    assert_eq!(bucket("5"), searches, "{body}");
    server.kill().await.unwrap();
}
