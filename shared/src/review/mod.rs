//! The review board's analysis: a finished (or running) game looked at move by move with the
//! engine's eye, as lichess does for chess. For every position of the game the engine searches
//! within a bound ([`ReviewBound`]); the move played is compared with the best move found, and
//! marked by the evaluation it gave away ([`MoveClass`]). Where the checkers endgame database
//! knows a position its exact result is given ([`Exact`]); in Pente the threat search's forced
//! wins that were not played are named ([`PlyReview::missed_win`]).
//!
//! It is pure computation on the AI and the rules, CPU-heavy: callers run it off any async
//! reactor (the client on a thread with a progress bar, the server on its blocking pool for the
//! protocol's `Analyse`), with the [`StopFlag`] in the bound to abandon it.

mod analyse;
mod class;
mod exact;
mod missed;

pub use analyse::review_game;
pub use class::{Standing, Thresholds};
pub use exact::exact_result;
pub use missed::forced_win;

use crate::GameKind;
use crate::ai::StopFlag;
use crate::side::Side;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How hard the engine looks at each position.
#[derive(Debug, Clone)]
pub struct ReviewBound {
    /// The deepest search per position, in plies (`None`: the time alone bounds it).
    pub depth: Option<u32>,
    /// The time per position (`None`: the depth alone bounds it).
    pub time_per_position: Option<Duration>,
    /// Raised by another thread to abandon the review.
    pub stop: StopFlag,
}

/// How a move compares with the engine's best, by the evaluation it gave away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveClass {
    /// The engine's own choice, or as good (within the game's small margin); also the only move.
    Good,
    /// Gave away a little.
    Inaccuracy,
    /// Gave away a lot.
    Mistake,
    /// Threw the game away: from won or drawn to lost, or a large loss of material or position.
    Blunder,
}

/// An exact result from the checkers endgame database, for the side to move in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Exact {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
}

/// One move of the game, reviewed: the position before it, what was played and what the
/// engine preferred.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyReview {
    /// The side that played it.
    pub mover: Side,
    /// The move played, in the game's notation.
    pub played: String,
    /// The engine's best move in the position before it, in the game's notation.
    pub best: String,
    /// The squares of the best move (from, through, to), to draw it on the board.
    pub best_squares: Vec<u16>,
    /// The evaluation of the position before the move, from the first side's point of view
    /// (positive: the first side is better; near [`crate::ai::MATE`]: a forced win).
    pub eval_before: i32,
    /// The evaluation after the move played, from the first side's point of view.
    pub eval_after: i32,
    /// How much the move gave away, from the mover's point of view (0 for the best move).
    pub loss: i32,
    /// The mark the loss earns.
    pub class: MoveClass,
    /// The endgame database's result of the position before the move, where it knows it.
    pub exact: Option<Exact>,
    /// Pente: a forced win the threat search found in the position before the move, when the
    /// move played was not it (its first move).
    pub missed_win: Option<String>,
}

/// The whole game, reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameReview {
    /// The game.
    pub kind: GameKind,
    /// One entry per move played, in order.
    pub plies: Vec<PlyReview>,
    /// The evaluation of the final position, from the first side's point of view.
    pub final_eval: i32,
}

/// Why a review could not be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReviewError {
    /// A move of the record is not legal where it stands.
    #[error("move {number} ({text}) cannot be replayed: {reason}")]
    Replay {
        /// Its number, from 1.
        number: usize,
        /// Its text.
        text: String,
        /// What the rules said.
        reason: String,
    },
    /// The stop flag was raised.
    #[error("the review was stopped")]
    Stopped,
}

#[cfg(test)]
mod tests;
