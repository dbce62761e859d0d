//! The difficulty levels, shared by all games, and their names on command lines and the wire.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How strongly a bot plays. The first four are the classic levels; `Expert` searches under a time
/// budget with everything an engine is expected to have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// One move ahead: the move with the best evaluation.
    Beginner,
    /// Three plies of minimax.
    Intermediate,
    /// Five plies of minimax.
    Advanced,
    /// Iterative-deepening alpha-beta under a time budget.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Random,
        Level::Beginner,
        Level::Intermediate,
        Level::Advanced,
        Level::Expert,
    ];

    /// The level's name on command lines and in messages.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a level: random, beginner, intermediate, advanced or expert, got {0:?}")]
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
        let err = "grandmaster".parse::<Level>().expect_err("unknown");
        assert!(err.to_string().contains("expected a level"), "{err}");
    }
}
