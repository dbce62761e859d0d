//! Time: how much the sides have (`TimeControl`) and what their clocks show (`ClockState`).

use crate::game::Side;
use serde::{Deserialize, Serialize};

/// How much time the sides have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    /// No clocks.
    Unlimited,
    /// Fischer: an initial amount per side plus an increment after each own move.
    Incremental {
        /// Each side's time at the start, in seconds.
        initial_secs: u32,
        /// Seconds added after each of a side's own moves.
        increment_secs: u32,
    },
    /// A fixed limit for every move, as the classic programs' AI time limit.
    PerMove {
        /// The seconds each move may take.
        secs: u32,
    },
}

/// The two clocks. Milliseconds left for each side (for a per-move limit: left for the current
/// move), `None` without clocks; `running` names the side whose clock ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Milliseconds left per side, first side first; `None` without clocks.
    pub remaining_ms: [Option<u64>; 2],
    /// The side whose clock is running, if any.
    pub running: Option<Side>,
}
