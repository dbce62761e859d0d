//! Games as the tests set them up: options for a game (any game, against a person or a bot;
//! noughts and crosses with clocks and rating), two players seated in a new game, a game played
//! out between two clients, and the first legal move of a position.

use crate::client::Client;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, GameResult, GameState, GameStatus, Opponent, SeatChoice,
    TimeControl,
};
use kingme_shared::{GameKind, Side};
use std::fmt::Display;

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

/// Options for a game against a bot at `level`, the creator moving first.
#[must_use]
pub fn against_bot(kind: GameKind, level: Level) -> GameOptions {
    options(kind, Side::First, Opponent::Bot(level))
}

/// Options for a game of noughts and crosses against `opponent`, the creator moving first, with
/// `time_control`, rated or not.
#[must_use]
pub fn tictactoe_options(
    opponent: Opponent,
    time_control: TimeControl,
    rated: bool,
) -> GameOptions {
    GameOptions {
        time_control,
        rated,
        ..options(GameKind::TicTacToe, Side::First, opponent)
    }
}

/// The first legal move in a game's `State` (by the rules, from its position).
///
/// # Panics
/// When the state's position cannot be read, or has no legal move.
#[must_use]
pub fn first_legal(state: &GameState) -> String {
    let game = state
        .spec
        .start(Some(&state.position))
        .expect("the state's position is readable");
    game.legal_move_texts()
        .into_iter()
        .next()
        .expect("a legal move in the position")
}

/// Ada creates a game with `options` (taking the first seat) and Bob joins it, both guests.
/// Returns both and the game's id; the game has started.
///
/// # Panics
/// When the game does not open and start as it should.
pub async fn two_players(addr: impl Display, options: GameOptions) -> (Client, Client, GameId) {
    let mut ada = Client::hello(&addr, "ada").await;
    let mut bob = Client::hello(&addr, "bob").await;
    let created = ada.create(options).await;
    assert_eq!(created.status, GameStatus::Open);
    assert_eq!(created.your_side, Some(Side::First));
    bob.send(ClientMessage::Join { game: created.id }).await;
    let joined = bob.state().await;
    assert_eq!(joined.status, GameStatus::Playing);
    assert_eq!(joined.your_side, Some(Side::Second));
    (ada, bob, created.id)
}

/// Plays `game` to its end between two clients, each always choosing the first legal move it is
/// offered; `first` is the index of the client to move first. Returns the result both saw, and
/// every move's text in order.
pub async fn play_first_moves(
    clients: [&mut Client; 2],
    game: GameId,
    first: usize,
) -> (GameResult, Vec<String>) {
    play_out(clients, game, first, |_, legal| legal[0].clone()).await
}

/// Plays `game` to its end between two clients; `choose(client index, legal moves)` picks each
/// move; `first` is the index of the client to move first. Returns the result both saw, and
/// every move's text in order.
///
/// # Panics
/// When a client is offered no legal move on its turn, or the two see different results.
pub async fn play_out(
    clients: [&mut Client; 2],
    game: GameId,
    first: usize,
    choose: impl Fn(usize, &[String]) -> String,
) -> (GameResult, Vec<String>) {
    let mut players = clients;
    let mut turn = first;
    let mut seen: Vec<String> = Vec::new();
    loop {
        // Read the mover's messages up to its turn or the end.
        let mover = &mut players[turn];
        match mover.turn_or_end(game).await {
            Ok(legal) => {
                assert!(!legal.is_empty(), "a legal move on our turn");
                let text = choose(turn, &legal);
                mover.send_move(game, &text).await;
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

/// A free square of a noughts-and-crosses game after the moves `played`.
///
/// # Panics
/// When the board is full.
#[must_use]
pub fn free_square(played: &[String]) -> String {
    (1..=9)
        .map(|square| square.to_string())
        .find(|square| !played.contains(square))
        .expect("a free square on the board")
}
