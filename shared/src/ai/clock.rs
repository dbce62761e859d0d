//! The clock a search reads its time limit by, handed in with the [`super::Limits`] rather than
//! read deep inside: this file is the one place in the engine that names the system clock (the
//! default), and a caller may hand it another (a test's, or a tool replaying a search).

use std::time::Instant;

/// Where a search reads the time: the system's monotonic clock unless the caller says otherwise.
#[derive(Clone, Copy)]
pub struct Clock(fn() -> Instant);

impl Clock {
    /// A clock that reads `now`.
    #[must_use]
    pub fn new(now: fn() -> Instant) -> Clock {
        Clock(now)
    }

    /// The time now, by this clock.
    #[must_use]
    pub fn now(self) -> Instant {
        (self.0)()
    }
}

impl Default for Clock {
    /// The system's monotonic clock.
    fn default() -> Clock {
        Clock(Instant::now)
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Clock")
    }
}

/// A moment by a clock, after which a search stops.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    at: Instant,
    clock: Clock,
}

impl Deadline {
    /// `at`, as `clock` tells it.
    #[must_use]
    pub fn new(at: Instant, clock: Clock) -> Deadline {
        Deadline { at, clock }
    }

    /// Whether the moment has come.
    #[must_use]
    pub fn has_passed(self) -> bool {
        self.clock.now() >= self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn long_ago() -> Instant {
        // Far enough in the past by any monotonic clock for the tests below.
        Instant::now()
            .checked_sub(Duration::from_secs(3600))
            .unwrap_or_else(Instant::now)
    }

    #[test]
    fn a_deadline_reads_the_clock_it_was_given() {
        let now = Instant::now();
        let later = now + Duration::from_secs(60);
        // By the system clock the deadline a minute from now has not passed...
        assert!(!Deadline::new(later, Clock::default()).has_passed());
        // ...and the one an hour ago has, while a clock stuck an hour ago sees neither pass.
        let stuck = Clock::new(long_ago);
        assert!(Deadline::new(long_ago(), Clock::default()).has_passed());
        assert!(!Deadline::new(later, stuck).has_passed());
    }
}
