//! The classic board file of the seed programs: a position a person can type in an editor.
//!
//! ```text
//! 1111    line 1: squares 1..4    (Black's back row, drawn at the top)
//! 1111    line 2: squares 5..8
//! 1111    line 3: squares 9..12
//! 0000    line 4: squares 13..16
//! 0000    line 5: squares 17..20
//! 2222    line 6: squares 21..24
//! 2222    line 7: squares 25..28
//! 2222    line 8: squares 29..32  (White's back row)
//! 1       line 9: the side to move, 1 for Black or 2 for White (B or W also read)
//! 5       line 10, optional: the AI's time limit in seconds (up to 3 decimals, at most 86400)
//! ```
//!
//! Each of the first eight lines holds one character per dark square of a row, left to right as
//! the board is drawn with Black at the top (so square 1 is the top left one):
//! `0` empty, `1` Black man, `2` White man, `3` Black king, `4` White king. Spaces and tabs
//! between the characters are ignored; trailing blank lines are allowed. Errors name the line
//! and column (counted in characters from 1) and what was expected there.

use super::position::{MAX_PIECES, Position, crowning_row, side_name};
use crate::game::Side;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The largest board file read; a real one is under 60 bytes.
pub const MAX_BOARD_FILE_LEN: usize = 4096;

/// The longest AI time limit a board file may ask for.
pub const MAX_TIME_LIMIT: Duration = Duration::from_secs(86_400);

const SQUARE_CHARACTERS: &str =
    "0 (empty), 1 (Black man), 2 (White man), 3 (Black king) or 4 (White king)";

/// A position read from a board file, with the AI time limit if the file gives one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardFile {
    /// The position, with the side to move.
    pub position: Position,
    /// The AI's time limit per move, if the file gives one.
    pub time_limit: Option<Duration>,
}

/// What is wrong with a board file, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board file line {line}, column {column}: {problem}")]
pub struct BoardFileError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong there.
    pub problem: String,
}

fn error(line: usize, column: usize, problem: impl Into<String>) -> BoardFileError {
    BoardFileError {
        line,
        column,
        problem: problem.into(),
    }
}

impl FromStr for BoardFile {
    type Err = BoardFileError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() > MAX_BOARD_FILE_LEN {
            return Err(error(
                1,
                1,
                format!(
                    "the file is {} bytes; a board file is at most {MAX_BOARD_FILE_LEN}",
                    text.len()
                ),
            ));
        }
        let mut lines = text.lines().map(|line| line.trim_end_matches('\r'));
        let mut pieces = [0u32; 2];
        let mut kings = 0u32;
        for row in 0..8 {
            let number = row + 1;
            let line = lines.next().ok_or_else(|| {
                error(
                    number,
                    1,
                    format!(
                        "line {number} is missing: a board file has 8 lines of 4 squares, then \
                         the side to move"
                    ),
                )
            })?;
            read_row(line, number, &mut pieces, &mut kings)?;
        }
        let side_line = lines.next().unwrap_or("");
        let side = read_side(side_line)?;
        let time_limit = match lines.next() {
            Some(line) if !line.trim().is_empty() => Some(read_time_limit(line)?),
            _ => None,
        };
        for (offset, line) in lines.enumerate() {
            if let Some(column) = first_non_blank(line) {
                return Err(error(
                    11 + offset,
                    column,
                    "unexpected text after the time limit; a board file ends there",
                ));
            }
        }
        let position = Position::from_parts(pieces[0], pieces[1], kings, side)
            .map_err(|err| error(1, 1, err.message))?;
        Ok(BoardFile {
            position,
            time_limit,
        })
    }
}

/// The 1-based column of the first character that is not a space or tab.
fn first_non_blank(line: &str) -> Option<usize> {
    line.chars()
        .position(|c| c != ' ' && c != '\t')
        .map(|index| index + 1)
}

