//! The levels' measured ratings (fitted by `kingme ladder` over round-robin tournaments, random
//! anchored at 0; the README records the commands and the tables) and the level nearest to a
//! rating, so that a person can ask for an opponent by strength.

use super::level::Level;
use crate::GameKind;

/// The measured rating of `level` in `kind`, rounded to 10 points; `None` where the ladder has
/// not placed it.
#[must_use]
pub fn measured_rating(kind: GameKind, level: Level) -> Option<i32> {
    let table = match kind {
        GameKind::Checkers => &CHECKERS,
        GameKind::Pente => &PENTE,
        GameKind::TicTacToe => &TICTACTOE,
    };
    table
        .iter()
        .find(|&&(rated, _)| rated == level)
        .map(|&(_, rating)| rating)
}

/// The level whose measured rating is nearest to `rating` (the weaker on a tie); levels without
/// a measured rating are passed over.
#[must_use]
pub fn nearest_level(kind: GameKind, rating: i32) -> Level {
    Level::ALL
        .into_iter()
        .filter_map(|level| measured_rating(kind, level).map(|own| (level, own)))
        .min_by_key(|&(level, own)| ((own - rating).unsigned_abs(), level.rank()))
        .map_or(Level::Random, |(level, _)| level)
}

/// Checkers, `kingme ladder --game checkers` (see the README).
const CHECKERS: [(Level, i32); 0] = [];

/// Pente, `kingme ladder --game pente` (see the README).
const PENTE: [(Level, i32); 0] = [];

/// Noughts and crosses, `kingme ladder --game tictactoe` (see the README).
const TICTACTOE: [(Level, i32); 0] = [];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_measured_level_is_its_own_nearest() {
        for kind in GameKind::ALL {
            for level in Level::ALL {
                let Some(rating) = measured_rating(kind, level) else {
                    continue;
                };
                assert_eq!(nearest_level(kind, rating), level, "{kind} {level}");
                // Halfway to the next measured rating above still picks this level or that one.
                let above = Level::ALL
                    .into_iter()
                    .filter_map(|other| measured_rating(kind, other))
                    .filter(|&other| other > rating)
                    .min();
                if let Some(above) = above {
                    let between = nearest_level(kind, (rating + above) / 2);
                    let got = measured_rating(kind, between);
                    assert!(got == Some(rating) || got == Some(above), "{kind} {level}");
                }
            }
            assert_eq!(measured_rating(kind, Level::Random).unwrap_or(0), 0);
            assert_eq!(nearest_level(kind, -500), Level::Random);
        }
    }
}
