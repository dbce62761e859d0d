//! The two sides of every game, below the [`crate::Game`] trait and the board views that both
//! name them.

use serde::{Deserialize, Serialize};

/// One of the two sides. Each game names them its own way ([`crate::Game::side_name`]): in checkers
/// `First` is Black, in noughts and crosses `First` is X, in Pente the sides are first and second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// The side that moves first (Black in checkers, X in noughts and crosses).
    First,
    /// The side that moves second.
    Second,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first side, 1 for the second: an index into per-side arrays.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// Both sides, first side first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];
}