/// Reads one row of four squares into the masks, checking the piece limits as it goes so that
/// the error points at the offending character.
fn read_row(
    line: &str,
    number: usize,
    pieces: &mut [u32; 2],
    kings: &mut u32,
) -> Result<(), BoardFileError> {
    let mut squares = 0;
    let mut columns = 0;
    for (index, character) in line.chars().enumerate() {
        let column = index + 1;
        columns = column;
        if character == ' ' || character == '\t' {
            continue;
        }
        if squares == 4 {
            return Err(error(
                number,
                column,
                format!("line {number} has more than 4 squares"),
            ));
        }
        let (side, king) = match character {
            '0' => {
                squares += 1;
                continue;
            }
            '1' => (Side::First, false),
            '2' => (Side::Second, false),
            '3' => (Side::First, true),
            '4' => (Side::Second, true),
            other => {
                return Err(error(
                    number,
                    column,
                    format!("{other:?} is not a square; write {SQUARE_CHARACTERS}"),
                ));
            }
        };
        let bit = 1u32 << ((number - 1) * 4 + squares);
        squares += 1;
        if !king && crowning_row(side) & bit != 0 {
            return Err(error(
                number,
                column,
                format!(
                    "a {} man cannot stand on its crowning row; it would be a king ({})",
                    side_name(side),
                    if side == Side::First { '3' } else { '4' }
                ),
            ));
        }
        let mask = &mut pieces[side.index()];
        *mask |= bit;
        if mask.count_ones() > MAX_PIECES {
            return Err(error(
                number,
                column,
                format!("{} has more than {MAX_PIECES} pieces here", side_name(side)),
            ));
        }
        if king {
            *kings |= bit;
        }
    }
    if squares < 4 {
        return Err(error(
            number,
            columns + 1,
            format!(
                "line {number} has {squares} square(s); each of the first 8 lines has 4, one \
                 character each: {SQUARE_CHARACTERS}"
            ),
        ));
    }
    Ok(())
}

fn read_side(line: &str) -> Result<Side, BoardFileError> {
    let Some(column) = first_non_blank(line) else {
        return Err(error(
            9,
            1,
            "the side to move is missing: write 1 for Black or 2 for White",
        ));
    };
    match line.trim().to_ascii_lowercase().as_str() {
        "1" | "b" | "black" => Ok(Side::First),
        "2" | "w" | "white" => Ok(Side::Second),
        other => Err(error(
            9,
            column,
            format!("the side to move is {other:?}; write 1 for Black or 2 for White"),
        )),
    }
}

/// Reads seconds with up to three decimals, exactly (no floating point).
fn read_time_limit(line: &str) -> Result<Duration, BoardFileError> {
    let column = first_non_blank(line).unwrap_or(1);
    let text = line.trim();
    let bad = |problem: String| error(10, column, problem);
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if whole.is_empty() || whole.len() > 5 || !digits(whole) || !digits(fraction) {
        return Err(bad(format!(
            "the time limit is {text:?}; write seconds like 5 or 2.5"
        )));
    }
    if fraction.len() > 3 {
        return Err(bad(format!(
            "the time limit {text} has more than 3 decimals; milliseconds are the finest"
        )));
    }
    let seconds: u64 = whole
        .parse()
        .map_err(|_| bad(format!("bad seconds {whole:?}")))?;
    let millis: u64 = format!("{fraction:0<3}")
        .parse()
        .map_err(|_| bad(format!("bad fraction {fraction:?}")))?;
    let limit = Duration::from_millis(seconds * 1000 + millis);
    if limit.is_zero() || limit > MAX_TIME_LIMIT {
        return Err(bad(format!(
            "the time limit is {text} seconds; it must be above 0 and at most {}",
            MAX_TIME_LIMIT.as_secs()
        )));
    }
    Ok(limit)
}

