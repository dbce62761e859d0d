//! The judge's vocabulary, shared by the referee, the clock, storage and the wire: game and
//! player ids, time controls and clocks, results, moves as played and the archive of finished
//! games. The wire module uses these types; none of them depends on it.

pub mod history;
pub mod ids;
pub mod move_record;
pub mod outcome;
pub mod time_control;

pub use history::{HistoryEntry, LeaderboardEntry, MAX_HISTORY_ENTRIES, MAX_LEADERBOARD_ENTRIES};
pub use ids::{GameId, PlayerId};
pub use move_record::{MAX_MOVE_TEXT, MoveRecord};
pub use outcome::{EndReason, GameResult, GameStatus};
pub use time_control::{ClockState, TimeControl};
