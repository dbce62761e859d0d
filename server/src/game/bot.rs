//! A built-in bot in a seat. Its search (`kingme_shared::ai::think`) runs on a blocking thread,
//! never on the async reactor, with the time the clock allows and a stop flag the table raises
//! when the game ends or the position changes under it. A semaphore bounds how many searches run
//! at once, so many bot games share the cores and cannot crowd out move relay for people. A
//! move found sooner than the request's `not_before` waits for it on tokio's timer (the pause
//! that lets people follow a game between bots), never holding a thread or a search slot.
//! Each search's time goes to `kingme_bot_search_seconds` ([`crate::telemetry`]).

use crate::telemetry;
use kingme_shared::ai::budget::TimeUse;
use kingme_shared::ai::egdb::Egdb;
use kingme_shared::ai::{Level, Limits, StopFlag, think};
use kingme_shared::{AnyGame, Side};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;

/// What all bots share: the search slots, and the checkers endgame database their searches
/// consult, if the server was given one.
#[derive(Debug, Clone)]
pub struct SearchPool {
    slots: Arc<Semaphore>,
    egdb: Option<Arc<Egdb>>,
}

impl SearchPool {
    /// `searches` slots (at least one), with the endgame database `egdb`.
    #[must_use]
    pub fn new(searches: usize, egdb: Option<Arc<Egdb>>) -> SearchPool {
        SearchPool {
            slots: Arc::new(Semaphore::new(searches.max(1))),
            egdb,
        }
    }

    /// The limits of one search: `time` for the move, stopped by `stop`, with the pool's
    /// endgame database.
    fn limits(&self, time: MoveTime, stop: StopFlag) -> Limits {
        Limits {
            time: Some(time.base),
            time_use: time.time_use,
            stop,
            egdb: self.egdb.clone(),
            ..Limits::default()
        }
    }
}

/// A bot's answer for the position numbered `epoch`: its move's text, or `None` if it found
/// none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotAnswer {
    pub side: Side,
    pub epoch: u64,
    pub text: Option<String>,
}

/// What a bot needs to choose a move; the answer goes to `reply` as whatever command type the
/// asker reads (`C: From<BotAnswer>`), so the bot knows nothing of tables.
#[derive(Debug)]
pub struct MoveRequest<C> {
    pub game: AnyGame,
    pub side: Side,
    /// The time it may use.
    pub budget: MoveTime,
    /// The table's position number; an answer for an older one is ignored.
    pub epoch: u64,
    /// The answer is not given before this instant (a pause for people to follow the game).
    pub not_before: Instant,
    /// Where the answer goes.
    pub reply: mpsc::Sender<C>,
}

/// A bot at a level, thinking about at most one move at a time.
#[derive(Debug)]
pub struct Bot {
    pub level: Level,
    pool: SearchPool,
    thinking: Option<StopFlag>,
}

impl Bot {
    /// A bot at `level` that searches in `pool`.
    #[must_use]
    pub fn new(level: Level, pool: SearchPool) -> Bot {
        Bot {
            level,
            pool,
            thinking: None,
        }
    }

    /// The same bot for another game (a rematch).
    #[must_use]
    pub fn twin(&self) -> Bot {
        Bot::new(self.level, self.pool.clone())
    }

