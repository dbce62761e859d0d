//! A match's score with its error bar: the mean points a game of one side, one standard error of
//! that mean (from the spread of the games' own results, so draws narrow it), and the Elo
//! difference the score stands for with its error carried through the Elo curve's slope.
//! `kingme match` prints it at the end, so that two engines' figures say how sure they are,
//! beside each side's [`Tally`] (its results, nodes and time).

use super::elo_fit::{difference, points_per_score};
use std::time::Duration;

/// A tally from one side's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub nodes: u64,
    pub thinking: Duration,
    /// Moves this side chose (its thinking time is spread over them).
    pub moves: u32,
    /// Moves played in under half the time budget (a side with one).
    pub quick: u32,
    /// Of those, the moves whose score was a proven win or loss.
    pub proven: u32,
}

impl Tally {
    /// Points: a win 1, a draw one half.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Nodes per second over the whole match.
    #[must_use]
    pub fn speed(&self) -> f64 {
        let seconds = self.thinking.as_secs_f64();
        if seconds > 0.0 {
            self.nodes as f64 / seconds
        } else {
            0.0
        }
    }

    /// Mean thinking time a move, in seconds (0 before the first move).
    #[must_use]
    pub fn seconds_per_move(&self) -> f64 {
        if self.moves > 0 {
            self.thinking.as_secs_f64() / f64::from(self.moves)
        } else {
            0.0
        }
    }
}

/// A score measured over a match, from one side's point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Games played.
    pub games: u32,
    /// Mean points a game (a win 1, a draw one half), 0 to 1.
    pub score: f64,
    /// One standard error of `score`.
    pub error: f64,
    /// The Elo difference and its one standard error; `None` for a clean sweep either way,
    /// whose difference has no finite estimate.
    pub elo: Option<(f64, f64)>,
}

impl Estimate {
    /// The estimate from a side's wins, draws and losses; `None` before any game.
    #[must_use]
    pub fn of(wins: u32, draws: u32, losses: u32) -> Option<Estimate> {
        let games = wins + draws + losses;
        if games == 0 {
            return None;
        }
        let n = f64::from(games);
        let score = (f64::from(wins) + f64::from(draws) / 2.0) / n;
        // The variance of one game's points around the mean score, then of the mean.
        let square = (f64::from(wins) + f64::from(draws) / 4.0) / n;
        let error = ((square - score * score).max(0.0) / n).sqrt();
        let elo = (score > 0.0 && score < 1.0)
            .then(|| (difference(score), error * points_per_score(score)));
        Some(Estimate {
            games,
            score,
            error,
            elo,
        })
    }

    /// The line `kingme match` prints: "score 62.5% ± 3.1%, Elo +89 ± 23 (one standard error,
    /// 200 games)".
    #[must_use]
    pub fn describe(&self) -> String {
        let elo = match self.elo {
            Some((points, error)) => format!("Elo {points:+.0} ± {error:.0}"),
            None => "Elo not finite (a clean sweep)".to_owned(),
        };
        format!(
            "score {:.1}% ± {:.1}%, {elo} (one standard error, {} games)",
            100.0 * self.score,
            100.0 * self.error,
            self.games
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_match_of_wins_and_losses_has_the_coin_error_and_no_elo_difference() {
        let even = Estimate::of(50, 0, 50).unwrap();
        assert!((even.score - 0.5).abs() < 1e-12);
        // Each game is 0 or 1 with mean one half: a spread of one half, over ten games' root.
        assert!((even.error - 0.05).abs() < 1e-12, "{even:?}");
        let (points, error) = even.elo.unwrap();
        assert!(points.abs() < 1e-9);
        // At one half the Elo curve's slope is 1600 / ln 10 points per unit of score.
        assert!((error - 0.05 * 1600.0 / std::f64::consts::LN_10).abs() < 1e-6);
    }

    #[test]
    fn draws_narrow_the_error_and_only_a_sweep_has_no_finite_elo() {
        let drawish = Estimate::of(30, 40, 30).unwrap();
        let sharp = Estimate::of(50, 0, 50).unwrap();
        assert!(drawish.error < sharp.error, "{drawish:?} {sharp:?}");
        let all_draws = Estimate::of(0, 10, 0).unwrap();
        assert!(all_draws.error.abs() < 1e-12);
        let ahead = Estimate::of(60, 20, 20).unwrap();
        assert!((ahead.score - 0.7).abs() < 1e-12);
        let (points, _) = ahead.elo.unwrap();
        assert!((points - 147.2).abs() < 0.1, "{points}");
        assert_eq!(Estimate::of(5, 0, 0).unwrap().elo, None);
        assert_eq!(Estimate::of(0, 0, 0), None);
        assert!(
            ahead.describe().starts_with("score 70.0% ± "),
            "{}",
            ahead.describe()
        );
        assert!(ahead.describe().contains("Elo +147 ± "));
    }
}
