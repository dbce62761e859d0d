//! The levels' measured ratings (fitted by `kingme ladder` over round-robin tournaments, random
//! anchored at 0; docs/measurements/ladder.md records the commands and the tables) and the level nearest to a
//! rating, so that a person can ask for an opponent by strength. The results files the tables
//! were fitted from are `shared/data/ladder/ladder-<game>.tsv`; a test of the ladder tool
//! (`kingme`'s `tools::ladder`) refits them and checks these tables against the fit.

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

/// Checkers, twelve levels: `kingme ladder --game checkers --levels random,...,master --games 32
/// --span 4` (every pair within four places below the expert) and the expert at its default
/// 1 s against its three nearest levels (16 games against `advanced` and `strong`, 32 against
/// `master`); spaced a third time on 2026-12-01 (`casual` and `intermediate` colder, `skilled`
/// to `master` larger budgets); 1,152 games, errors near 60 to 140; every step from random to
/// the expert within 200 ± 60 in this fit (154 to 256; more games a pair widen it: see
/// docs/measurements/ladder.md).
const CHECKERS: [(Level, i32); 12] = [
    (Level::Random, 0),
    (Level::Beginner, 240),
    (Level::Novice, 450),
    (Level::Easy, 650),
    (Level::Casual, 890),
    (Level::Intermediate, 1150),
    (Level::Skilled, 1380),
    (Level::Club, 1600),
    (Level::Advanced, 1840),
    (Level::Strong, 2080),
    (Level::Master, 2290),
    (Level::Expert, 2450),
];

/// Pente, twelve levels: `kingme ladder --game pente --levels random,...,master --games 32
/// --span 4` (every pair within four places below the expert) and the expert at its default 1 s
/// against its three nearest levels (16 games against `advanced`, 32 against `strong` and
/// `master`); spaced again on 2026-12-01 (each level from `intermediate` to `strong` given the
/// plan of the level above it, with that plan's games; a new `casual` and `master`); 1,216
/// games, errors near 110 to 150; every step from `beginner` to the expert within 200 ± 60 (142
/// to 246), and random's step is not a measurement (random never scores); see
/// docs/measurements/ladder.md.
const PENTE: [(Level, i32); 12] = [
    (Level::Random, 0),
    (Level::Beginner, 510),
    (Level::Novice, 700),
    (Level::Easy, 860),
    (Level::Casual, 1080),
    (Level::Intermediate, 1270),
    (Level::Skilled, 1510),
    (Level::Club, 1660),
    (Level::Advanced, 1860),
    (Level::Strong, 2050),
    (Level::Master, 2200),
    (Level::Expert, 2370),
];

/// Noughts and crosses, `kingme ladder --game tictactoe --games 24 --time 0.05` (every pair of
/// the twelve levels, 1,584 games, errors near 42; see docs/measurements/ladder.md). Flat above
/// `casual`: from one cold ply up nearly every game between two levels is drawn, so the game
/// cannot hold a ladder of 200-point steps.
const TICTACTOE: [(Level, i32); 12] = [
    (Level::Random, 0),
    (Level::Beginner, 130),
    (Level::Novice, 190),
    (Level::Easy, 240),
    (Level::Casual, 460),
    (Level::Intermediate, 440),
    (Level::Skilled, 460),
    (Level::Club, 530),
    (Level::Advanced, 520),
    (Level::Strong, 530),
    (Level::Master, 550),
    (Level::Expert, 520),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_measured_level_is_its_own_nearest_or_ties_a_weaker_one() {
        for kind in GameKind::ALL {
            for level in Level::ALL {
                let Some(rating) = measured_rating(kind, level) else {
                    continue;
                };
                // This level, or an equally rated weaker one.
                let nearest = nearest_level(kind, rating);
                assert_eq!(
                    measured_rating(kind, nearest),
                    Some(rating),
                    "{kind} {level}"
                );
                assert!(nearest <= level, "{kind} {level}");
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