    /// Starts choosing a move; the answer arrives on the request's `reply` channel.
    pub fn think<C: From<BotAnswer> + Send + 'static>(&mut self, request: MoveRequest<C>) {
        self.stop();
        let stop = StopFlag::default();
        self.thinking = Some(stop.clone());
        let level = self.level;
        let slots = Arc::clone(&self.pool.slots);
        let pool = self.pool.clone();
        tokio::spawn(async move {
            let MoveRequest {
                game,
                side,
                budget,
                epoch,
                not_before,
                reply,
            } = request;
            let text = {
                let Ok(_slot) = slots.acquire_owned().await else {
                    return;
                };
                if stop.is_stopped() {
                    return;
                }
                let limits = pool.limits(budget, stop);
                let seed = rand::random();
                let kind = game.kind().name();
                let began = std::time::Instant::now();
                let search =
                    tokio::task::spawn_blocking(move || think(&game, level, &limits, seed));
                let text = match search.await {
                    Ok(report) => report.map(|report| report.text),
                    Err(err) => {
                        tracing::error!(%err, "a bot's search failed");
                        None
                    }
                };
                telemetry::bot_searched(kind, level.name(), began);
                text
            };
            // The pause, with the search slot given back.
            tokio::time::sleep_until(not_before).await;
            // The table may have closed meanwhile; then nobody needs the move.
            let _ = reply.send(BotAnswer { side, epoch, text }.into()).await;
        });
    }

    /// Stops the current search, if any.
    pub fn stop(&mut self) {
        if let Some(flag) = self.thinking.take() {
            flag.stop();
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A bot's time for a move: its budget, and how a search that reads the position's sharpness
/// (the Pente expert) may bend it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveTime {
    /// The time a move takes as a rule.
    pub base: Duration,
    /// How the base bends to the position ([`TimeUse`]).
    pub time_use: TimeUse,
}

/// The time a bot may spend on a move with `left` on its clock: a share of what is left, so a
/// bot never loses on time by thinking; `fallback` without clocks. With a clock that runs over
/// the game, a sharp position may take more than the share, never more than twice it nor a
/// fifteenth of what is left, and a quiet one takes less, which it keeps for later; with a
/// limit per move, what a move does not use is lost, so every move may use it all.
#[must_use]
pub fn budget(left: Option<Duration>, per_move: bool, fallback: Duration) -> MoveTime {
    let base = match left {
        None => fallback,
        // A fixed limit per move: use most of it, keeping a margin for relay.
        Some(left) if per_move => left.mul_f64(0.8).saturating_sub(Duration::from_millis(50)),
        Some(left) => (left / 30).min(fallback.max(left / 60)),
    }
    .max(Duration::from_millis(1));
    let time_use = match left {
        None => TimeUse::default(),
        Some(_) if per_move => TimeUse::Flat,
        Some(left) => TimeUse::BySharpness {
            cap: Some((base * 2).min(left / 15).max(base)),
            keeps_unused: true,
        },
    };
    MoveTime { base, time_use }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_of_the_pool_consults_its_endgame_database() {
        use kingme_shared::ai::egdb::{encode, solve};
        let egdb = Arc::new(Egdb::parse(encode(&solve(2, |_| {}))).expect("a database"));
        let pool = SearchPool::new(0, Some(Arc::clone(&egdb)));
        let time = budget(None, false, Duration::from_millis(5));
        let limits = pool.limits(time, StopFlag::default());
        assert!(limits.egdb.is_some_and(|db| Arc::ptr_eq(&db, &egdb)));
        assert_eq!(limits.time, Some(Duration::from_millis(5)));
        assert_eq!(limits.time_use, time.time_use);
        let without = SearchPool::new(1, None).limits(time, StopFlag::default());
        assert!(without.egdb.is_none());
    }

    #[test]
    fn a_bot_never_plans_to_use_all_its_time() {
        let s = Duration::from_secs;
        let base = |left, per_move| budget(left, per_move, s(1)).base;
        assert_eq!(base(None, false), s(1));
        assert!(base(Some(s(5)), true) < s(5));
        assert!(base(Some(s(5)), true) >= s(3));
        assert!(base(Some(s(60)), false) <= s(2));
        assert!(base(Some(Duration::from_millis(30)), false) < Duration::from_millis(30));
        assert!(base(Some(Duration::ZERO), true) > Duration::ZERO);
    }

    #[test]
    fn a_sharp_move_may_take_more_of_a_clock_but_never_over_a_fifteenth_of_it() {
        use kingme_shared::ai::budget::Sharpness;
        let s = Duration::from_secs;
        for left in [s(1), s(30), s(300), s(3600)] {
            let time = budget(Some(left), false, s(5));
            let [quiet, sharp] =
                [Sharpness::Quiet, Sharpness::Sharp].map(|x| time.time_use.budget(time.base, x));
            assert!(quiet < time.base && sharp > time.base, "{left:?}: {time:?}");
            assert!(
                sharp <= left / 15 && sharp <= time.base * 2,
                "{left:?}: {time:?}"
            );
        }
        // A limit per move: every move may use it all, whatever the position.
        let per_move = budget(Some(s(5)), true, s(1));
        assert_eq!(per_move.time_use, TimeUse::Flat);
        assert_eq!(
            per_move.time_use.budget(per_move.base, Sharpness::Quiet),
            per_move.base
        );
    }
}
