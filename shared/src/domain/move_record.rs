//! One move as played, in its standard text and with what it did on the board.

use crate::game::Side;
use serde::{Deserialize, Serialize};

/// Longest move text, in bytes (a checkers multi-jump of 9 landings is 29).
pub const MAX_MOVE_TEXT: usize = 64;

/// One move as played: its standard text and what it did on the board (for animation).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The side that played it.
    pub side: Side,
    /// The move in the game's standard notation.
    pub text: String,
    /// Squares the piece visited, in order (a placement: the one point).
    #[serde(deserialize_with = "crate::grown_list::deserialize")]
    pub path: Vec<u16>,
    /// Squares emptied by the move (captures).
    #[serde(deserialize_with = "crate::grown_list::deserialize")]
    pub removed: Vec<u16>,
}
