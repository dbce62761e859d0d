//! The review board on the server (`Analyse`): a finished game reviewed move by move by the
//! engine, for the page and for bots. The [`Analyst`] admits a request (a finished game only:
//! a game in play is never analysed, that would be an engine aid to its players), caps its
//! search per position, and keeps the limits: a server-wide number running at once (the cores)
//! and a budget per asker ([`budget`]). The search itself runs on the blocking pool ([`job`]),
//! stopped when its asker goes.

pub mod budget;
pub mod job;

use crate::config::AnalysisLimits;
use crate::refusal::Refusal;
use crate::storage::StoredGame;
use budget::{Asker, Budget};
use job::{Running, Work};
use kingme_shared::ai::egdb::Egdb;
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// The least time per position a client may ask for: less searches nothing worth showing.
pub const MIN_TIME_PER_POSITION: Duration = Duration::from_millis(10);

/// The most search time one analysis may spend over all its positions: a long game's time per
/// position is cut so that its review holds a slot about two minutes at most (never below
/// [`MIN_TIME_PER_POSITION`]).
pub const MAX_TIME_PER_ANALYSIS: Duration = Duration::from_secs(120);

/// What a client asked of the search per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked {
    /// Plies.
    pub depth: Option<u32>,
    /// Milliseconds.
    pub time_ms: Option<u64>,
}

/// The server's review board: its limits, its running analyses' slots, and the endgame
/// database the searches consult.
#[derive(Debug)]
pub struct Analyst {
    limits: AnalysisLimits,
    slots: Arc<Semaphore>,
    budget: Mutex<Budget>,
    egdb: Option<Arc<Egdb>>,
}

impl Analyst {
    /// A review board within `limits`, consulting `egdb` in checkers if there is one.
    #[must_use]
    pub fn new(limits: AnalysisLimits, egdb: Option<Arc<Egdb>>) -> Analyst {
        Analyst {
            limits,
            slots: Arc::new(Semaphore::new(limits.running.max(1))),
            budget: Mutex::new(Budget::new(limits.per_minute)),
            egdb,
        }
    }

    /// The search per position for what was asked, within the caps, for a game of `moves`
    /// moves: a depth at most `max_depth`; always a time, at most `max_time_per_position` (the
    /// default when nothing was asked) and at most [`MAX_TIME_PER_ANALYSIS`] over the game, so
    /// neither a deep request nor a long game can hold a core for long.
    #[must_use]
    pub fn bound(&self, asked: Asked, moves: usize) -> (Option<u32>, Duration) {
        let depth = asked
            .depth
            .map(|depth| depth.clamp(1, self.limits.max_depth));
        let cap = self.limits.max_time_per_position;
        let time = match (asked.time_ms, depth) {
            (Some(ms), _) => Duration::from_millis(ms).min(cap),
            (None, Some(_)) => cap,
            (None, None) => self.limits.default_time_per_position.min(cap),
        };
        let share = MAX_TIME_PER_ANALYSIS / u32::try_from(moves.max(1)).unwrap_or(u32::MAX);
        (depth, time.min(share).max(MIN_TIME_PER_POSITION))
    }

    /// Starts reviewing `stored` for `asker`: refused for a game not over, a record that does
    /// not replay, a full server or a spent budget (a refused request spends none).
    pub fn start(
        &self,
        asker: &Asker,
        stored: &StoredGame,
        asked: Asked,
        now: Instant,
    ) -> Result<Running, Refusal> {
        let game = stored.game.id;
        if stored.result.is_none() {
            return Err(Refusal::StillPlaying(game));
        }
        let start = stored
            .to_record()
            .start_game()
            .map_err(|err| Refusal::NotReviewable {
                game,
                reason: err.to_string(),
            })?;
        let slot = Arc::clone(&self.slots)
            .try_acquire_owned()
            .map_err(|_| Refusal::AnalysesBusy(self.limits.running.max(1)))?;
        let mut budget = self.budget.lock();
        if !budget.take(asker, now) {
            return Err(Refusal::AnalysisBudget(budget.per_window()));
        }
        drop(budget);
        let (depth, time) = self.bound(asked, stored.moves.len());
        let work = Work {
            game,
            start,
            moves: stored.moves.iter().map(|mv| mv.text.clone()).collect(),
            depth,
            time_per_position: Some(time),
        };
        tracing::info!(%game, moves = work.moves.len(), ?depth, ?time, "analysis started");
        Ok(Running::start(work, self.egdb.clone(), slot))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyst() -> Analyst {
        Analyst::new(AnalysisLimits::default(), None)
    }

    #[test]
    fn the_search_asked_for_is_capped() {
        let analyst = analyst();
        let limits = AnalysisLimits::default();
        let asked = |depth, time_ms| analyst.bound(Asked { depth, time_ms }, 40);
        assert_eq!(asked(None, None), (None, limits.default_time_per_position));
        assert_eq!(
            asked(Some(99), None),
            (Some(limits.max_depth), limits.max_time_per_position)
        );
        assert_eq!(asked(Some(0), Some(0)), (Some(1), MIN_TIME_PER_POSITION));
        assert_eq!(
            asked(None, Some(u64::MAX)),
            (None, limits.max_time_per_position)
        );
        assert_eq!(
            asked(Some(4), Some(50)),
            (Some(4), Duration::from_millis(50))
        );
    }

    #[test]
    fn a_long_games_time_per_position_is_cut_to_the_analysis_budget() {
        let analyst = analyst();
        let most = Asked {
            depth: None,
            time_ms: Some(u64::MAX),
        };
        let cap = AnalysisLimits::default().max_time_per_position;
        // A game short enough keeps the cap a position.
        let short = usize::try_from(MAX_TIME_PER_ANALYSIS.as_millis() / cap.as_millis()).unwrap();
        assert_eq!(analyst.bound(most, short).1, cap);
        // Twice as long: half as much a position, the whole within the budget.
        let (_, time) = analyst.bound(most, 2 * short);
        assert_eq!(time, cap / 2);
        assert!(time * u32::try_from(2 * short).unwrap() <= MAX_TIME_PER_ANALYSIS);
        // Never below the least that is worth searching.
        assert_eq!(analyst.bound(most, 1_000_000).1, MIN_TIME_PER_POSITION);
    }
}
