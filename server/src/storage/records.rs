//! What the store keeps, as plain values: a new game, a seat's occupant, an accepted move, and a
//! stored game read back. Also the stable text codes these are stored under, so that every
//! [`super::Store`] implementation writes the same values.

use kingme_shared::ai::Level;
use kingme_shared::domain::{GameId, GameResult, TimeControl};
use kingme_shared::record::{GameRecord, RecordResult, utc_date};
use kingme_shared::{GameSpec, Side};

/// Who holds a seat, as the store sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Participant {
    /// Nobody yet.
    Empty,
    /// A person with a stored identity: rated games count for them.
    Person(String),
    /// A person without a stored identity: never rated.
    Guest(String),
    /// A built-in bot; each level has its own rating.
    Bot(Level),
}

impl Participant {
    /// The stored code: `person:NAME`, `guest:NAME`, `bot:LEVEL`, or `None` for an empty seat.
    #[must_use]
    pub fn code(&self) -> Option<String> {
        match self {
            Participant::Empty => None,
            Participant::Person(name) => Some(format!("person:{name}")),
            Participant::Guest(name) => Some(format!("guest:{name}")),
            Participant::Bot(level) => Some(format!("bot:{level}")),
        }
    }

    /// Reads a stored code back.
    pub fn from_code(code: Option<&str>) -> Result<Participant, BadCode> {
        let Some(code) = code else {
            return Ok(Participant::Empty);
        };
        match code.split_once(':') {
            Some(("person", name)) => Ok(Participant::Person(name.to_owned())),
            Some(("guest", name)) => Ok(Participant::Guest(name.to_owned())),
            Some(("bot", level)) => level
                .parse()
                .map(Participant::Bot)
                .map_err(|_| BadCode::new("a bot level", level)),
            _ => Err(BadCode::new(
                "a seat like person:NAME, guest:NAME or bot:LEVEL",
                code,
            )),
        }
    }

    /// The name shown to people: `alice`, `bob (guest)`, `advanced (bot)`, `?` for nobody.
    #[must_use]
    pub fn display_name(&self) -> String {
        match self {
            Participant::Empty => "?".to_owned(),
            Participant::Person(name) => name.clone(),
            Participant::Guest(name) => format!("{name} (guest)"),
            Participant::Bot(level) => format!("{level} (bot)"),
        }
    }
}

/// A game as it is created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// Its id, reserved from the database.
    pub id: GameId,
    /// The game and its rule variant.
    pub spec: GameSpec,
    /// The clock.
    pub time_control: TimeControl,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The setup position's text, `None` for the standard start.
    pub start_position: Option<String>,
    /// Who sits in each seat, the first side's first.
    pub seats: [Participant; 2],
    /// Milliseconds since the Unix epoch.
    pub created_at_ms: i64,
}

/// A move the judge accepted, with both clocks as they stood right after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMove {
    /// 1 for the first move of the game.
    pub ply: u32,
    /// The move in the game's standard notation.
    pub text: String,
    /// Milliseconds left on each side's clock after the move, `None` without clocks.
    pub clocks_ms: [Option<u64>; 2],
    /// Milliseconds since the Unix epoch.
    pub played_at_ms: i64,
}

/// A game just finished, as stored: what rating it needs (its seats, kind and whether it was
/// rated, in `game`) and how many moves were stored, read by the statement that finished it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    pub game: NewGame,
    pub plies: usize,
}

/// A stored game read back: everything needed to rebuild it or export it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    pub game: NewGame,
    pub moves: Vec<StoredMove>,
    pub result: Option<GameResult>,
    pub finished_at_ms: Option<i64>,
}

impl StoredGame {
    /// The game as a record, for export and replay. The date is the day it was created (UTC).
    #[must_use]
    pub fn to_record(&self) -> GameRecord {
        let mut record = GameRecord::new(self.game.spec);
        record.event = format!("kingme game {}", self.game.id);
        record.date = utc_date(self.game.created_at_ms);
        record.players = [
            self.game.seats[0].display_name(),
            self.game.seats[1].display_name(),
        ];
        record.start_position = self.game.start_position.clone();
        record.moves = self.moves.iter().map(|mv| mv.text.clone()).collect();
        record.result = self.result.map(RecordResult::from);
        record
    }

    /// The side that played a stored move.
    #[must_use]
    pub fn seat(&self, side: Side) -> &Participant {
        &self.game.seats[side.index()]
    }
}

/// The wall-clock time in milliseconds since the Unix epoch, as stored.
#[must_use]
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

/// The stored code of a time control: `unlimited`, `fischer:300+5`, `per-move:10`.
#[must_use]
pub fn time_control_code(time_control: TimeControl) -> String {
    match time_control {
        TimeControl::Unlimited => "unlimited".to_owned(),
        TimeControl::Incremental {
            initial_secs,
            increment_secs,
        } => format!("fischer:{initial_secs}+{increment_secs}"),
        TimeControl::PerMove { secs } => format!("per-move:{secs}"),
    }
}

/// A stored code this build does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, got {found:?}")]
pub struct BadCode {
    pub expected: &'static str,
    pub found: String,
}

impl BadCode {
    /// `found` where `expected` was due.
    #[must_use]
    pub fn new(expected: &'static str, found: &str) -> BadCode {
        BadCode {
            expected,
            found: found.to_owned(),
        }
    }
}

/// Reads a time control's stored code.
pub fn parse_time_control_code(code: &str) -> Result<TimeControl, BadCode> {
    let bad = || BadCode::new("unlimited, fischer:SECS+SECS or per-move:SECS", code);
    let number = |text: &str| text.parse::<u32>().map_err(|_| bad());
    match code.split_once(':') {
        None if code == "unlimited" => Ok(TimeControl::Unlimited),
        Some(("fischer", rest)) => {
            let (initial, increment) = rest.split_once('+').ok_or_else(bad)?;
            Ok(TimeControl::Incremental {
                initial_secs: number(initial)?,
                increment_secs: number(increment)?,
            })
        }
        Some(("per-move", secs)) => Ok(TimeControl::PerMove {
            secs: number(secs)?,
        }),
        _ => Err(bad()),
    }
}

/// The stored code of a winner: `first`, `second`, or `None` for a draw.
#[must_use]
pub fn side_code(side: Option<Side>) -> Option<&'static str> {
    side.map(|side| match side {
        Side::First => "first",
        Side::Second => "second",
    })
}

/// Reads a winner's stored code back.
pub fn side_from_code(code: Option<&str>) -> Result<Option<Side>, BadCode> {
    match code {
        None => Ok(None),
        Some("first") => Ok(Some(Side::First)),
        Some("second") => Ok(Some(Side::Second)),
        Some(other) => Err(BadCode::new("a winner first or second", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back() {
        for seat in [
            Participant::Empty,
            Participant::Person("alice".into()),
            Participant::Guest("bob:2".into()),
            Participant::Bot(Level::Advanced),
        ] {
            assert_eq!(Participant::from_code(seat.code().as_deref()), Ok(seat));
        }
        assert!(Participant::from_code(Some("alien:x")).is_err());
        for time_control in [
            TimeControl::Unlimited,
            TimeControl::Incremental {
                initial_secs: 300,
                increment_secs: 5,
            },
            TimeControl::PerMove { secs: 10 },
        ] {
            let code = time_control_code(time_control);
            assert_eq!(parse_time_control_code(&code), Ok(time_control));
        }
        assert!(parse_time_control_code("fischer:3").is_err());
    }
}
