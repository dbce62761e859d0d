//! The kingme text record: a plain, line-based form of any game's record, used by `kingme export`
//! for Pente and noughts and crosses (checkers gets standard PDN) and read back by `kingme import`
//! and `kingme replay`.
//!
//! ```text
//! Game: pente
//! Event: kingme game 7
//! Date: 2026.11.23
//! First: alice
//! Second: advanced (bot)
//! Rule: tournament
//! Start: 1:K10:L11:0,0
//! Result: 1-0
//! Reason: five-in-a-row
//!
//! 1. K10 L9
//! 2. N10 M12
//! ```
//!
//! A header of `Key: value` lines, a blank line, then the moves in the game's own notation,
//! numbered in pairs (the numbers are optional when reading). `Game` is required and comes first;
//! `Rule` (for a game with variants, the rule it was played under: Pente `tournament` or `free`,
//! default the game's standard rule, see [`crate::GameSpec::rule`]), `Start` (a setup position in the
//! game's position text), `Result` (`1-0` first side won, `0-1` second side won, `1/2-1/2` draw,
//! `*` no result) and `Reason` (a code like `resignation`) are optional. Unknown keys are
//! refused, so a typo does not silently lose information. Lines starting with `#` are comments.

use super::{GameRecord, MAX_RECORD_MOVES, RecordResult, end_reason_code, parse_end_reason_code};
use crate::games::spec::GameSpec;
use std::fmt::Write as _;

/// The longest text record read, in bytes.
pub const MAX_TEXT_RECORD: usize = 1 << 20;

/// The longest header line read, in bytes (a full Pente position text is under 2 KiB).
const MAX_HEADER_LINE: usize = 4096;

/// A text record that could not be read: the line and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("text record line {line}: {problem}")]
pub struct TextRecordError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub problem: String,
}

/// Writes a record as text.
#[must_use]
pub fn write(record: &GameRecord) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(out, "Game: {}", record.kind().name());
    let _ = writeln!(out, "Event: {}", one_line(&record.event));
    let _ = writeln!(out, "Date: {}", one_line(&record.date));
    let _ = writeln!(out, "First: {}", one_line(&record.players[0]));
    let _ = writeln!(out, "Second: {}", one_line(&record.players[1]));
    if GameSpec::has_variants(record.kind()) {
        let _ = writeln!(out, "Rule: {}", record.spec.rule());
    }
    if let Some(start) = &record.start_position {
        let _ = writeln!(out, "Start: {}", one_line(start));
    }
    match record.result {
        Some(result) => {
            let _ = writeln!(out, "Result: {}", result.score());
            if let Some(reason) = result.reason {
                let _ = writeln!(out, "Reason: {}", end_reason_code(reason));
            }
        }
        None => {
            let _ = writeln!(out, "Result: *");
        }
    }
    out.push('\n');
    for (number, pair) in record.moves.chunks(2).enumerate() {
        let _ = writeln!(out, "{}. {}", number + 1, pair.join(" "));
    }
    out
}

