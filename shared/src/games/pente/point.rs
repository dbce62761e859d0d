//! The 361 intersections of the Pente board and their text.
//!
//! A point is stored as its index `row * 19 + column`, both counted from 0 at the bottom left, so
//! it is also the number a [`crate::MoveEffect`] carries. People write points as a column letter
//! A..T without I (I and J look alike, as on a Go board) and a row 1..19 from the bottom: `K10` is
//! the centre. The seed program's numeric input, "row column" with both counted from 1 (`10 10`),
//! is read too.

use crate::game::MoveError;
use std::fmt;

/// Points per side of the board.
pub const SIZE: u8 = 19;

/// Points on the board.
pub const POINTS: usize = 361;

/// The column letters, left to right: A..T skipping I.
const COLUMN_LETTERS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// What a point looks like, for error messages.
pub const POINT_EXPECTED: &str = "a point like K10 (columns A-T without I, rows 1-19)";

/// Longest text worth reading as a point; longer input is refused without being looked at.
const MAX_POINT_TEXT: usize = 16;

/// One intersection of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// K10, where the first player must open.
    pub const CENTRE: Point = Point(9 * 19 + 9);

    /// The point at a row and column, both from 0 at the bottom left; `None` off the board.
    #[must_use]
    pub const fn new(row: u8, column: u8) -> Option<Point> {
        if row < SIZE && column < SIZE {
            Some(Point(row as u16 * SIZE as u16 + column as u16))
        } else {
            None
        }
    }

    /// The point with this index (`row * 19 + column`); `None` for 361 and above.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < POINTS {
            Some(Point(index as u16))
        } else {
            None
        }
    }

    /// `row * 19 + column`, 0..361: an index into per-point tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, 0 at the bottom (row 1 in the notation).
    #[must_use]
    pub const fn row(self) -> u8 {
        (self.0 / SIZE as u16) as u8
    }

    /// The column, 0 at the left (column A).
    #[must_use]
    pub const fn column(self) -> u8 {
        (self.0 % SIZE as u16) as u8
    }

    /// The point `rows` up and `columns` right of this one, if it is on the board.
    #[must_use]
    pub fn offset(self, rows: i8, columns: i8) -> Option<Point> {
        let row = u8::try_from(i16::from(self.row()) + i16::from(rows)).ok()?;
        let column = u8::try_from(i16::from(self.column()) + i16::from(columns)).ok()?;
        Point::new(row, column)
    }

    /// The distance in the tournament rule's sense: the larger of the row and column differences,
    /// so the 5x5 block around a point is everything within distance 2.
    #[must_use]
    pub fn distance(self, other: Point) -> u8 {
        self.row()
            .abs_diff(other.row())
            .max(self.column().abs_diff(other.column()))
    }

    /// Every point, in index order (row by row from the bottom left).
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS as u16).map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = COLUMN_LETTERS[usize::from(self.column())] as char;
        write!(f, "{letter}{}", self.row() + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Reads a point: a column letter and a row (`K10`, any case), or the seed program's numeric
/// "row column" (`10 10`, both 1..19, row from the bottom).
pub fn parse_point(text: &str) -> Result<Point, MoveError> {
    let syntax = |problem: String| MoveError::Syntax {
        expected: POINT_EXPECTED,
        got: shorten(text),
        problem,
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(syntax("the text is empty".to_owned()));
    }
    if trimmed.len() > MAX_POINT_TEXT {
        return Err(syntax("that is too long to be a point".to_owned()));
    }
    let numbers: Vec<&str> = trimmed.split_whitespace().collect();
    if let [row, column] = numbers[..] {
        return parse_numeric(row, column).map_err(syntax);
    }
    let mut chars = trimmed.chars();
    let Some(letter) = chars.next().filter(char::is_ascii_alphabetic) else {
        return Err(syntax(
            "a point starts with a column letter, or is two numbers \"row column\"".to_owned(),
        ));
    };
    let letter = letter.to_ascii_uppercase();
    let column = match COLUMN_LETTERS.iter().position(|&c| c == letter as u8) {
        Some(column) => column,
        None if letter == 'I' => {
            return Err(syntax(
                "there is no column I (the columns skip it)".to_owned(),
            ));
        }
        None => return Err(syntax(format!("column {letter} is not A-T"))),
    };
    let row = parse_row_or_column(chars.as_str(), "row").map_err(syntax)?;
    // Both are below 19 here, so the point exists.
    Point::new(row, column as u8).ok_or_else(|| syntax("that is off the board".to_owned()))
}

/// The numeric form: "row column", both counted from 1.
fn parse_numeric(row: &str, column: &str) -> Result<Point, String> {
    let row = parse_row_or_column(row, "row")?;
    let column = parse_row_or_column(column, "column")?;
    Point::new(row, column).ok_or_else(|| "that is off the board".to_owned())
}

/// A row or column number 1..19, returned counted from 0.
fn parse_row_or_column(text: &str, what: &str) -> Result<u8, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} {text:?} is not a number 1..19"));
    }
    match text.parse::<u8>() {
        Ok(n @ 1..=19) => Ok(n - 1),
        _ => Err(format!("{what} {text} is not 1..19")),
    }
}

