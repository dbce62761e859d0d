//! Which game: the names of the games, below the [`crate::Game`] trait (each game says its kind)
//! and the closed enum over the games ([`crate::AnyGame`]), which both name them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which game a table plays. The default is the main game, English checkers: the one a client
/// offers first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    #[default]
    /// English checkers (draughts).
    Checkers,
    /// Pente.
    Pente,
    /// Noughts and crosses (tic-tac-toe).
    TicTacToe,
}

impl GameKind {
    /// Every game, in the order menus list them.
    pub const ALL: [GameKind; 3] = [GameKind::Checkers, GameKind::Pente, GameKind::TicTacToe];

    /// The name used on command lines and in the protocol's text forms.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Checkers => "checkers",
            GameKind::Pente => "pente",
            GameKind::TicTacToe => "tictactoe",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game name that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a game: checkers, pente or tictactoe, got {0:?}")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "checkers" | "draughts" => Ok(GameKind::Checkers),
            "pente" => Ok(GameKind::Pente),
            "tictactoe" | "tic-tac-toe" | "noughts-and-crosses" | "ttt" => Ok(GameKind::TicTacToe),
            _ => Err(UnknownGame(text.to_owned())),
        }
    }
}
