//! The difficulty levels, shared by all games, and their names on command lines and the wire.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How strongly a bot plays, weakest to strongest as [`Level::ALL`] lists them (the declaration
/// order is the wire order: the four levels added for the rating ladder come last so that the
/// first five keep their numbers). What each level does differs by game ([`super::strength`]):
/// the fixed-depth levels search a few plies and some choose among near-best moves with a
/// temperature; the deepening levels (`Strong` in every game, and in checkers `Intermediate` up)
/// search as the expert does under a node budget, and `Expert` under a time budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// A shallow look with a high temperature (Pente: the priority board).
    Beginner,
    /// Above `Casual`: a deeper fixed depth (checkers: the expert's search, a small node budget).
    Intermediate,
    /// Above `Club`: a deeper fixed depth (checkers: a larger node budget).
    Advanced,
    /// Iterative-deepening alpha-beta under a time budget.
    Expert,
    /// A shallow look with a temperature.
    Easy,
    /// A little deeper or a lower temperature than `Easy`.
    Casual,
    /// Between `Intermediate` and `Advanced`.
    Club,
    /// The expert's search under a budget of nodes a move.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 9] = [
        Level::Random,
        Level::Beginner,
        Level::Easy,
        Level::Casual,
        Level::Intermediate,
        Level::Club,
        Level::Advanced,
        Level::Strong,
        Level::Expert,
    ];

    /// The place in [`Level::ALL`]: 0 for `random`, rising with strength.
    #[must_use]
    pub fn rank(self) -> usize {
        Level::ALL
            .iter()
            .position(|&level| level == self)
            .unwrap_or(0)
    }

    /// The level's name on command lines and in messages.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
            Level::Expert => "expert",
            Level::Easy => "easy",
            Level::Casual => "casual",
            Level::Club => "club",
            Level::Strong => "strong",
        }
    }
}

impl PartialOrd for Level {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Levels compare by strength, as [`Level::ALL`] orders them.
impl Ord for Level {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected a level: random, beginner, easy, casual, intermediate, club, advanced, strong or \
     expert, got {0:?}"
)]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|level| level.name() == wanted)
            .ok_or_else(|| UnknownLevel(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_explained() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert_eq!("EXPERT".parse::<Level>(), Ok(Level::Expert));
        assert!(Level::ALL.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(Level::Random.rank(), 0);
        let err = "grandmaster".parse::<Level>().expect_err("unknown");
        assert!(err.to_string().contains("expected a level"), "{err}");
    }
}
