//! A bot's refused moves, game by game. The first refusal in a row reads the game again at once
//! (the bot's view may be stale: a reconnect, a move sent twice); each later one in a row waits
//! twice as long before trying again, up to [`MOST_PAUSE`] (a server that cannot store moves,
//! its disk full, refuses every move until it can), and a reason is said once, not once a try.
//! Pure: it is given `now`, so tests need no clock.

use kingme_shared::protocol::GameId;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The pause after the second refusal in a row.
pub(crate) const FIRST_PAUSE: Duration = Duration::from_millis(250);
/// The longest pause between tries.
pub(crate) const MOST_PAUSE: Duration = Duration::from_secs(8);

/// One game's refusals in a row.
#[derive(Debug)]
struct Streak {
    count: u32,
    reason: String,
    retry_at: Option<Instant>,
}

/// What to do after a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refused {
    /// When to read the game again: `None` at once.
    pub(crate) retry_at: Option<Instant>,
    /// The line to say, `None` when this reason was said already.
    pub say: Option<String>,
}

/// The refusals in a row of every game the bot plays.
#[derive(Debug, Default)]
pub(crate) struct Refusals {
    games: HashMap<GameId, Streak>,
}

/// The pause after the `count`-th refusal in a row (the first has none).
fn pause(count: u32) -> Duration {
    let doublings = count.saturating_sub(2).min(16);
    FIRST_PAUSE.saturating_mul(1 << doublings).min(MOST_PAUSE)
}

impl Refusals {
    /// A move in `game` was refused for `reason` at `now`.
    pub(crate) fn refused(&mut self, game: GameId, reason: &str, now: Instant) -> Refused {
        let streak = self.games.entry(game).or_insert_with(|| Streak {
            count: 0,
            reason: String::new(),
            retry_at: None,
        });
        streak.count += 1;
        let say = (streak.reason != reason).then(|| {
            streak.reason = reason.to_owned();
            if streak.count == 1 {
                format!("game {game}: a move was refused: {reason}; reading the game again")
            } else {
                format!(
                    "game {game}: moves are refused: {reason}; trying again after pauses of up \
                     to {} s (said once)",
                    MOST_PAUSE.as_secs()
                )
            }
        });
        streak.retry_at = (streak.count > 1).then(|| now + pause(streak.count));
        Refused {
            retry_at: streak.retry_at,
            say,
        }
    }

    /// A move of the bot's in `game` was played: the streak is over. Says so when it was long.
    pub(crate) fn accepted(&mut self, game: GameId) -> Option<String> {
        let streak = self.games.remove(&game)?;
        (streak.count > 1).then(|| {
            format!(
                "game {game}: moves are accepted again after {} refusals",
                streak.count
            )
        })
    }

    /// The game is over or left.
    pub(crate) fn forget(&mut self, game: GameId) {
        self.games.remove(&game);
    }

    /// The games whose pause is over at `now` (each handed out once).
    pub(crate) fn due(&mut self, now: Instant) -> Vec<GameId> {
        let mut due = Vec::new();
        for (game, streak) in &mut self.games {
            if streak.retry_at.is_some_and(|at| at <= now) {
                streak.retry_at = None;
                due.push(*game);
            }
        }
        due.sort_unstable_by_key(|game| game.0);
        due
    }

    /// When the next pause is over, if a game waits.
    #[must_use]
    pub(crate) fn next(&self) -> Option<Instant> {
        self.games
            .values()
            .filter_map(|streak| streak.retry_at)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_up_to_the_most_and_a_reason_is_said_once() {
        let mut refusals = Refusals::default();
        let now = Instant::now();
        let game = GameId(3);
        let first = refusals.refused(game, "the disk is full", now);
        assert_eq!(first.retry_at, None);
        assert!(first.say.is_some());
        let mut pauses = Vec::new();
        let mut said = 0;
        for _ in 0..8 {
            let refused = refusals.refused(game, "the disk is full", now);
            pauses.push(refused.retry_at.map(|at| at - now));
            said += usize::from(refused.say.is_some());
        }
        let ms = |ms| Some(Duration::from_millis(ms));
        assert_eq!(
            pauses,
            [
                ms(250),
                ms(500),
                ms(1000),
                ms(2000),
                ms(4000),
                ms(8000),
                ms(8000),
                ms(8000)
            ]
        );
        assert_eq!(said, 0, "the same reason is said once");
        assert!(refusals.refused(game, "another", now).say.is_some());
        assert!(refusals.accepted(game).is_some());
        assert_eq!(refusals.next(), None);
    }
}
