//! What creating a game takes (`CreateGame`'s [`GameOptions`]): the game and its variant, the
//! creator's seat, the opponent, the clock, the start position and whether it is rated.

use crate::ai::Level;
use crate::domain::TimeControl;
use crate::game::Side;
use crate::games::spec::GameSpec;
use serde::{Deserialize, Serialize};

/// Which seat the creator of a game takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatChoice {
    /// A particular side.
    Side(Side),
    /// The server tosses a coin.
    Random,
    /// No seat: the creator watches. The opponent (a bot, or an open seat) takes the second
    /// seat and the first stays open, so bots can be attached to both and watched.
    Spectate,
}

/// Who sits opposite the creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opponent {
    /// An open seat another person can join (or a bot can be attached to later).
    OpenSeat,
    /// A built-in bot at this level, seated at once.
    Bot(Level),
}

/// Everything needed to create a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOptions {
    /// The game and its rule variant.
    pub spec: GameSpec,
    /// Which side the creator takes.
    pub seat: SeatChoice,
    /// Who sits in the other seat.
    pub opponent: Opponent,
    /// The game's clock.
    pub time_control: TimeControl,
    /// Start from this position (checkers FEN or board file text, the Pente or noughts-and-crosses
    /// position text) instead of the standard start.
    pub start_position: Option<String>,
    /// Whether the result counts for ratings.
    pub rated: bool,
}
