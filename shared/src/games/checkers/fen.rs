//! PDN FEN, the one-line text form of a checkers position: the side to move, then each colour's
//! squares, a `K` before a king's square. For example the start is
//! `B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12`.
//!
//! Reading accepts either colour first, ranges of men like `B1-12`, spaces around entries and a
//! trailing `.`; it refuses malformed text and impossible positions (a square listed twice, a man
//! on its crowning row, more than 12 pieces a side) with a message naming the problem. Printing
//! gives the canonical form: side, White's squares, Black's squares, each in ascending order.

use super::position::{Position, side_name};
use super::square::Square;
use crate::game::{PositionError, Side};
use std::fmt::Write as _;

/// The longest FEN accepted; a real one is under 120 characters.
pub const MAX_FEN_LEN: usize = 512;

const EXAMPLE: &str = "expected a FEN like B:W21,22,23,K32:B1,2,K3 (side to move B or W, then \
                       each colour's squares, K before a king)";

/// Reads a PDN FEN.
pub fn parse_fen(text: &str) -> Result<Position, PositionError> {
    if text.len() > MAX_FEN_LEN {
        return Err(PositionError::new(format!(
            "a FEN is at most {MAX_FEN_LEN} characters, got {}",
            text.len()
        )));
    }
    let problem = |problem: String| PositionError::new(format!("bad FEN {text:?}: {problem}"));
    let syntax =
        |problem: String| PositionError::new(format!("{EXAMPLE}, got {text:?}: {problem}"));
    let trimmed = text.trim().trim_matches('"').trim_end_matches('.').trim();
    let fields: Vec<&str> = trimmed.split(':').collect();
    let [turn, first, second] = fields.as_slice() else {
        return Err(syntax(format!(
            "it has {} field(s) separated by ':', a FEN has 3",
            fields.len()
        )));
    };
    let side = parse_side(turn).map_err(syntax)?;
    let mut masks = [None::<(u32, u32)>; 2];
    let mut listed = 0u32;
    for field in [first, second] {
        let (colour, squares) = parse_colour_field(field).map_err(syntax)?;
        if masks[colour.index()].is_some() {
            return Err(syntax(format!(
                "{} is listed twice; give one W field and one B field",
                side_name(colour)
            )));
        }
        let (men, kings) = parse_squares(squares, colour).map_err(syntax)?;
        let pieces = men | kings;
        if pieces & listed != 0 {
            let square = Square::from_index((pieces & listed).trailing_zeros() as u8);
            return Err(problem(format!("square {square} is listed twice")));
        }
        listed |= pieces;
        masks[colour.index()] = Some((pieces, kings));
    }
    let [Some((black, black_kings)), Some((white, white_kings))] = masks else {
        return Err(syntax("it needs one W field and one B field".to_owned()));
    };
    Position::from_parts(black, white, black_kings | white_kings, side)
        .map_err(|err| problem(err.message))
}

/// Prints the canonical PDN FEN of a position.
#[must_use]
pub fn fen(position: &Position) -> String {
    let mut text = String::with_capacity(100);
    text.push(side_letter(position.side_to_move()));
    for side in [Side::Second, Side::First] {
        text.push(':');
        text.push(side_letter(side));
        let mut first = true;
        for square in Square::all() {
            if position.pieces(side) & square.bit() == 0 {
                continue;
            }
            if !first {
                text.push(',');
            }
            first = false;
            if position.kings() & square.bit() != 0 {
                text.push('K');
            }
            // Writing into a String cannot fail.
            let _ = write!(text, "{square}");
        }
    }
    text
}

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'B',
        Side::Second => 'W',
    }
}

fn parse_side(text: &str) -> Result<Side, String> {
    match text.trim() {
        "B" | "b" => Ok(Side::First),
        "W" | "w" => Ok(Side::Second),
        other => Err(format!("the side to move is {other:?}, not B or W")),
    }
}

