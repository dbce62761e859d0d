//! The review board's limits on the server: how many analyses run at once (each takes a
//! blocking thread and a core), how many one asker may start a minute, and the caps on the
//! search per position a client may ask for (`Analyse { depth, time_ms }`).

use std::time::Duration;

/// What bounds the server's analyses (`Analyse`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalysisLimits {
    /// Most analyses running at once, server-wide (`--analyses`; default: one per core).
    pub running: usize,
    /// Most analyses one person (or, for a guest, one address) may start a minute.
    pub per_minute: usize,
    /// The deepest search per position a client may ask for, in plies.
    pub max_depth: u32,
    /// The most time per position a client may ask for; also the bound of a depth-only request.
    pub max_time_per_position: Duration,
    /// The time per position when the client asks for no bound.
    pub default_time_per_position: Duration,
}

impl Default for AnalysisLimits {
    fn default() -> Self {
        AnalysisLimits {
            running: std::thread::available_parallelism().map_or(2, |n| n.get()),
            per_minute: 3,
            max_depth: 16,
            max_time_per_position: Duration::from_secs(1),
            default_time_per_position: Duration::from_millis(200),
        }
    }
}
