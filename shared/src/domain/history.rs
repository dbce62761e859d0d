//! What the server remembers about finished games: the history of games and the rating
//! leaderboard, as the store answers and the wire carries them.

use super::{GameId, GameResult};
use crate::game_kind::GameKind;
use serde::{Deserialize, Serialize};

/// Most games a history answer lists.
pub const MAX_HISTORY_ENTRIES: usize = 200;
/// Most entries a leaderboard answer lists.
pub const MAX_LEADERBOARD_ENTRIES: usize = 100;

/// A finished game in the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// The game's id.
    pub id: GameId,
    /// Which game was played.
    pub kind: GameKind,
    /// The players as shown to people, first side first: a name, `name (guest)` or
    /// `advanced (bot)`.
    pub players: [String; 2],
    /// Moves played.
    pub moves: u32,
    /// Who won and how.
    pub result: GameResult,
    /// Whether it changed ratings.
    pub rated: bool,
    /// When the game ended, in milliseconds since the Unix epoch.
    pub finished_at_ms: i64,
}

/// One line of the leaderboard: a person, or a bot level, in one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// Which game the rating is for.
    pub kind: GameKind,
    /// The person's name, or the bot level's name when `bot` is set.
    pub player: String,
    /// Whether the line is a bot level's rather than a person's.
    pub bot: bool,
    /// The Elo rating, rounded.
    pub rating: i32,
    /// Rated games played.
    pub games: u32,
    /// Rated games won.
    pub wins: u32,
    /// Rated games drawn.
    pub draws: u32,
    /// Rated games lost.
    pub losses: u32,
}
