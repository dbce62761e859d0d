//! The marks: how much evaluation a move may give away before it is an inaccuracy, a mistake or
//! a blunder, on each game's own evaluation scale, and the rule that a move that turns a won or
//! drawn game into a lost one (a forced win seen by the search, or the endgame database's
//! verdict) is a blunder whatever the numbers say.

use super::MoveClass;
use crate::GameKind;
use crate::ai::score::MATE_BOUND;

/// The evaluation a move may give away, from its mover's point of view, before it earns each
/// mark, in the game's evaluation units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    /// From this much: an inaccuracy.
    pub inaccuracy: i32,
    /// From this much: a mistake.
    pub mistake: i32,
    /// From this much: a blunder.
    pub blunder: i32,
    /// Evaluations beyond this, either way, are decided games (a forced win or loss, or the
    /// endgame database's win), not estimates.
    pub decided: i32,
}

impl Thresholds {
    /// The thresholds of a game.
    ///
    /// Checkers counts a man as 100 (a king 140): a third of a man is an inaccuracy, two
    /// thirds a mistake, a man a blunder; a database win scores 8000 and more, so anything
    /// beyond 4000 is decided. Pente's evaluation counts five-point windows (three stones in
    /// one: 60, four: 500) and captured pairs (the first 40, the second 70 more): a three's
    /// window is an inaccuracy, a capture and more a mistake, most of a four a blunder; only a
    /// forced win is decided. Noughts and crosses is solved exactly: every score is a win, a
    /// loss or a draw, so only a change of result earns a mark.
    #[must_use]
    pub const fn of(kind: GameKind) -> Thresholds {
        match kind {
            GameKind::Checkers => Thresholds {
                inaccuracy: 35,
                mistake: 70,
                blunder: 100,
                decided: 4_000,
            },
            GameKind::Pente => Thresholds {
                inaccuracy: 60,
                mistake: 150,
                blunder: 400,
                decided: MATE_BOUND,
            },
            GameKind::TicTacToe => Thresholds {
                inaccuracy: MATE_BOUND,
                mistake: MATE_BOUND,
                blunder: MATE_BOUND,
                decided: MATE_BOUND,
            },
        }
    }

    /// Whether an evaluation (from anyone's point of view) is a decided game rather than an
    /// estimate.
    #[must_use]
    pub const fn is_decided(&self, eval: i32) -> bool {
        eval.abs() > self.decided
    }

    /// The mark of a move that gave away `loss` from its mover's point of view and took the
    /// mover's standing from `before` to `after`.
    #[must_use]
    pub fn classify(&self, loss: i32, before: Standing, after: Standing) -> MoveClass {
        if after < before || loss >= self.blunder {
            MoveClass::Blunder
        } else if loss >= self.mistake {
            MoveClass::Mistake
        } else if loss >= self.inaccuracy {
            MoveClass::Inaccuracy
        } else {
            MoveClass::Good
        }
    }

    /// Where an evaluation for the mover stands: won, lost, or neither.
    #[must_use]
    pub const fn standing(&self, eval: i32) -> Standing {
        if eval > self.decided {
            Standing::Won
        } else if eval < -self.decided {
            Standing::Lost
        } else {
            Standing::Open
        }
    }
}

/// A position's result for one side, as far as it is known: ordered from worst to best, so a
/// move that lowers it threw something away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// A forced loss.
    Lost,
    /// Neither side has a forced win (a draw, or a game still to be decided).
    Open,
    /// A forced win.
    Won,
}

impl MoveClass {
    /// The mark written after the move: `""`, `?!`, `?` or `??`.
    #[must_use]
    pub const fn mark(self) -> &'static str {
        match self {
            MoveClass::Good => "",
            MoveClass::Inaccuracy => "?!",
            MoveClass::Mistake => "?",
            MoveClass::Blunder => "??",
        }
    }

    /// Its name in words, for lists and counts.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_earn_marks_by_the_games_scale_and_a_lost_result_is_a_blunder() {
        let checkers = Thresholds::of(GameKind::Checkers);
        let open = Standing::Open;
        assert_eq!(checkers.classify(0, open, open), MoveClass::Good);
        assert_eq!(checkers.classify(34, open, open), MoveClass::Good);
        assert_eq!(checkers.classify(35, open, open), MoveClass::Inaccuracy);
        assert_eq!(checkers.classify(70, open, open), MoveClass::Mistake);
        assert_eq!(checkers.classify(100, open, open), MoveClass::Blunder);
        // A small loss that throws away a win, or a draw, is still a blunder.
        assert_eq!(
            checkers.classify(1, Standing::Won, open),
            MoveClass::Blunder
        );
        assert_eq!(
            checkers.classify(1, open, Standing::Lost),
            MoveClass::Blunder
        );
        assert_eq!(checkers.standing(8_050), Standing::Won);
        assert_eq!(checkers.standing(-7_900), Standing::Lost);
        assert_eq!(checkers.standing(300), Standing::Open);
        // Noughts and crosses: a slower win is no mark.
        let tictactoe = Thresholds::of(GameKind::TicTacToe);
        let won = Standing::Won;
        assert_eq!(tictactoe.classify(2, won, won), MoveClass::Good);
        assert_eq!(MoveClass::Blunder.mark(), "??");
        assert_eq!(MoveClass::Inaccuracy.mark(), "?!");
    }
}
