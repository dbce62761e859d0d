//! The difficulty levels, shared by all games, and their names on command lines and the wire.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How strongly a bot plays, weakest to strongest as [`Level::ALL`] lists them (the declaration
/// order is the wire order: the levels added later come last so that the older ones keep their
/// numbers; the four of the first rating ladder, then the three of protocol version 9, which
/// [`Level::OLDER_CLIENTS`] leaves out). What each level does differs by game
/// ([`super::strength`]): the fixed-depth levels search a few plies and some choose among
/// near-best moves with a temperature; the deepening levels (`Master` in every game, in
/// checkers `Skilled` up, in noughts and crosses `Strong` up) search as the expert does under a
/// node budget, and `Expert` under a time budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// A shallow look with a high temperature (Pente: the priority board).
    Beginner,
    /// Above `Casual`: a deeper fixed depth.
    Intermediate,
    /// Above `Club`: a deeper fixed depth (checkers: the expert's search, a node budget).
    Advanced,
    /// Iterative-deepening alpha-beta under a time budget.
    Expert,
    /// A shallow look with a temperature.
    Easy,
    /// A little deeper or a lower temperature than `Easy`.
    Casual,
    /// Between `Skilled` and `Advanced`.
    Club,
    /// Between `Advanced` and `Master` (checkers and noughts and crosses: the expert's search
    /// under a budget of nodes a move; Pente: six plies).
    Strong,
    /// Between `Beginner` and `Easy` (protocol version 9).
    Novice,
    /// Between `Intermediate` and `Club` (protocol version 9).
    Skilled,
    /// Between `Strong` and the expert: the expert's search under a larger node budget (protocol
    /// version 9).
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 12] = [
        Level::Random,
        Level::Beginner,
        Level::Novice,
        Level::Easy,
        Level::Casual,
        Level::Intermediate,
        Level::Skilled,
        Level::Club,
        Level::Advanced,
        Level::Strong,
        Level::Master,
        Level::Expert,
    ];

    /// The levels a client of protocol version 8 or older knows, weakest first: those declared
    /// before `Novice`.
    pub const OLDER_CLIENTS: [Level; 9] = [
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

    /// This level as a client that knows only [`Level::OLDER_CLIENTS`] can decode it: itself
    /// if it is one of them, else the nearest of them below it (`Novice` is shown as
    /// `Beginner`, `Skilled` as `Intermediate`, `Master` as `Strong`).
    #[must_use]
    pub fn for_older_clients(self) -> Level {
        Level::OLDER_CLIENTS
            .into_iter()
            .rev()
            .find(|&old| old <= self)
            .unwrap_or(Level::Random)
    }

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
            Level::Novice => "novice",
            Level::Skilled => "skilled",
            Level::Master => "master",
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
    "expected a level: random, beginner, novice, easy, casual, intermediate, skilled, club, \
     advanced, strong, master or expert, got {0:?}"
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
        for level in Level::ALL {
            assert!(
                err.to_string().contains(level.name()),
                "{level} unnamed: {err}"
            );
        }
    }

    #[test]
    fn older_clients_get_their_own_levels_or_the_nearest_below() {
        // The older levels are exactly those declared before the first of version 9, so their
        // wire numbers are the ones an older client decodes.
        let declared: Vec<u32> = Level::OLDER_CLIENTS
            .iter()
            .map(|&level| level as u32)
            .collect();
        assert_eq!(declared, [0, 1, 5, 6, 2, 7, 3, 8, 4]);
        assert!(
            Level::OLDER_CLIENTS
                .windows(2)
                .all(|pair| pair[0] < pair[1])
        );
        for level in Level::ALL {
            let old = level.for_older_clients();
            assert!(Level::OLDER_CLIENTS.contains(&old), "{level} -> {old}");
            assert!(old <= level, "{level} -> {old}");
            // No older level lies between the two.
            assert!(
                Level::OLDER_CLIENTS
                    .iter()
                    .all(|&other| other <= old || other > level),
                "{level} -> {old}"
            );
        }
        assert_eq!(Level::Novice.for_older_clients(), Level::Beginner);
        assert_eq!(Level::Skilled.for_older_clients(), Level::Intermediate);
        assert_eq!(Level::Master.for_older_clients(), Level::Strong);
        assert_eq!(Level::Club.for_older_clients(), Level::Club);
    }
}
