//! The review board's state: a reviewed game, every position of it, and the position being
//! looked at; moving through it as the replay does, and on to the next mistake.

use super::super::replay::{Step, key_step};
use kingme_shared::review::{GameReview, MoveClass, PlyReview};
use kingme_shared::{AnyGame, GameKind, Side};
use ratatui::crossterm::event::KeyCode;

/// Where a key asks the review board to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Go {
    /// As in the replay: forward, back, start, end.
    Step(Step),
    /// To the position before the next mistake or blunder (round to the first after the last).
    NextMistake,
}

/// Where a key asks the review board to go, `None` to leave it, `Some(None)` for a key that
/// does nothing: the replay's keys, and m for the next mistake. `kingme review` and the
/// review board inside the full-screen client read the same keys.
#[must_use]
pub fn go_of_key(code: KeyCode) -> Option<Option<Go>> {
    match code {
        KeyCode::Char('m') => Some(Some(Go::NextMistake)),
        code => key_step(code).map(|step| step.map(Go::Step)),
    }
}

/// A reviewed game and the position shown.
#[derive(Debug, Clone)]
pub struct ReviewBoard {
    /// The title: players, event and result.
    pub title: String,
    /// The review.
    pub review: GameReview,
    positions: Vec<AnyGame>,
    /// How many moves have been played in the position shown.
    at: usize,
    /// Drawn seen from the second side, as the game screen shows the person who played it.
    pub flipped: bool,
}

impl ReviewBoard {
    /// A board over `positions` (the start first, one after each move of the review).
    #[must_use]
    pub fn new(title: String, review: GameReview, positions: Vec<AnyGame>) -> ReviewBoard {
        debug_assert_eq!(positions.len(), review.plies.len() + 1);
        ReviewBoard {
            title,
            review,
            positions,
            at: 0,
            flipped: false,
        }
    }

    /// Moves the cursor.
    pub fn go(&mut self, go: Go) {
        let last = self.positions.len().saturating_sub(1);
        self.at = match go {
            Go::Step(Step::Forward) => (self.at + 1).min(last),
            Go::Step(Step::Back) => self.at.saturating_sub(1),
            Go::Step(Step::Start) => 0,
            Go::Step(Step::End) => last,
            Go::NextMistake => {
                let serious = |index: &usize| {
                    matches!(
                        self.review.plies[*index].class,
                        MoveClass::Mistake | MoveClass::Blunder
                    )
                };
                (self.at + 1..self.review.plies.len())
                    .find(serious)
                    .or_else(|| (0..self.review.plies.len()).find(serious))
                    .unwrap_or(self.at)
            }
        };
    }

    /// How many moves have been played in the position shown.
    #[must_use]
    pub fn at(&self) -> usize {
        self.at
    }

    /// The game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.review.kind
    }

    /// The position shown.
    #[must_use]
    pub fn position(&self) -> &AnyGame {
        &self.positions[self.at]
    }

    /// The move played from the position shown, reviewed (`None` at the end).
    #[must_use]
    pub fn next_ply(&self) -> Option<&PlyReview> {
        self.review.plies.get(self.at)
    }

    /// The squares of the move that led to the position shown.
    #[must_use]
    pub fn last_move(&self) -> Vec<u16> {
        let Some(last) = self.at.checked_sub(1) else {
            return Vec::new();
        };
        let before = &self.positions[last];
        before
            .parse_move(&self.review.plies[last].played)
            .map(|mv| before.move_effect(&mv).path)
            .unwrap_or_default()
    }

    /// Every position's evaluation from the first side's point of view, the start first.
    #[must_use]
    pub fn evals(&self) -> Vec<i32> {
        let mut evals: Vec<i32> = self
            .review
            .plies
            .iter()
            .map(|ply| ply.eval_before)
            .collect();
        evals.push(self.review.final_eval);
        evals
    }
}

/// The marks of one side's moves: inaccuracies, mistakes and blunders.
#[must_use]
pub fn counts(review: &GameReview, side: Side) -> [usize; 3] {
    let count = |class: MoveClass| {
        review
            .plies
            .iter()
            .filter(|ply| ply.mover == side && ply.class == class)
            .count()
    };
    [
        count(MoveClass::Inaccuracy),
        count(MoveClass::Mistake),
        count(MoveClass::Blunder),
    ]
}
