//! How a game stands and how it ended: `GameStatus`, `GameResult`, `EndReason`.

use crate::game::{DrawReason, Side, WinReason};
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