/// Splits `W21,22` into White and `21,22`.
fn parse_colour_field(field: &str) -> Result<(Side, &str), String> {
    let field = field.trim();
    let mut chars = field.chars();
    let colour = match chars.next() {
        Some('B' | 'b') => Side::First,
        Some('W' | 'w') => Side::Second,
        Some(other) => {
            return Err(format!(
                "a colour field starts with B or W, not {other:?} (in {field:?})"
            ));
        }
        None => return Err("a colour field is empty; write W or B before its squares".to_owned()),
    };
    Ok((colour, chars.as_str()))
}

/// Reads `21,K22,25-28` into masks of men and kings.
fn parse_squares(list: &str, colour: Side) -> Result<(u32, u32), String> {
    let (mut men, mut kings) = (0u32, 0u32);
    if list.trim().is_empty() {
        return Ok((0, 0));
    }
    for entry in list.split(',') {
        let entry = entry.trim();
        let (king, squares) = match entry.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest.trim()),
            None => (false, entry),
        };
        let range = match squares.split_once('-') {
            Some((low, high)) => {
                let low = Square::parse(low.trim())?;
                let high = Square::parse(high.trim())?;
                if low > high {
                    return Err(format!("the range {squares} runs backwards"));
                }
                low.index()..=high.index()
            }
            None => {
                let square = Square::parse(squares).map_err(|problem| {
                    format!("{problem} (in {}'s entry {entry:?})", side_name(colour))
                })?;
                square.index()..=square.index()
            }
        };
        for index in range {
            let bit = 1u32 << index;
            if (men | kings) & bit != 0 {
                return Err(format!("square {} is listed twice", index + 1));
            }
            if king {
                kings |= bit;
            } else {
                men |= bit;
            }
        }
    }
    Ok((men | kings, kings))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses and prints, or returns the error text.
    fn round(text: &str) -> Result<String, String> {
        parse_fen(text)
            .map(|position| fen(&position))
            .map_err(|err| err.to_string())
    }

    fn check(text: &str, expected: Result<&str, &str>) {
        match (round(text), expected) {
            (Ok(printed), Ok(want)) => assert_eq!(printed, want, "{text}"),
            (Err(err), Err(needle)) => assert!(err.contains(needle), "{text}: {err}"),
            (got, want) => panic!("{text}: got {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn fens_parse_and_print_canonically() {
        let start = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        check(start, Ok(start));
        check("B:B1-12:W21-32", Ok(start));
        check(" b : w21-32 : b1-12 . ", Ok(start));
        check("W:WK22:B9,10,17,18", Ok("W:WK22:B9,10,17,18"));
        check("W:W:BK1", Ok("W:W:BK1"));
        check("\"B:WK4:B29K\"", Err("square number"));
        assert_eq!(fen(&Position::start()), start);
    }

    #[test]
    fn bad_fens_name_the_problem() {
        check("B:W1,2:B2", Err("square 2 is listed twice"));
        check("B:W5,5:B1", Err("square 5 is listed twice"));
        check("B:W1-13:B20", Err("White has 13 pieces"));
        check("B:W21:B30", Err("Black man on square 30"));
        check("B:W3:B1", Err("White man on square 3"));
        check("B:W21:B9", Ok("B:W21:B9"));
        check("X:W21:B1", Err("the side to move is \"X\""));
        check("B:W21", Err("it has 2 field(s)"));
        check("B:W21:W22", Err("White is listed twice"));
        check("B:W21:Q1", Err("starts with B or W"));
        check("B:W21:B33", Err("square 33 is not 1..32"));
        check("B:W21:Bx", Err("\"x\" is not a square number"));
        check("B:W21:B,", Err("a square number is missing"));
        check("B:W9-5:B1", Err("runs backwards"));
        check(&"B".repeat(600), Err("at most 512 characters"));
        check("", Err("it has 1 field(s)"));
    }
}