/// A header value on one line: line breaks would end the header early.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Reads a text record. The moves are not checked here; [`GameRecord::replay`] does that.
pub fn read(text: &str) -> Result<GameRecord, TextRecordError> {
    let fail = |line: usize, problem: String| TextRecordError { line, problem };
    if text.len() > MAX_TEXT_RECORD {
        return Err(fail(
            0,
            format!(
                "the record is {} bytes; at most {MAX_TEXT_RECORD} are read",
                text.len()
            ),
        ));
    }
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line));
    let mut record: Option<GameRecord> = None;
    let mut score: Option<Option<RecordResult>> = None;
    let mut reason = None;
    for (number, line) in lines.by_ref() {
        let line = line.trim();
        if line.starts_with('#') || (line.is_empty() && record.is_none()) {
            continue;
        }
        if line.is_empty() {
            break;
        }
        if line.len() > MAX_HEADER_LINE {
            return Err(fail(
                number,
                format!("a header line is at most {MAX_HEADER_LINE} bytes"),
            ));
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(fail(
                number,
                format!("expected a header line like \"Game: pente\", got {line:?}"),
            ));
        };
        let value = value.trim();
        let Some(record) = record.as_mut() else {
            if key.trim() != "Game" {
                return Err(fail(
                    number,
                    format!("the first header must be Game, got {:?}", key.trim()),
                ));
            }
            let spec = value
                .parse::<GameSpec>()
                .map_err(|err| fail(number, err.to_string()))?;
            record = Some(GameRecord::new(spec));
            continue;
        };
        match key.trim() {
            "Event" => record.event = value.to_owned(),
            "Date" => record.date = value.to_owned(),
            "First" => record.players[0] = value.to_owned(),
            "Second" => record.players[1] = value.to_owned(),
            "Rule" => {
                record.spec = GameSpec::with_rule(record.kind(), value)
                    .map_err(|err| fail(number, err.to_string()))?;
            }
            "Start" => record.start_position = Some(value.to_owned()),
            "Result" => {
                score = Some(RecordResult::from_score(value).map_err(|err| fail(number, err))?);
            }
            "Reason" => {
                reason = Some(parse_end_reason_code(value).map_err(|err| fail(number, err))?);
            }
            other => {
                return Err(fail(
                    number,
                    format!(
                        "unknown header {other:?}; known: Game, Event, Date, First, Second, \
                         Rule, Start, Result, Reason"
                    ),
                ));
            }
        }
    }
    let Some(mut record) = record else {
        return Err(fail(0, "the record has no \"Game: ...\" header".to_owned()));
    };
    record.result = match (score.flatten(), reason) {
        (Some(result), reason) => Some(RecordResult { reason, ..result }),
        (None, Some(reason)) => Some(RecordResult {
            winner: None,
            reason: Some(reason),
        }),
        (None, None) => None,
    };
    for (number, line) in lines {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for token in line.split_whitespace() {
            if is_move_number(token) {
                continue;
            }
            if record.moves.len() == MAX_RECORD_MOVES {
                return Err(fail(
                    number,
                    format!("a record holds at most {MAX_RECORD_MOVES} moves"),
                ));
            }
            record.moves.push(token.to_owned());
        }
    }
    Ok(record)
}

/// `12.` or `12...`: a move number, not a move.
pub(crate) fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::EndReason;
    use crate::{GameKind, Side};

    fn played(kind: GameKind, moves: &[&str]) -> GameRecord {
        let mut record = GameRecord::new(kind);
        record.event = "kingme game 3".into();
        record.date = "2026.11.23".into();
        record.players = ["alice".into(), "advanced (bot)".into()];
        record.moves = moves.iter().map(|m| (*m).to_owned()).collect();
        record
    }

    #[test]
    fn pente_and_tictactoe_records_read_back() {
        let mut pente = played(GameKind::Pente, &["K10", "L9", "N10", "M12", "J10"]);
        pente.result = Some(RecordResult {
            winner: Some(Side::Second),
            reason: Some(EndReason::Resignation),
        });
        pente.spec = "pente-free".parse().unwrap();
        let mut ttt = played(GameKind::TicTacToe, &["5", "1", "9"]);
        ttt.start_position = Some("---------".into());
        for record in [pente, ttt] {
            let text = write(&record);
            assert_eq!(read(&text).as_ref(), Ok(&record), "{text}");
            assert!(record.replay().is_ok());
        }
    }

    #[test]
    fn a_setup_game_keeps_its_start_and_replays_from_it() {
        let mut record = played(GameKind::TicTacToe, &["3"]);
        record.start_position = Some("XO--X---O".into());
        let read_back = read(&write(&record)).unwrap();
        let last = read_back.final_game().unwrap();
        assert_eq!(last.position_text(), "XOX-X---O");
    }

    #[test]
    fn bad_records_say_which_line_is_wrong() {
        let check = |text: &str, needle: &str| {
            let err = read(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        };
        check("", "no \"Game: ...\" header");
        check("Event: x\n", "line 1: the first header must be Game");
        check("Game: chess\n", "expected a game");
        check(
            "Game: pente\nColour: red\n",
            "line 2: unknown header \"Colour\"",
        );
        check(
            "Game: pente\nRule: maybe\n",
            "expected Rule: tournament or free",
        );
        check("Game: pente\nResult: 3-0\n", "expected a result");
        check("Game: pente\nReason: boredom\n", "expected an end reason");
        check("Game: pente\nno colon\n", "expected a header line");
        check(&"x".repeat(MAX_TEXT_RECORD + 1), "at most");
    }

    #[test]
    fn move_numbers_are_told_from_moves() {
        assert!(is_move_number("1."));
        assert!(is_move_number("12..."));
        assert!(!is_move_number("5"));
        assert!(!is_move_number("."));
        assert!(!is_move_number("K10."));
    }
}