/// The text to echo in an error: hostile input can be long, so it is cut after 80 characters.
pub(super) fn shorten(text: &str) -> String {
    const LIMIT: usize = 80;
    match text.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: &str) {
        let got = match parse_point(text) {
            Ok(point) => point.to_string(),
            Err(err) => err.to_string(),
        };
        assert_eq!(got, expected, "{text:?}");
    }

    #[test]
    fn points_parse_in_every_accepted_form() {
        check("K10", "K10");
        check("k10", "K10");
        check(" a1 ", "A1");
        check("T19", "T19");
        check("J1", "J1");
        check("H19", "H19");
        check("10 10", "K10");
        check("1 1", "A1");
        check("19 9", "J19");
        check("3  19", "T3");
    }

    #[test]
    fn bad_points_say_what_was_expected_and_what_is_wrong() {
        let expected = "expected a point like K10 (columns A-T without I, rows 1-19)";
        check(
            "I5",
            &format!("{expected}, got \"I5\": there is no column I (the columns skip it)"),
        );
        check(
            "U3",
            &format!("{expected}, got \"U3\": column U is not A-T"),
        );
        check(
            "K20",
            &format!("{expected}, got \"K20\": row 20 is not 1..19"),
        );
        check("K0", &format!("{expected}, got \"K0\": row 0 is not 1..19"));
        check(
            "K",
            &format!("{expected}, got \"K\": row \"\" is not a number 1..19"),
        );
        check(
            "K1x",
            &format!("{expected}, got \"K1x\": row \"1x\" is not a number 1..19"),
        );
        check("", &format!("{expected}, got \"\": the text is empty"));
        check(
            "20 1",
            &format!("{expected}, got \"20 1\": row 20 is not 1..19"),
        );
        check(
            "1 0",
            &format!("{expected}, got \"1 0\": column 0 is not 1..19"),
        );
        check(
            "10",
            &format!(
                "{expected}, got \"10\": a point starts with a column letter, or is two numbers \
                 \"row column\""
            ),
        );
        check(
            "K99999999999999999999",
            &format!("{expected}, got \"K99999999999999999999\": that is too long to be a point"),
        );
    }

    #[test]
    fn every_point_prints_and_parses_back() {
        for point in Point::all() {
            assert_eq!(parse_point(&point.to_string()), Ok(point));
            let numeric = format!("{} {}", point.row() + 1, point.column() + 1);
            assert_eq!(parse_point(&numeric), Ok(point));
            assert_eq!(Point::from_index(point.index()), Some(point));
        }
        assert_eq!(Point::from_index(POINTS), None);
        assert_eq!(Point::CENTRE.to_string(), "K10");
    }

    #[test]
    fn long_hostile_text_is_cut_in_the_error() {
        let text = "x".repeat(10_000);
        let err = parse_point(&text).expect_err("too long").to_string();
        assert!(err.len() < 200, "{err}");
    }
}