impl fmt::Display for BoardFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let position = &self.position;
        for row in 0..8 {
            for column in 0..4 {
                let bit = 1u32 << (row * 4 + column);
                let king = position.kings() & bit != 0;
                let character = match (position.black() & bit != 0, position.white() & bit != 0) {
                    (true, _) if king => '3',
                    (true, _) => '1',
                    (_, true) if king => '4',
                    (_, true) => '2',
                    _ => '0',
                };
                write!(f, "{character}")?;
            }
            writeln!(f)?;
        }
        let side = match position.side_to_move() {
            Side::First => 1,
            Side::Second => 2,
        };
        writeln!(f, "{side}")?;
        if let Some(limit) = self.time_limit {
            let millis = limit.as_millis();
            if millis % 1000 == 0 {
                writeln!(f, "{}", millis / 1000)?;
            } else {
                let fraction = format!("{:03}", millis % 1000);
                writeln!(f, "{}.{}", millis / 1000, fraction.trim_end_matches('0'))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::fen::{fen, parse_fen};

    const START: &str = "1111\n1111\n1111\n0000\n0000\n2222\n2222\n2222\n1\n";

    /// Reads a board file and gives the FEN and time limit, or the error's text.
    fn check(text: &str, expected: Result<(&str, Option<u64>), &str>) {
        let got = text.parse::<BoardFile>();
        match (got, expected) {
            (Ok(file), Ok((want_fen, want_millis))) => {
                assert_eq!(fen(&file.position), want_fen, "{text:?}");
                assert_eq!(
                    file.time_limit,
                    want_millis.map(Duration::from_millis),
                    "{text:?}"
                );
            }
            (Err(err), Err(needle)) => {
                let err = err.to_string();
                assert!(err.contains(needle), "{text:?}: {err}");
            }
            (got, want) => panic!("{text:?}: got {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn board_files_are_read() {
        let start = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        check(START, Ok((start, None)));
        check(&format!("{START}5\n"), Ok((start, Some(5000))));
        check(&format!("{START}2.5\n\n\n"), Ok((start, Some(2500))));
        check(
            "0000\r\n0 0 0 0\r\n0000\r\n0000\r\n0040\r\n1000\r\n0000\r\n0300\r\nW\r\n0.125\r\n",
            Ok(("W:WK19:B21,K30", Some(125))),
        );
    }

    #[test]
    fn board_file_errors_name_line_and_column() {
        let grid = "0000\n".repeat(8);
        check("", Err("line 1, column 1: line 1 is missing"));
        check(
            &"0000\n".repeat(5),
            Err("line 6, column 1: line 6 is missing"),
        );
        check("000\n", Err("line 1, column 4: line 1 has 3 square(s)"));
        check(
            "00000\n",
            Err("line 1, column 5: line 1 has more than 4 squares"),
        );
        check("0000\n00x0\n", Err("line 2, column 3: 'x' is not a square"));
        check(
            &format!("{}0 0 1 0\n", "0000\n".repeat(7)),
            Err("line 8, column 5: a Black man cannot stand on its crowning row"),
        );
        check(
            "2000\n",
            Err("line 1, column 1: a White man cannot stand on its crowning row"),
        );
        check(
            &format!("{}1000\n{}", "1111\n".repeat(3), "0000\n".repeat(4)),
            Err("line 4, column 1: Black has more than 12 pieces here"),
        );
        check(&grid, Err("line 9, column 1: the side to move is missing"));
        check(
            &format!("{grid}  x\n"),
            Err("line 9, column 3: the side to move is \"x\""),
        );
        check(
            &format!("{grid}1\nsoon\n"),
            Err("line 10, column 1: the time limit is \"soon\""),
        );
        check(&format!("{grid}1\n0\n"), Err("it must be above 0"));
        check(&format!("{grid}1\n99999\n"), Err("at most 86400"));
        check(&format!("{grid}1\n1.2345\n"), Err("more than 3 decimals"));
        check(
            &format!("{grid}1\n5\n\n x\n"),
            Err("line 12, column 2: unexpected text"),
        );
        check(&"0".repeat(5000), Err("at most 4096"));
    }

    #[test]
    fn board_files_print_and_read_back() {
        let cases = [
            ("B:W21-32:B1-12", None),
            ("W:WK19:B21,K30", Some(125)),
            ("B:WK1,K2:BK31,5", Some(3000)),
            ("W:W:BK32", Some(86_400_000)),
        ];
        for (text, millis) in cases {
            let file = BoardFile {
                position: parse_fen(text).expect(text),
                time_limit: millis.map(Duration::from_millis),
            };
            let printed = file.to_string();
            assert_eq!(printed.parse::<BoardFile>(), Ok(file), "{printed}");
        }
        assert_eq!(
            BoardFile {
                position: Position::start(),
                time_limit: None
            }
            .to_string(),
            START
        );
    }
}
