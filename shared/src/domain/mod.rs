//! The judge's vocabulary, shared by the referee, the clock, storage and the wire: game and
//! player ids, time controls and clocks, results, moves as played, the archive of finished
//! games, and what admins do. The wire module uses these types; none of them depends on it.

pub mod history;
pub mod ids;
pub mod moderation;
pub mod move_record;
pub mod outcome;
pub mod time_control;

pub use history::{HistoryEntry, LeaderboardEntry, MAX_HISTORY_ENTRIES, MAX_LEADERBOARD_ENTRIES};
pub use ids::{GameId, PlayerId};
pub use moderation::{
    AdminAction, AdminLogEntry, MAX_ADMIN_LOG_ENTRIES, MAX_ANNOUNCEMENT_CHARS, MAX_REASON_CHARS,
};
pub use move_record::{MAX_MOVE_TEXT, MoveRecord};
pub use outcome::{EndReason, GameResult, GameStatus, PLIES_TO_RATE};
pub use time_control::{ClockState, TimeControl};
