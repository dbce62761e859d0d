//! A square of the checkers board: one of the 32 dark squares, numbered 1..32 in standard
//! notation (1..4 on Black's back row, 29..32 on White's), stored as its bit index 0..31.

use std::fmt;

/// One of the 32 playable squares. Its bit in a mask is `1 << index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this standard number (1..32), if there is one.
    #[must_use]
    pub const fn from_number(number: u32) -> Option<Square> {
        if number >= 1 && number <= 32 {
            // Checked above: the index is 0..31.
            Some(Square((number - 1) as u8))
        } else {
            None
        }
    }

    /// The square with this bit index (0..31); the index is taken modulo 32, so callers pass
    /// indices that come from a mask.
    #[must_use]
    pub const fn from_index(index: u8) -> Square {
        Square(index & 31)
    }

    /// The bit index 0..31.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The standard number 1..32.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The one-bit mask of this square.
    #[must_use]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// Every square, 1 to 32.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square)
    }

    /// Reads a square number, saying what is wrong if the text is not one of 1..32. Kept short
    /// of the full error so each caller (move text, FEN) can frame it.
    pub fn parse(text: &str) -> Result<Square, String> {
        if text.is_empty() {
            return Err("a square number is missing".to_owned());
        }
        if text.len() > 3 || !text.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(format!("{text:?} is not a square number 1..32"));
        }
        text.parse::<u32>()
            .ok()
            .and_then(Square::from_number)
            .ok_or_else(|| format!("square {text} is not 1..32"))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<u8, &str>) {
        let got = Square::parse(text).map(Square::number);
        match expected {
            Ok(number) => assert_eq!(got, Ok(number), "{text}"),
            Err(needle) => {
                let err = got.expect_err(text);
                assert!(err.contains(needle), "{text}: {err}");
            }
        }
    }

    #[test]
    fn square_numbers_parse() {
        check("1", Ok(1));
        check("32", Ok(32));
        check("07", Ok(7));
        check("0", Err("square 0 is not 1..32"));
        check("33", Err("square 33 is not 1..32"));
        check("", Err("missing"));
        check("K5", Err("not a square number"));
        check("1234", Err("not a square number"));
        check("-1", Err("not a square number"));
    }

    #[test]
    fn numbers_and_bits_agree() {
        for square in Square::all() {
            assert_eq!(
                Square::from_number(u32::from(square.number())),
                Some(square)
            );
            assert_eq!(square.bit().trailing_zeros(), u32::from(square.index()));
        }
    }
}
