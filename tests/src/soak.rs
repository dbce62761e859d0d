//! The soak cycle: a player connects, starts a game against a bot, plays a few moves and
//! vanishes without a word (no leave, no resign), as a crashed client or a dropped network
//! would. Thousands of these, run by `kingme-hostile --soak-seconds`, show whether the server's
//! memory grows with the number of past connections: every such player leaves a session, a
//! seat and a table behind that the server must let go once the grace period is over.

use crate::Client;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameOptions, Opponent, SeatChoice, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::net::SocketAddr;

/// One cycle: hello, a game of a random kind against the random bot, up to `max_moves` random
/// legal moves, then the connection dropped. Returns the moves played.
pub async fn abrupt_cycle(addr: SocketAddr, max_moves: usize, rng: &mut StdRng) -> usize {
    let mut client = Client::hello(addr, "soak").await;
    let kind = *[GameKind::TicTacToe, GameKind::Checkers, GameKind::Pente]
        .choose(rng)
        .unwrap_or(&GameKind::TicTacToe);
    let state = client
        .create(GameOptions {
            spec: kind.into(),
            seat: SeatChoice::Side(Side::First),
            opponent: Opponent::Bot(Level::Random),
            time_control: TimeControl::Unlimited,
            start_position: None,
            rated: false,
        })
        .await;
    let moves = rng.random_range(0..=max_moves);
    for played in 0..moves {
        let turn = client
            .until(|message| match message {
                ServerMessage::YourTurn {
                    game, legal_moves, ..
                } if *game == state.id => Some(Some(legal_moves.clone())),
                ServerMessage::GameOver { game, .. } if *game == state.id => Some(None),
                _ => None,
            })
            .await;
        let Some(text) = turn.as_deref().and_then(|legal| legal.choose(rng)) else {
            return played;
        };
        client
            .send(ClientMessage::Move {
                game: state.id,
                text: text.clone(),
            })
            .await;
    }
    // Dropping the client closes the socket with no goodbye.
    drop(client);
    moves
}
