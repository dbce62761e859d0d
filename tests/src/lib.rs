//! Helpers for the end-to-end tests in `tests/tests/` and the load generator: start the real
//! server on a free port, connect real clients over TCP or WebSocket ([`client`], [`link`]). Also the plain reference
//! rules ([`reference`]) and the differential comparison against the fast rules
//! ([`differential`]); the hostile clients ([`hostile`]) and soak cycles ([`soak`]) of
//! `kingme-hostile`; what the load tools read from `/proc` ([`measure`]), and the bare relay of
//! `kingme-floor` ([`floor`]); the repository's own files for the document checks
//! ([`source_tree`]).

// Not yet: the workspace warns on undocumented public items, and shared documents all of its;
// the test tools' public items are being narrowed to the crate (issue 30) before theirs are written.
#![allow(missing_docs)]

pub mod client;
pub mod differential;
pub mod floor;
pub mod hostile;
pub mod link;
pub mod measure;
pub mod reference;
pub mod soak;
pub mod source_tree;

pub use client::Client;

use kingme_server::{Config, ServerHandle};
use kingme_shared::GameKind;
use kingme_shared::Side;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{GameOptions, Opponent, SeatChoice, TimeControl};
use std::time::Duration;

/// The configuration the tests use: the defaults, with bots that answer at once.
#[must_use]
pub fn test_config() -> Config {
    Config {
        bot_think_time: Duration::from_millis(20),
        ..Config::default()
    }
}

/// Starts the real server on a free port of 127.0.0.1.
pub async fn start_server(config: Config) -> ServerHandle {
    ServerHandle::start("127.0.0.1:0", config)
        .await
        .expect("the server starts on 127.0.0.1:0")
}

/// Starts the real server on a free port of 127.0.0.1 with its HTTP door (the WebSocket and the
/// web page) on another.
pub async fn start_web_server(config: Config) -> ServerHandle {
    ServerHandle::start_with_http("127.0.0.1:0", "127.0.0.1:0", config)
        .await
        .expect("the server starts on 127.0.0.1:0 with its HTTP door")
}

/// Options for a game without clocks: the creator takes `seat`, facing `opponent`.
#[must_use]
pub fn options(kind: GameKind, seat: Side, opponent: Opponent) -> GameOptions {
    GameOptions {
        spec: kind.into(),
        seat: SeatChoice::Side(seat),
        opponent,
        time_control: TimeControl::Unlimited,
        start_position: None,
        rated: false,
    }
}

/// Options for a game between two people without clocks, the creator moving first.
#[must_use]
pub fn open_game(kind: GameKind) -> GameOptions {
    options(kind, Side::First, Opponent::OpenSeat)
}

/// Ada creates a game with `options` (taking the first seat) and Bob joins it. Returns both and
/// the game's id; the game has started.
pub async fn two_players(
    addr: std::net::SocketAddr,
    options: GameOptions,
) -> (Client, Client, kingme_shared::protocol::GameId) {
    use kingme_shared::protocol::{ClientMessage, GameStatus};
    let mut ada = Client::hello(addr, "ada").await;
    let mut bob = Client::hello(addr, "bob").await;
    let created = ada.create(options).await;
    assert_eq!(created.status, GameStatus::Open);
    assert_eq!(created.your_side, Some(Side::First));
    bob.send(ClientMessage::Join { game: created.id }).await;
    let joined = bob.state().await;
    assert_eq!(joined.status, GameStatus::Playing);
    assert_eq!(joined.your_side, Some(Side::Second));
    (ada, bob, created.id)
}

/// Options for a game against a bot at `level`, the creator moving first.
#[must_use]
pub fn against_bot(kind: GameKind, level: Level) -> GameOptions {
    options(kind, Side::First, Opponent::Bot(level))
}

/// Plays `game` to its end between two clients, each always choosing the first legal move it is
/// offered; `first` is the index of the client to move first. Returns the result both saw, and
/// every move's text in order.
pub async fn play_first_moves(
    clients: [&mut Client; 2],
    game: kingme_shared::protocol::GameId,
    first: usize,
) -> (kingme_shared::protocol::GameResult, Vec<String>) {
    play_out(clients, game, first, |_, legal| legal[0].clone()).await
}

/// Plays `game` to its end between two clients; `choose(client index, legal moves)` picks each
/// move; `first` is the index of the client to move first. Returns the result both saw, and
/// every move's text in order.
pub async fn play_out(
    clients: [&mut Client; 2],
    game: kingme_shared::protocol::GameId,
    first: usize,
    choose: impl Fn(usize, &[String]) -> String,
) -> (kingme_shared::protocol::GameResult, Vec<String>) {
    let [a, b] = clients;
    let mut players = [a, b];
    let mut turn = first;
    let mut seen: Vec<String> = Vec::new();
    loop {
        // Read the mover's messages up to its turn or the end.
        let mover = &mut players[turn];
        match mover.turn_or_end(game).await {
            Ok(legal) => {
                assert!(!legal.is_empty(), "a legal move on our turn");
                let text = choose(turn, &legal);
                mover.play(game, &text).await;
                seen.push(text);
                turn = 1 - turn;
            }
            Err(result) => {
                let other = players[1 - turn].game_over(game).await;
                assert_eq!(other, result, "both players see the same result");
                return (result, seen);
            }
        }
    }
}
