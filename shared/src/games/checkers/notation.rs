//! Move text: `11-15` for a step, `15x24` for a capture, `11x18x25` for a multi-jump with every
//! landing square.
//!
//! A capture is printed in the short form `from x to` when no other legal capture shares its
//! origin and destination, and with every landing square otherwise. Both forms are read; a text
//! is always checked against the position's legal moves, and a text that fits none, or fits
//! several, gets an error listing what was possible.

use super::movegen::{for_each_move, has_capture, push_moves};
use super::moves::{MAX_LANDINGS, Move};
use super::position::{Position, side_name};
use super::square::Square;
use crate::game::MoveError;
use arrayvec::ArrayVec;
use std::fmt::Write as _;

const EXPECTED: &str = "a move like 11-15 or 11x18 (or 11x18x25 with every landing square)";

/// The longest move text read; the longest real one is 13 squares, under 40 characters.
const MAX_MOVE_TEXT: usize = 64;

/// The text with every square of the path: `11-15`, `15x24`, `11x18x25`.
#[must_use]
pub fn full_move_text(mv: &Move) -> String {
    let separator = if mv.is_capture() { 'x' } else { '-' };
    let mut text = String::with_capacity(40);
    for (index, square) in mv.path().enumerate() {
        if index > 0 {
            text.push(separator);
        }
        // Writing into a String cannot fail.
        let _ = write!(text, "{square}");
    }
    text
}

/// The standard text of a move in a position: the short form `from x to` for a multi-jump when
/// no other legal capture has the same origin and destination, the full path otherwise.
#[must_use]
pub fn move_text(position: &Position, mv: &Move) -> String {
    if mv.landings().len() > 1 && captures_between(position, mv.from(), mv.to()) == 1 {
        format!("{}x{}", mv.from(), mv.to())
    } else {
        full_move_text(mv)
    }
}

/// How many legal captures go from one square to another.
fn captures_between(position: &Position, from: Square, to: Square) -> usize {
    let mut count = 0;
    for_each_move(position, |mv| {
        if mv.is_capture() && mv.from() == from && mv.to() == to {
            count += 1;
        }
    });
    count
}

/// The standard texts of all legal moves, for error messages.
#[must_use]
pub fn legal_move_list(position: &Position) -> String {
    let mut moves = Vec::new();
    push_moves(position, &mut moves);
    if moves.is_empty() {
        return "none".to_owned();
    }
    let texts: Vec<String> = moves.iter().map(|mv| move_text(position, mv)).collect();
    texts.join(", ")
}

/// What a move text says, before the position is consulted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveText {
    /// `from-to`.
    Step(Square, Square),
    /// `from x ... x to`: the origin and at least one landing square.
    Capture(ArrayVec<Square, { MAX_LANDINGS + 1 }>),
}

/// Reads the form of a move text without a position.
pub fn parse_move_text(text: &str) -> Result<MoveText, MoveError> {
    let syntax = |problem: String| MoveError::Syntax {
        expected: EXPECTED,
        got: text.to_owned(),
        problem,
    };
    if text.len() > MAX_MOVE_TEXT {
        return Err(syntax(format!(
            "the text is {} characters long; a move is at most {MAX_MOVE_TEXT}",
            text.len()
        )));
    }
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(syntax("the text is empty".to_owned()));
    }
    let is_capture_mark = |c: char| c == 'x' || c == 'X';
    let step = trimmed.contains('-');
    let capture = trimmed.contains(is_capture_mark);
    if step && capture {
        return Err(syntax(
            "it mixes - and x; use - for a step and x for a capture".to_owned(),
        ));
    }
    if !step && !capture {
        return Err(syntax(
            "a move needs - between the squares of a step or x between those of a capture"
                .to_owned(),
        ));
    }
    let mut squares = ArrayVec::<Square, { MAX_LANDINGS + 1 }>::new();
    for part in trimmed.split(|c: char| c == '-' || is_capture_mark(c)) {
        let square = Square::parse(part.trim()).map_err(&syntax)?;
        squares.try_push(square).map_err(|_| {
            syntax(format!(
                "a capture visits at most {} squares",
                MAX_LANDINGS + 1
            ))
        })?;
    }
    if step {
        match squares.as_slice() {
            [from, to] => Ok(MoveText::Step(*from, *to)),
            _ => Err(syntax(
                "a step has exactly two squares, like 11-15; a capture uses x".to_owned(),
            )),
        }
    } else {
        Ok(MoveText::Capture(squares))
    }
}

