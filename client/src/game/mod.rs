//! One game as the client holds it, for every mode: the [`table`] rebuilt from the server's
//! messages, the [`intent`] a key, click or typed line means, picking pieces up
//! ([`selection`]), the slide of a move ([`animation`]), squares on the screen
//! ([`board_geometry`]), the legal moves' list ([`move_list`]), looking back ([`review`]),
//! people's [`ratings`] and results in [`words`]; and [`game_of`], which game a server message is about.

pub(crate) mod animation;
pub mod board_geometry;
pub mod intent;
pub(crate) mod move_list;
pub mod ratings;
pub(crate) mod review;
pub(crate) mod selection;
pub mod table;
pub mod words;

use kingme_shared::protocol::{GameId, ServerMessage};

/// The game a server message is about, if it is about one.
#[must_use]
pub(crate) fn game_of(message: &ServerMessage) -> Option<GameId> {
    match message {
        ServerMessage::State(state) => Some(state.id),
        ServerMessage::YourTurn { game, .. }
        | ServerMessage::MovePlayed { game, .. }
        | ServerMessage::MoveRejected { game, .. }
        | ServerMessage::SeatChanged { game, .. }
        | ServerMessage::GameOver { game, .. }
        | ServerMessage::DrawOffered { game, .. }
        | ServerMessage::DrawDeclined { game, .. }
        | ServerMessage::TakebackRequested { game, .. }
        | ServerMessage::TakebackDeclined { game, .. }
        | ServerMessage::RematchOffered { game, .. }
        | ServerMessage::Chat { game, .. }
        | ServerMessage::TookBack { game, .. }
        | ServerMessage::RematchStarted { game, .. }
        | ServerMessage::Left { game } => Some(*game),
        _ => None,
    }
}
