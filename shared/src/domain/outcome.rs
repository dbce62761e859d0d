//! How a game stands and how it ended: `GameStatus`, `GameResult`, `EndReason`, and whether
//! an ended game counts for ratings.

use crate::game::{DrawReason, Outcome, Side, WinReason};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended: by the rules, or by the judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// A win by the rules.
    Win(WinReason),
    /// A draw by the rules.
    Draw(DrawReason),
    /// The loser resigned.
    Resignation,
    /// Both players agreed to a draw.
    DrawAgreed,
    /// The loser's clock ran out.
    TimeForfeit,
    /// A player left or stayed away longer than the grace period.
    Abandoned,
    /// The server shut down or the game was cancelled before it finished.
    Aborted,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Win(reason) => reason.fmt(f),
            EndReason::Draw(reason) => reason.fmt(f),
            EndReason::Resignation => f.write_str("resignation"),
            EndReason::DrawAgreed => f.write_str("draw agreed"),
            EndReason::TimeForfeit => f.write_str("time forfeit"),
            EndReason::Abandoned => f.write_str("abandoned"),
            EndReason::Aborted => f.write_str("aborted"),
        }
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// `None` for a draw (or an aborted game).
    pub winner: Option<Side>,
    /// How it ended.
    pub reason: EndReason,
}

impl From<Outcome> for GameResult {
    /// The result of a game the rules ended.
    fn from(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Win { winner, reason } => GameResult {
                winner: Some(winner),
                reason: EndReason::Win(reason),
            },
            Outcome::Draw { reason } => GameResult {
                winner: None,
                reason: EndReason::Draw(reason),
            },
        }
    }
}

/// The moves a rated game needs before its end counts for ratings: one by each side.
pub const PLIES_TO_RATE: usize = 2;

impl GameResult {
    /// Whether a rated game that ended so, after `plies` moves, moves its players' ratings. An
    /// aborted game never does, nor one that ends before both sides have moved (a resignation or
    /// a player leaving at once says nothing of their strength: lichess aborts such games too).
    #[must_use]
    pub fn counts_for_rating(&self, plies: usize) -> bool {
        self.reason != EndReason::Aborted && plies >= PLIES_TO_RATE
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameStatus {
    /// Waiting for a seat to be filled.
    Open,
    /// Being played.
    Playing,
    /// Over, with its result.
    Over(GameResult),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rules_outcome_becomes_the_result_with_its_winner_and_reason() {
        let won = Outcome::Win {
            winner: Side::Second,
            reason: WinReason::FiveInARow,
        };
        assert_eq!(
            GameResult::from(won),
            GameResult {
                winner: Some(Side::Second),
                reason: EndReason::Win(WinReason::FiveInARow),
            }
        );
        let drawn = Outcome::Draw {
            reason: DrawReason::Repetition,
        };
        assert_eq!(
            GameResult::from(drawn),
            GameResult {
                winner: None,
                reason: EndReason::Draw(DrawReason::Repetition),
            }
        );
    }

    #[test]
    fn a_game_counts_for_rating_once_both_sides_moved_unless_aborted() {
        let resigned = GameResult {
            winner: Some(Side::First),
            reason: EndReason::Resignation,
        };
        assert!(!resigned.counts_for_rating(0));
        assert!(!resigned.counts_for_rating(1));
        assert!(resigned.counts_for_rating(2));
        let aborted = GameResult {
            winner: None,
            reason: EndReason::Aborted,
        };
        assert!(!aborted.counts_for_rating(40));
    }
}