/// Reads a move text against a position: the legal move it names, or an error listing the
/// legal moves (or, when it is ambiguous, the moves it could mean).
pub fn parse_move(position: &Position, text: &str) -> Result<Move, MoveError> {
    let form = parse_move_text(text)?;
    let got = text.trim().to_owned();
    let mut legal = Vec::new();
    push_moves(position, &mut legal);
    let illegal = |problem: String| MoveError::Illegal {
        got: got.clone(),
        problem,
        legal: legal_move_list(position),
    };
    let from = match &form {
        MoveText::Step(from, _) => *from,
        MoveText::Capture(squares) => squares[0],
    };
    let found: Vec<Move> = match &form {
        MoveText::Step(from, to) => legal
            .iter()
            .filter(|mv| !mv.is_capture() && mv.from() == *from && mv.to() == *to)
            .copied()
            .collect(),
        MoveText::Capture(squares) => {
            // The whole path first: `AxB` is a single jump's full text even where it would also
            // be the (then ambiguous, so never printed) short form of a longer capture.
            let exact: Vec<Move> = legal
                .iter()
                .filter(|mv| mv.path().eq(squares.iter().copied()))
                .copied()
                .collect();
            if exact.is_empty() && squares.len() == 2 {
                legal
                    .iter()
                    .filter(|mv| {
                        mv.is_capture() && mv.from() == squares[0] && mv.to() == squares[1]
                    })
                    .copied()
                    .collect()
            } else {
                exact
            }
        }
    };
    match found.as_slice() {
        [mv] => return Ok(*mv),
        [] => {}
        several => {
            let candidates: Vec<String> = several.iter().map(full_move_text).collect();
            return Err(MoveError::Ambiguous {
                got,
                candidates: candidates.join(" or "),
            });
        }
    }
    let us = position.side_to_move();
    let problem = if position.pieces(us) & from.bit() == 0 {
        match position.piece_at(from) {
            Some(piece) => format!(
                "square {from} holds a {} piece and {} is to move",
                side_name(piece.side),
                side_name(us)
            ),
            None => format!("there is no piece on square {from}"),
        }
    } else if legal.is_empty() {
        format!("{} has no legal move", side_name(us))
    } else {
        match &form {
            MoveText::Step(_, _) if has_capture(position) => "a capture is compulsory".to_owned(),
            MoveText::Step(_, to) => format!("the piece on {from} cannot step to {to}"),
            MoveText::Capture(_) if !has_capture(position) => {
                "there is no capture in this position".to_owned()
            }
            MoveText::Capture(squares) => {
                let continues = legal
                    .iter()
                    .any(|mv| mv.path().take(squares.len()).eq(squares.iter().copied()));
                if continues {
                    "the capture must go on while the piece can jump again".to_owned()
                } else {
                    format!("no capture of the piece on {from} takes that route")
                }
            }
        }
    };
    Err(illegal(problem))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::fen::parse_fen;

    fn position(fen: &str) -> Position {
        parse_fen(fen).expect(fen)
    }

    /// Parses `text` in `fen` and prints the move's standard text, or the error's text.
    fn check(fen: &str, text: &str, expected: Result<&str, &str>) {
        let position = position(fen);
        let got = parse_move(&position, text)
            .map(|mv| move_text(&position, &mv))
            .map_err(|err| err.to_string());
        match (got, expected) {
            (Ok(printed), Ok(want)) => assert_eq!(printed, want, "{fen} {text}"),
            (Err(err), Err(needle)) => assert!(err.contains(needle), "{fen} {text}: {err}"),
            (got, want) => panic!("{fen} {text}: got {got:?}, expected {want:?}"),
        }
    }

    const START: &str = "B:W21-32:B1-12";

    #[test]
    fn move_texts_are_read_against_the_position() {
        check(START, "11-15", Ok("11-15"));
        check(START, " 9-13 ", Ok("9-13"));
        check("B:W18:B14", "14x23", Ok("14x23"));
        check("B:W18:B14", "14X23", Ok("14x23"));
        // The short form of a multi-jump is read and printed when it is the only such capture.
        check("B:W14,23:B9", "9x27", Ok("9x27"));
        check("B:W14,23:B9", "9x18x27", Ok("9x27"));
        // Two different captures from 2 to 18: the short form is ambiguous.
        check(
            "B:W6,7,14,15:B2",
            "2x18",
            Err("\"2x18\" is ambiguous: write one of 2x9x18 or 2x11x18"),
        );
        check("B:W6,7,14,15:B2", "2x11x18", Ok("2x11x18"));
        check("B:W6,7,14,15:B2", "2x9x18", Ok("2x9x18"));
        // 22x31 is the single jump's full text, though two loops also end on 31.
        check("W:WK22:B9,10,17,18,26", "22x31", Ok("22x31"));
        check(
            "W:WK22:B9,10,17,18,26",
            "22x13x6x15x22x31",
            Ok("22x13x6x15x22x31"),
        );
    }

    #[test]
    fn bad_move_texts_say_what_was_wrong() {
        check(
            START,
            "11-99",
            Err(
                "expected a move like 11-15 or 11x18 (or 11x18x25 with every landing square), \
                 got \"11-99\": square 99 is not 1..32",
            ),
        );
        check(START, "", Err("the text is empty"));
        check(START, "11", Err("a move needs - between"));
        check(START, "11-15x18", Err("it mixes - and x"));
        check(START, "11-15-18", Err("a step has exactly two squares"));
        check(START, &"1x".repeat(40), Err("at most 64"));
        check(
            START,
            "1x5x9x13x17x21x25x29x1x5x9x13x17x21",
            Err("at most 13"),
        );
        check(START, "11-14", Err("the piece on 11 cannot step to 14"));
        check(START, "13-17", Err("there is no piece on square 13"));
        check(
            START,
            "21-17",
            Err("square 21 holds a White piece and Black is to move"),
        );
        check(START, "11x18", Err("there is no capture in this position"));
        check(
            "B:W18:B14,1",
            "1-5",
            Err("\"1-5\" is not a legal move here: a capture is compulsory; legal moves: 14x23"),
        );
        check("B:W14,23:B9", "9x18", Err("the capture must go on"));
        check(
            "B:W14,23:B9",
            "9x18x25",
            Err("no capture of the piece on 9 takes that route"),
        );
    }
}
