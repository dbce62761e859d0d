//! Elo ratings, one per game kind for every person and for every bot level, so that a person can
//! see how strong `advanced` really is.
//!
//! Elo with K = 32 and a start of 1500: after a game, each side moves by
//! `K * (score - expected)`, where `score` is 1 for a win, 1/2 for a draw, 0 for a loss, and
//! `expected = 1 / (1 + 10^((opponent - own) / 400))`. Elo over Glicko-2 because it needs no rating
//! periods and every result can be applied the moment a game ends. Guests, empty seats and
//! aborted games are not rated. A bot level enters the pool at its measured rating.

use super::records::Participant;
use kingme_shared::GameKind;
use kingme_shared::ai::{Level, ladder};

/// How far one game can move a rating.
pub const K_FACTOR: f64 = 32.0;
/// Everyone's rating before their first rated game.
pub const INITIAL_RATING: f64 = 1500.0;

/// Who a rating belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rated {
    Person(String),
    Bot(Level),
}

impl Rated {
    /// The key its rating is stored under: whether it is a bot, and its name (a bot level's).
    #[must_use]
    pub fn key(&self) -> (bool, String) {
        match self {
            Rated::Person(name) => (false, name.clone()),
            Rated::Bot(level) => (true, level.name().to_owned()),
        }
    }

    /// The rated identity behind a seat: people with an identity and bots; guests and empty
    /// seats have none.
    #[must_use]
    pub fn of(participant: &Participant) -> Option<Rated> {
        match participant {
            Participant::Person(name) => Some(Rated::Person(name.clone())),
            Participant::Bot(level) => Some(Rated::Bot(*level)),
            Participant::Guest(_) | Participant::Empty => None,
        }
    }
}

/// A rating with the games behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: INITIAL_RATING,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        }
    }
}

impl Rating {
    /// A rating before its first rated game in `kind`: a person starts at [`INITIAL_RATING`], a
    /// bot level at its measured rating (`kingme ladder`, see `kingme_shared::ai::ladder`), so
    /// the pool does not take `expert` and `random` for equals.
    #[must_use]
    pub fn seed(kind: GameKind, who: &Rated) -> Rating {
        let measured = match who {
            Rated::Bot(level) => ladder::measured_rating(kind, *level),
            Rated::Person(_) => None,
        };
        Rating {
            rating: measured.map_or(INITIAL_RATING, f64::from),
            ..Rating::default()
        }
    }

    /// This rating after a game with `score` (1 win, 0.5 draw, 0 loss) against `opponent`.
    #[must_use]
    pub fn after(self, opponent: f64, score: f64) -> Rating {
        let expected = 1.0 / (1.0 + 10f64.powf((opponent - self.rating) / 400.0));
        let won = score > 0.75;
        let lost = score < 0.25;
        Rating {
            rating: self.rating + K_FACTOR * (score - expected),
            games: self.games + 1,
            wins: self.wins + u32::from(won),
            draws: self.draws + u32::from(!won && !lost),
            losses: self.losses + u32::from(lost),
        }
    }
}

/// How one side's rating moved in a game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    pub who: Rated,
    pub before: f64,
    pub after: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values worked out by hand from the formula in the module documentation.
    fn check(own: f64, opponent: f64, score: f64, expected: f64) {
        let start = Rating {
            rating: own,
            ..Rating::default()
        };
        let got = start.after(opponent, score).rating;
        assert!(
            (got - expected).abs() < 0.01,
            "{own} vs {opponent} scoring {score}: got {got}, expected {expected}"
        );
    }

    #[test]
    fn ratings_move_by_hand_computed_amounts() {
        // Equal ratings: expected 0.5, so a win is +16, a loss -16, a draw nothing.
        check(1500.0, 1500.0, 1.0, 1516.0);
        check(1500.0, 1500.0, 0.0, 1484.0);
        check(1500.0, 1500.0, 0.5, 1500.0);
        // 200 points apart: expected 1 / (1 + 10^0.5) = 0.240253 for the weaker side.
        // Weaker wins: 1400 + 32 * 0.759747 = 1424.31; stronger loses: 1600 - 24.31 = 1575.69.
        check(1400.0, 1600.0, 1.0, 1424.31);
        check(1600.0, 1400.0, 0.0, 1575.69);
        // Draw: 1400 + 32 * (0.5 - 0.240253) = 1408.31.
        check(1400.0, 1600.0, 0.5, 1408.31);
        // 400 apart: expected 1/11 = 0.090909; the favourite's win gains 32 * 0.090909 = 2.91.
        check(1900.0, 1500.0, 1.0, 1902.91);
    }

    #[test]
    fn counts_follow_the_score() {
        let rating = Rating::default()
            .after(1500.0, 1.0)
            .after(1500.0, 0.5)
            .after(1500.0, 0.0);
        assert_eq!(
            (rating.games, rating.wins, rating.draws, rating.losses),
            (3, 1, 1, 1)
        );
    }

    #[test]
    fn guests_and_empty_seats_have_no_rating() {
        assert_eq!(Rated::of(&Participant::Guest("g".into())), None);
        assert_eq!(Rated::of(&Participant::Empty), None);
        assert_eq!(
            Rated::of(&Participant::Bot(Level::Advanced)),
            Some(Rated::Bot(Level::Advanced))
        );
    }
}
