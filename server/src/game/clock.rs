//! The two clocks of a game: pure arithmetic over the `now` it is given (never reading a clock
//! itself), so the judge decides when time runs and tests move time by hand.
//!
//! With `Incremental` each side has one budget that shrinks while its clock runs and grows by
//! the increment after each of its moves; with `PerMove` every turn starts with the full limit.

use kingme_shared::Side;
use kingme_shared::domain::{ClockState, TimeControl};
use tokio::time::{Duration, Instant};

/// What is left on both clocks when no clock runs; a retracted move restores one of these.
pub type ClockReading = [Duration; 2];

/// The least time a side has for its first move, which is not taken off its clock.
pub const FIRST_MOVE_ALLOWANCE: Duration = Duration::from_secs(30);

/// Both sides' clocks under one time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Time left for each side, as of when its clock last stopped (or started).
    remaining: ClockReading,
    /// The side whose clock runs, and since when.
    running: Option<(Side, Instant)>,
    /// During a side's first move: that side and its clock's value before it, restored when
    /// the move is made (the clock "starts at the first move").
    first_turn: Option<(Side, Duration)>,
}

fn secs(secs: u32) -> Duration {
    Duration::from_secs(u64::from(secs))
}

impl Clock {
    /// Clocks at their initial values, stopped.
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        let initial = match control {
            TimeControl::Unlimited => Duration::ZERO,
            TimeControl::Incremental { initial_secs, .. } => secs(initial_secs),
            TimeControl::PerMove { secs: limit } => secs(limit),
        };
        Clock {
            control,
            remaining: [initial; 2],
            running: None,
            first_turn: None,
        }
    }

    /// Whether time counts at all.
    #[must_use]
    pub fn is_timed(&self) -> bool {
        self.control != TimeControl::Unlimited
    }

    /// Starts `side`'s turn at `now`.
    pub fn start(&mut self, side: Side, now: Instant) {
        if let TimeControl::PerMove { secs: limit } = self.control {
            self.remaining[side.index()] = secs(limit);
        }
        self.running = Some((side, now));
    }

    /// Starts `side`'s first turn at `now`: it runs on an allowance (its time, at least
    /// [`FIRST_MOVE_ALLOWANCE`]) that is given back when it moves, so its clock really starts
    /// at its first move; letting the allowance run out still loses on time.
    pub fn start_first(&mut self, side: Side, now: Instant) {
        self.start(side, now);
        let budget = self.remaining[side.index()];
        self.first_turn = Some((side, budget));
        self.remaining[side.index()] = budget.max(FIRST_MOVE_ALLOWANCE);
    }

    /// Gives back a first turn's allowance: the side's clock as before it.
    fn end_first_turn(&mut self) -> bool {
        match (self.first_turn.take(), self.running) {
            (Some((side, budget)), Some((running, _))) if side == running => {
                self.remaining[side.index()] = budget;
                self.running = None;
                true
            }
            _ => false,
        }
    }

    /// The flagged side's clock shows nothing left, whatever instant the flag was noticed.
    pub fn run_out(&mut self, side: Side) {
        self.first_turn = None;
        self.remaining[side.index()] = Duration::ZERO;
        if self.running.is_some_and(|(running, _)| running == side) {
            self.running = None;
        }
    }

    /// Takes off increments given for moves that were taken back (`moves` per side), so that a
    /// takeback gives back no time: the time spent stays spent.
    pub fn withdraw_increments(&mut self, moves: [u32; 2]) {
        if let TimeControl::Incremental { increment_secs, .. } = self.control {
            for side in Side::BOTH {
                let given = secs(increment_secs) * moves[side.index()];
                self.remaining[side.index()] = self.remaining[side.index()].saturating_sub(given);
            }
        }
    }

    /// Stops the running clock at `now` because its side moved: the time used is taken off and
    /// the increment added (a first move costs nothing and earns nothing).
    pub fn complete_move(&mut self, now: Instant) {
        if self.end_first_turn() {
            return;
        }
        if let Some((side, _)) = self.running {
            self.remaining[side.index()] = self.remaining(side, now);
            if let TimeControl::Incremental { increment_secs, .. } = self.control {
                self.remaining[side.index()] += secs(increment_secs);
            }
            self.running = None;
        }
    }

    /// Stops the running clock at `now` without an increment (the game ended, or a takeback).
    pub fn halt(&mut self, now: Instant) {
        if self.end_first_turn() {
            return;
        }
        if let Some((side, _)) = self.running {
            self.remaining[side.index()] = self.remaining(side, now);
            self.running = None;
        }
    }

    /// Time left for `side` at `now`.
    #[must_use]
    pub fn remaining(&self, side: Side, now: Instant) -> Duration {
        let stored = self.remaining[side.index()];
        match self.running {
            Some((running, since)) if running == side => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// When the running side's time runs out, if time counts.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        self.is_timed()
            .then(|| since + self.remaining[side.index()])
    }

    /// The side whose time has run out at `now`, if any.
    #[must_use]
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        let (side, _) = self.running?;
        (self.is_timed() && self.remaining(side, now).is_zero()).then_some(side)
    }

    /// The stored values, for restoring after a takeback.
    #[must_use]
    pub fn reading(&self) -> ClockReading {
        self.remaining
    }

    /// Puts the clocks back to `reading`, stopped.
    pub fn restore(&mut self, reading: ClockReading) {
        self.remaining = reading;
        self.running = None;
        self.first_turn = None;
    }

    /// The clocks as the protocol shows them at `now`.
    #[must_use]
    pub fn state(&self, now: Instant) -> ClockState {
        let millis = |side: Side| {
            self.is_timed()
                .then(|| u64::try_from(self.remaining(side, now).as_millis()).unwrap_or(u64::MAX))
        };
        ClockState {
            remaining_ms: [millis(Side::First), millis(Side::Second)],
            running: self.running.map(|(side, _)| side),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn an_incremental_clock_takes_the_time_used_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::Incremental {
            initial_secs: 60,
            increment_secs: 2,
        });
        clock.start(Side::First, t0);
        assert_eq!(clock.remaining(Side::First, t0 + MS(10_000)), MS(50_000));
        assert_eq!(clock.remaining(Side::Second, t0 + MS(10_000)), MS(60_000));
        clock.complete_move(t0 + MS(10_000));
        assert_eq!(clock.reading(), [MS(52_000), MS(60_000)]);
        clock.start(Side::Second, t0 + MS(10_000));
        assert_eq!(clock.deadline(), Some(t0 + MS(70_000)));
        let state = clock.state(t0 + MS(15_000));
        assert_eq!(state.remaining_ms, [Some(52_000), Some(55_000)]);
        assert_eq!(state.running, Some(Side::Second));
    }

    #[test]
    fn the_flag_falls_exactly_at_the_deadline() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::PerMove { secs: 5 });
        clock.start(Side::Second, t0);
        assert_eq!(clock.flagged(t0 + MS(4_999)), None);
        assert_eq!(clock.flagged(t0 + MS(5_000)), Some(Side::Second));
        assert_eq!(clock.deadline(), Some(t0 + MS(5_000)));
    }

    #[test]
    fn a_per_move_limit_starts_full_every_turn() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::PerMove { secs: 5 });
        clock.start(Side::First, t0);
        clock.complete_move(t0 + MS(4_000));
        clock.start(Side::Second, t0 + MS(4_000));
        clock.complete_move(t0 + MS(4_500));
        clock.start(Side::First, t0 + MS(4_500));
        assert_eq!(clock.remaining(Side::First, t0 + MS(4_500)), MS(5_000));
    }

    #[test]
    fn without_time_control_nothing_runs_out() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::Unlimited);
        clock.start(Side::First, t0);
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.flagged(t0 + Duration::from_secs(1_000_000)), None);
        assert_eq!(clock.state(t0).remaining_ms, [None, None]);
    }

    #[test]
    fn halting_keeps_the_time_used_without_an_increment_and_restore_puts_readings_back() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::Incremental {
            initial_secs: 10,
            increment_secs: 5,
        });
        let before = clock.reading();
        clock.start(Side::First, t0);
        clock.halt(t0 + MS(3_000));
        assert_eq!(clock.reading(), [MS(7_000), MS(10_000)]);
        assert_eq!(clock.state(t0 + MS(9_000)).running, None);
        clock.restore(before);
        assert_eq!(clock.reading(), [MS(10_000), MS(10_000)]);
    }
}
