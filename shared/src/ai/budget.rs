//! How much time a move may take: the budget a caller gives ([`super::Limits::time`]), bent by
//! how sharp the position is (more where threats stand and captures are pending, less where it
//! is quiet and a clock keeps what the move leaves), and never beyond a hard cap. The game's
//! engine judges the sharpness before it searches; this file owns the rule, so it reads no clock
//! and a test can check its decisions without one.

use std::time::Duration;

/// How sharp a position is, as a game's engine judges it before searching.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sharpness {
    /// Nothing to answer or to take: the move can be found in less than the budget.
    Quiet,
    /// Something to watch (in Pente: a three, or one pair that can be taken).
    Tense,
    /// Threats that decide games (in Pente: a four, threes on both sides, several pairs to take,
    /// or a pair to take near the fifth): the budget's extra time goes here.
    Sharp,
}

/// The share of the budget a quiet position uses where a clock keeps the rest for later moves
/// (elsewhere a quiet position uses the whole budget: what it left would be lost).
pub const QUIET_SHARE: f64 = 0.5;

/// How many budgets a sharp position may use (within the cap).
pub const SHARP_SHARE: f64 = 1.75;

/// How a search spends the time budget of its [`super::Limits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUse {
    /// The budget as given, whatever the position (every engine before issue 35, and the one
    /// a per-move clock calls for: time not used on a move is lost).
    Flat,
    /// The budget bent by the position: [`SHARP_SHARE`] budgets when sharp, all of it when
    /// tense, and when quiet all of it too, or [`QUIET_SHARE`] of it where a clock keeps what
    /// the move leaves; never beyond `cap`, or twice the budget when no cap is given.
    BySharpness {
        /// The most a move may take, whatever its sharpness.
        cap: Option<Duration>,
        /// Whether time a move does not use stays for later moves (a clock that runs over the
        /// game), so that a quiet position saves some for the sharp ones.
        keeps_unused: bool,
    },
}

impl Default for TimeUse {
    /// The sharpness rule, capped at twice the budget, with no clock to keep unused time (a
    /// budget a move, as `kingme match` and a game without clocks give).
    fn default() -> TimeUse {
        TimeUse::BySharpness {
            cap: None,
            keeps_unused: false,
        }
    }
}

impl TimeUse {
    /// The time a move of this `sharpness` may take, given the caller's `budget`.
    #[must_use]
    pub fn budget(self, budget: Duration, sharpness: Sharpness) -> Duration {
        match self {
            TimeUse::Flat => budget,
            TimeUse::BySharpness { cap, keeps_unused } => {
                let cap = cap.unwrap_or(budget * 2);
                let share = match sharpness {
                    Sharpness::Quiet if keeps_unused => QUIET_SHARE,
                    Sharpness::Quiet | Sharpness::Tense => 1.0,
                    Sharpness::Sharp => SHARP_SHARE,
                };
                budget.mul_f64(share).min(cap)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharper_positions_get_more_time_and_none_gets_more_than_the_cap() {
        let budget = Duration::from_secs(1);
        let shares = |rule: TimeUse| {
            [Sharpness::Quiet, Sharpness::Tense, Sharpness::Sharp].map(|s| rule.budget(budget, s))
        };
        // With a clock that keeps what a move leaves, a quiet position saves some of it.
        let clock = TimeUse::BySharpness {
            cap: None,
            keeps_unused: true,
        };
        let [quiet, tense, sharp] = shares(clock);
        assert!(
            quiet < tense && tense < sharp,
            "{quiet:?} {tense:?} {sharp:?}"
        );
        assert_eq!(tense, budget);
        assert!(sharp <= budget * 2);
        // With a budget a move, what a quiet move left would be lost: it uses the budget.
        let [quiet, tense, sharp] = shares(TimeUse::default());
        assert!(
            quiet == budget && tense == budget && sharp > budget,
            "{quiet:?} {tense:?} {sharp:?}"
        );
        // A cap below the sharp share holds it back, and one below the budget every share.
        for keeps_unused in [false, true] {
            let capped = TimeUse::BySharpness {
                cap: Some(budget * 5 / 4),
                keeps_unused,
            };
            assert_eq!(capped.budget(budget, Sharpness::Sharp), budget * 5 / 4);
            let tight = TimeUse::BySharpness {
                cap: Some(budget / 4),
                keeps_unused,
            };
            for sharpness in [Sharpness::Quiet, Sharpness::Tense, Sharpness::Sharp] {
                assert!(tight.budget(budget, sharpness) <= budget / 4);
            }
        }
        // The flat rule is the budget whatever the position.
        for sharpness in [Sharpness::Quiet, Sharpness::Tense, Sharpness::Sharp] {
            assert_eq!(TimeUse::Flat.budget(budget, sharpness), budget);
        }
    }
}
