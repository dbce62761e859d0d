//! Text forms of noughts-and-crosses squares: keypad numbers 1..9 and coordinates a1..c3.

use crate::game::MoveError;

const EXPECTED: &str = "a square 1-9 (row by row from the top left) or a1-c3";

/// Reads a square, 0-based (bit index). Accepts `1`..`9` and `a1`..`c3` (any case).
pub fn parse_square(text: &str) -> Result<u8, MoveError> {
    let trimmed = text.trim();
    let syntax = |problem: String| MoveError::Syntax {
        expected: EXPECTED,
        got: text.to_owned(),
        problem,
    };
    let bytes = trimmed.as_bytes();
    match bytes {
        [digit @ b'0'..=b'9'] => match digit - b'0' {
            0 => Err(syntax("square 0 is not 1..9".to_owned())),
            n => Ok(n - 1),
        },
        [column, row] if column.is_ascii_alphabetic() && row.is_ascii_digit() => {
            let column = column.to_ascii_lowercase();
            if !(b'a'..=b'c').contains(&column) {
                return Err(syntax(format!("column {} is not a..c", column as char)));
            }
            if !(b'1'..=b'3').contains(row) {
                return Err(syntax(format!("row {} is not 1..3", *row as char)));
            }
            let row_from_top = 3 - (row - b'0');
            Ok(row_from_top * 3 + (column - b'a'))
        }
        [] => Err(syntax("the text is empty".to_owned())),
        _ => Err(syntax("that is not a square".to_owned())),
    }
}

/// The keypad number of a 0-based square.
#[must_use]
pub fn square_text(square: u8) -> String {
    (square + 1).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_in_both_forms() {
        let cases = [
            ("1", 0),
            ("5", 4),
            ("9", 8),
            ("a3", 0),
            ("c3", 2),
            ("b2", 4),
            ("A1", 6),
            ("c1", 8),
            (" 7 ", 6),
        ];
        for (text, square) in cases {
            assert_eq!(parse_square(text), Ok(square), "{text}");
        }
    }

    #[test]
    fn bad_squares_say_what_was_expected() {
        for text in ["0", "10", "d1", "a4", "", "x", "a1b"] {
            let err = parse_square(text).expect_err(text).to_string();
            assert!(err.contains("expected a square 1-9"), "{text}: {err}");
        }
        assert!(
            parse_square("d2")
                .expect_err("d2")
                .to_string()
                .contains("column d is not a..c")
        );
    }
}
