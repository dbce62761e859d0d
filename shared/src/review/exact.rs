//! Exact results: the checkers endgame database's verdict on a position within its pieces, and
//! the standing it gives the side to move, which outranks the search's estimate.

use super::Exact;
use super::class::Standing;
use crate::AnyGame;
use crate::ai::egdb::{Egdb, Verdict};

/// The database's result for the side to move, where the position is a checkers position
/// within the database's pieces.
#[must_use]
pub fn exact_result(game: &AnyGame, egdb: Option<&Egdb>) -> Option<Exact> {
    let (AnyGame::Checkers(checkers), Some(db)) = (game, egdb) else {
        return None;
    };
    Some(match db.verdict(checkers.position())? {
        Verdict::Win => Exact::Win,
        Verdict::Loss => Exact::Loss,
        Verdict::Draw => Exact::Draw,
    })
}

impl Exact {
    /// The same result seen by the other side.
    #[must_use]
    pub const fn flipped(self) -> Exact {
        match self {
            Exact::Win => Exact::Loss,
            Exact::Loss => Exact::Win,
            Exact::Draw => Exact::Draw,
        }
    }

    /// The standing it gives (a database draw is as open as a game can be: nobody can force
    /// a win).
    #[must_use]
    pub const fn standing(self) -> Standing {
        match self {
            Exact::Win => Standing::Won,
            Exact::Loss => Standing::Lost,
            Exact::Draw => Standing::Open,
        }
    }

    /// Its name in words.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Exact::Win => "win",
            Exact::Loss => "loss",
            Exact::Draw => "draw",
        }
    }
}
