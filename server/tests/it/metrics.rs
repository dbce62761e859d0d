//! `/metrics` of the real `kingme-server` binary (its own process, so its counts are its own):
//! two games of noughts and crosses played out over the TCP door, a move refused, and the
//! scraped Prometheus text parsed: the moves, the games by state, the connections, the
//! relay-latency histogram, the storage commits and the refusal all match what was played.

use crate::SERVER;
use kingme_shared::GameKind;
use kingme_shared::protocol::{ClientMessage, GameStatus, ServerMessage};
use kingme_testkit::http::get;
use kingme_testkit::server_process::{line_containing, listening_address, spawn_logged};
use kingme_testkit::{open_game, play_first_moves, two_players};
use std::collections::{BTreeMap, BTreeSet};
use tokio::process::Command;

/// One sample of the text: its metric name and labels.
type Series = (String, BTreeSet<(String, String)>);

/// The samples of a Prometheus text exposition, by name and labels.
fn parse(text: &str) -> BTreeMap<Series, f64> {
    let mut samples = BTreeMap::new();
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').unwrap();
        let (name, labels) = match series.split_once('{') {
            Some((name, labels)) => (name, labels.strip_suffix('}').unwrap()),
            None => (series, ""),
        };
        let labels = labels
            .split(',')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap();
                (key.to_owned(), value.trim_matches('"').to_owned())
            })
            .collect();
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(
            samples.insert((name.to_owned(), labels), value).is_none(),
            "{line} twice"
        );
    }
    samples
}

/// The value of `name` with `labels`, or 0 when the text has no such sample.
fn value(samples: &BTreeMap<Series, f64>, name: &str, labels: &[(&str, &str)]) -> f64 {
    let labels = labels
        .iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect();
    samples
        .get(&(name.to_owned(), labels))
        .copied()
        .unwrap_or(0.0)
}

#[tokio::test]
async fn metrics_count_the_moves_games_and_refusals_of_real_games() {
    let (mut server, mut log) = spawn_logged(
        Command::new(SERVER)
            .args(["--listen", "127.0.0.1:0", "--http", "127.0.0.1:0"])
            .args(["--db", ":memory:"])
            .env("NO_COLOR", "1"),
    );
    let page = line_containing(&mut log, "kingme web page: https://").await;
    let web = page
        .split("https://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap()
        .to_owned();
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
