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

/// Checkers, re-spaced: `kingme ladder --game checkers --levels random,...,strong --games 64`
/// (every pair within four places below the expert) and the expert at its default 1 s against
/// its three nearest levels (`--time 1 --span 3 --games 24`); 1,864 games, errors near 55 to
/// 115. Nine levels cannot make steps of 200 ± 60 here: random to the expert spans some 2,200
/// points, so the steps are spread evenly at about 280; see docs/measurements/ladder.md.
const CHECKERS: [(Level, i32); 9] = [
    (Level::Random, 0),
    (Level::Beginner, 310),
    (Level::Easy, 600),
    (Level::Casual, 860),
    (Level::Intermediate, 1210),
    (Level::Club, 1450),
    (Level::Advanced, 1740),
    (Level::Strong, 1980),
    (Level::Expert, 2190),
];

/// Pente, the expert at its default 1 s: `kingme ladder --game pente` with 20 games a pair
/// between the other levels (the 0.2 s run's games between the levels that have not changed
/// since, replayed for the retuned `intermediate`, `advanced` and `strong`, the last at 6,000
/// nodes) and 16 of the expert against its four nearest levels, then every pair within four
/// places taken to 32 games (`--games 32 --time 1 --span 4`); 952 games, errors near 100 to
/// 145; see docs/measurements/ladder.md.
const PENTE: [(Level, i32); 9] = [
    (Level::Random, 0),
    (Level::Beginner, 420),
    (Level::Easy, 710),
    (Level::Casual, 920),
    (Level::Intermediate, 1190),
    (Level::Club, 1440),
    (Level::Advanced, 1700),
    (Level::Strong, 1820),
    (Level::Expert, 2030),
];

/// Noughts and crosses, `kingme ladder --game tictactoe --games 24 --time 0.05` (864 games,
/// errors near 50; see docs/measurements/ladder.md). Flat above `casual`: from one cold ply up nearly every game
/// between two levels is drawn, so the game cannot hold a ladder of 200-point steps.
const TICTACTOE: [(Level, i32); 9] = [
    (Level::Random, 0),
    (Level::Beginner, 130),
    (Level::Easy, 240),
    (Level::Casual, 460),
    (Level::Intermediate, 430),
    (Level::Club, 520),
    (Level::Advanced, 510),
    (Level::Strong, 530),
    (Level::Expert, 510),
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
