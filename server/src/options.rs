//! Checks a client's `GameOptions` and turns them into a `GameSetup` the judge can start from:
//! the start position read and checked, the time control within bounds. Every refusal says what
//! was wrong and what would do.

use kingme_shared::protocol::{GameOptions, MAX_POSITION_TEXT, TimeControl};
use kingme_shared::{AnyGame, GameSpec, StartError};

/// The longest time control accepted: a day.
pub const MAX_CLOCK_SECS: u32 = 86_400;
/// The largest increment accepted: an hour.
pub const MAX_INCREMENT_SECS: u32 = 3_600;

/// A checked game setup: what a table needs to play.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSetup {
    /// The game and its rule variant.
    pub spec: GameSpec,
    /// The position the game starts from.
    pub start: AnyGame,
    /// The clock.
    pub time_control: TimeControl,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
}

/// Why options were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// The start position's text is longer than any position.
    #[error("the start position is {length} bytes long; at most {MAX_POSITION_TEXT} are accepted")]
    PositionTooLong {
        /// Its length in bytes.
        length: usize,
    },
    /// The start position's text is not a position of the game.
    #[error("the start position is {0}")]
    Position(StartError),
    /// No side can move in the start position.
    #[error("the game is already over in the start position; give one where a side can move")]
    AlreadyOver,
    /// A time of the clock is outside what a game may have.
    #[error("{what} of {secs} s is out of range: use {min} to {max} seconds")]
    TimeOutOfRange {
        /// Which time (the initial time, the increment, the time per move).
        what: &'static str,
        /// What was asked.
        secs: u32,
        /// The least allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
}

/// Checks `options` and reads the start position.
pub fn validate(options: &GameOptions) -> Result<GameSetup, OptionsError> {
    check_time(options.time_control)?;
    // The limit holds for the bytes received, before any trimming.
    if let Some(text) = &options.start_position
        && text.len() > MAX_POSITION_TEXT
    {
        return Err(OptionsError::PositionTooLong { length: text.len() });
    }
    let start = options
        .spec
        .start(options.start_position.as_deref())
        .map_err(OptionsError::Position)?;
    if start.outcome().is_some() {
        return Err(OptionsError::AlreadyOver);
    }
    Ok(GameSetup {
        spec: options.spec,
        start,
        time_control: options.time_control,
        rated: options.rated,
    })
}

fn check_time(control: TimeControl) -> Result<(), OptionsError> {
    let within = |what, secs, min, max| {
        if (min..=max).contains(&secs) {
            Ok(())
        } else {
            Err(OptionsError::TimeOutOfRange {
                what,
                secs,
                min,
                max,
            })
        }
    };
    match control {
        TimeControl::Unlimited => Ok(()),
        TimeControl::Incremental {
            initial_secs,
            increment_secs,
        } => {
            within("an initial time", initial_secs, 1, MAX_CLOCK_SECS)?;
            within("an increment", increment_secs, 0, MAX_INCREMENT_SECS)
        }
        TimeControl::PerMove { secs } => within("a time per move", secs, 1, MAX_CLOCK_SECS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::protocol::{Opponent, SeatChoice};
    use kingme_shared::{GameKind, Side};

    fn options(kind: GameKind, time_control: TimeControl, start: Option<&str>) -> GameOptions {
        GameOptions {
            spec: kind.into(),
            seat: SeatChoice::Side(Side::First),
            opponent: Opponent::OpenSeat,
            time_control,
            start_position: start.map(str::to_owned),
            rated: false,
        }
    }

    /// Validates and returns the start position's text, or the error's text.
    fn check(kind: GameKind, time_control: TimeControl, start: Option<&str>) -> String {
        match validate(&options(kind, time_control, start)) {
            Ok(setup) => setup.start.position_text(),
            Err(err) => format!("error: {err}"),
        }
    }

    const NONE: TimeControl = TimeControl::Unlimited;

    #[test]
    fn start_positions_are_read_in_each_game_s_notation() {
        assert_eq!(check(GameKind::TicTacToe, NONE, None), "---------");
        assert_eq!(
            check(GameKind::TicTacToe, NONE, Some("XO--X----")),
            "XO--X----"
        );
        assert_eq!(
            check(GameKind::Checkers, NONE, Some("W:WK32:BK1")),
            AnyGame::from_position_text(GameKind::Checkers, "W:WK32:BK1")
                .map(|game| game.position_text())
                .unwrap_or_default()
        );
        let board_file = "1111\n1111\n1111\n0000\n0000\n2222\n2222\n2222\n1\n";
        assert_eq!(
            check(GameKind::Checkers, NONE, Some(board_file)),
            AnyGame::start(GameKind::Checkers).position_text()
        );
    }

    #[test]
    fn bad_options_are_refused_with_the_reason() {
        let cases = [
            (
                GameKind::TicTacToe,
                NONE,
                Some("XXX------"),
                "not a tictactoe position",
            ),
            (GameKind::TicTacToe, NONE, Some("XXXOO----"), "already over"),
            (GameKind::Checkers, NONE, Some("1111\n11x1\n"), "board file"),
            (
                GameKind::Checkers,
                NONE,
                Some("nonsense"),
                "not a checkers position",
            ),
            (
                GameKind::Checkers,
                TimeControl::PerMove { secs: 0 },
                None,
                "a time per move of 0 s is out of range: use 1 to 86400",
            ),
            (
                GameKind::Pente,
                TimeControl::Incremental {
                    initial_secs: 60,
                    increment_secs: 7200,
                },
                None,
                "an increment of 7200 s",
            ),
        ];
        for (kind, time, start, expected) in cases {
            let got = check(kind, time, start);
            assert!(
                got.starts_with("error:") && got.contains(expected),
                "{start:?}: {got}"
            );
        }
        let long = "-".repeat(MAX_POSITION_TEXT + 1);
        assert!(check(GameKind::Pente, NONE, Some(&long)).contains("at most 2048"));
        // A valid position padded with spaces is measured as received, not after trimming.
        let padded = format!("W:WK32:BK1{}", " ".repeat(4_000));
        let got = check(GameKind::Checkers, NONE, Some(&padded));
        assert!(got.contains("4010 bytes long; at most 2048"), "{got}");
    }
}
