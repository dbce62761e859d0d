//! Portable Draughts Notation (PDN) for English checkers: export of a game record, and import of
//! the first game of a PDN text.
//!
//! Export writes the tags Event, Date, Black, White and Result, SetUp and FEN for a game that did
//! not start from the standard position, Termination (the end reason's code) when known, and the
//! moves in standard notation: `11-15`, `15x24`, a multi-jump as `9x27` or, when another capture
//! joins the same squares, with every landing square (`2x11x18`). Moves are numbered in pairs,
//! Black first; a game whose start has White to move begins `1... 23-19`. Results follow the
//! English convention: `1-0` Black (the side that moves first) won, `0-1` White won.
//!
//! Import is hostile-input safe: at most [`MAX_PDN`] bytes, comments (`{...}`, `; ...`),
//! variations (`(...)`, skipped), NAGs (`$1`) and move marks (`!`, `?`) are understood, every move
//! is replayed through the rules, and anything else is an error naming the line.

use crate::game_kind::GameKind;
use crate::record::text::is_move_number;
use crate::record::{
    GameRecord, MAX_RECORD_MOVES, RecordError, RecordResult, end_reason_code, parse_end_reason_code,
};
use std::fmt::Write as _;

/// The longest PDN text read, in bytes.
pub const MAX_PDN: usize = 1 << 20;

/// Deepest nesting of variations skipped on import.
const MAX_VARIATION_DEPTH: usize = 32;

/// The PDN GameType of English checkers; other values name other draughts games.
const ENGLISH_CHECKERS_GAME_TYPE: &str = "21";

/// A PDN text that could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdnError {
    #[error("PDN line {line}: {problem}")]
    /// The text is not PDN.
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong there.
        problem: String,
    },
    #[error("PDN game does not replay: {0}")]
    /// The game's moves do not replay.
    Replay(#[from] RecordError),
    #[error("only checkers games are written as PDN, this is {0}")]
    /// The game is not checkers.
    NotCheckers(GameKind),
}

/// Writes a checkers record as PDN. The moves are replayed, so an invalid record is an error,
/// and each is written in its standard form.
pub fn export(record: &GameRecord) -> Result<String, PdnError> {
    if record.kind() != GameKind::Checkers {
        return Err(PdnError::NotCheckers(record.kind()));
    }
    let positions = record.replay()?;
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let escaped = value
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace(['\n', '\r'], " ");
        // Writing into a String cannot fail.
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    };
    let score = record.result.map_or("*", RecordResult::score);
    tag("Event", &record.event);
    tag("Date", &record.date);
    tag("Black", &record.players[0]);
    tag("White", &record.players[1]);
    tag("Result", score);
    if let Some(start) = positions
        .first()
        .filter(|_| record.start_position.is_some())
    {
        tag("SetUp", "1");
        tag("FEN", &start.position_text());
    }
    if let Some(reason) = record.result.and_then(|result| result.reason) {
        tag("Termination", end_reason_code(reason));
    }
    out.push('\n');
    let mut line = String::new();
    let mut push_token = |token: &str, out: &mut String| {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    };
    let mut number = 1;
    for (index, text) in record.moves.iter().enumerate() {
        let before = &positions[index];
        let mut game = before.clone();
        // The replay above played this very text in this very position.
        let (standard, _) = game.play_text(text).map_err(|err| RecordError::Move {
            ply: index + 1,
            text: text.clone(),
            problem: err.to_string(),
        })?;
        let black_to_move = before.side_to_move() == crate::Side::First;
        if black_to_move {
            push_token(&format!("{number}."), &mut out);
        } else if index == 0 {
            push_token(&format!("{number}..."), &mut out);
        }
        push_token(&standard, &mut out);
        if !black_to_move {
            number += 1;
        }
    }
    push_token(score, &mut out);
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// Reads the first game of a PDN text and replays it; the record's moves come back in standard
/// notation.
pub fn import(text: &str) -> Result<GameRecord, PdnError> {
    if text.len() > MAX_PDN {
        return Err(PdnError::Syntax {
            line: 0,
            problem: format!(
                "the file is {} bytes; at most {MAX_PDN} are read",
                text.len()
            ),
        });
    }
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
        line: 1,
    };
    let mut record = GameRecord::new(GameKind::Checkers);
    let mut result_tag = None;
    let mut termination = None;
    loop {
        reader.skip_space();
        if reader.peek() != Some(b'[') {
            break;
        }
        let (name, value) = reader.tag()?;
        let line = reader.line;
        match name.as_str() {
            "Event" => record.event = value,
            "Date" => record.date = value,
            "Black" => record.players[0] = value,
            "White" => record.players[1] = value,
            "FEN" => record.start_position = Some(value),
            "Result" => {
                result_tag =
                    Some(read_score(&value).map_err(|problem| PdnError::Syntax { line, problem })?);
            }
            "Termination" => termination = parse_end_reason_code(&value).ok(),
            "GameType" => {
                let game_type = value.split(',').next().unwrap_or("").trim();
                if game_type != ENGLISH_CHECKERS_GAME_TYPE {
                    return Err(PdnError::Syntax {
                        line,
                        problem: format!(
                            "GameType {game_type} is not English checkers \
                             ({ENGLISH_CHECKERS_GAME_TYPE}), the only draughts game read"
                        ),
                    });
                }
            }
            // Other tags (Site, Round, SetUp, clocks, ...) carry nothing a replay needs.
            _ => {}
        }
    }
    let mut result_token = None;
    while let Some(token) = reader.movetext_token()? {
        let line = reader.line;
        if let Ok(score) = read_score(&token) {
            result_token = Some(score);
            break;
        }
        if is_move_number(&token) {
            continue;
        }
        // A move number may be glued to its move: `1.11-15`, `12...23x14`.
        let mv = match token.rfind('.') {
            Some(dot) if is_move_number(&token[..=dot]) => &token[dot + 1..],
            _ => token.as_str(),
        };
        let mv = mv.trim_end_matches(['!', '?']);
        if mv.is_empty() {
            continue;
        }
        if record.moves.len() == MAX_RECORD_MOVES {
            return Err(PdnError::Syntax {
                line,
                problem: format!("a game holds at most {MAX_RECORD_MOVES} moves"),
            });
        }
        record.moves.push(mv.to_owned());
    }
    record.result = result_tag
        .or(result_token)
        .flatten()
        .map(|result| RecordResult {
            reason: termination,
            ..result
        });
    let positions = record.replay()?;
    // Store the standard form of each move, whatever form the file used.
    record.moves = positions
        .windows(2)
        .zip(&record.moves)
        .map(|(pair, text)| {
            let mut game = pair[0].clone();
            game.play_text(text).map(|(standard, _)| standard)
        })
        .collect::<Result<_, _>>()
        .map_err(|err| RecordError::Move {
            ply: 0,
            text: String::new(),
            problem: err.to_string(),
        })?;
    Ok(record)
}

/// A result as PDN writes it, including the 2-0 scoring some draughts programs use.
fn read_score(text: &str) -> Result<Option<RecordResult>, String> {
    match text {
        "2-0" => RecordResult::from_score("1-0"),
        "0-2" => RecordResult::from_score("0-1"),
        "1-1" => RecordResult::from_score("1/2-1/2"),
        other => RecordResult::from_score(other),
    }
}

/// A cursor over the PDN bytes that counts lines for error messages.
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        if byte == b'\n' {
            self.line += 1;
        }
        Some(byte)
    }

    fn fail<T>(&self, problem: impl Into<String>) -> Result<T, PdnError> {
        Err(PdnError::Syntax {
            line: self.line,
            problem: problem.into(),
        })
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.bump();
        }
    }

    /// Skips up to and including `end`, or fails with `unterminated`.
    fn skip_past(&mut self, end: u8, unterminated: &str) -> Result<(), PdnError> {
        let line = self.line;
        loop {
            match self.bump() {
                Some(byte) if byte == end => return Ok(()),
                Some(_) => {}
                None => {
                    return Err(PdnError::Syntax {
                        line,
                        problem: unterminated.to_owned(),
                    });
                }
            }
        }
    }

    /// `[Name "value"]`, the cursor on the `[`.
    fn tag(&mut self) -> Result<(String, String), PdnError> {
        let line = self.line;
        let never_ends = |name: &str| PdnError::Syntax {
            line,
            problem: format!("tag {name}: the value never ends"),
        };
        self.bump();
        self.skip_space();
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.bump();
        }
        let name = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
        if name.is_empty() {
            return self.fail("expected a tag like [Event \"...\"]: the name is missing");
        }
        self.skip_space();
        if self.bump() != Some(b'"') {
            return self.fail(format!("tag {name}: expected its value in double quotes"));
        }
        let mut value = Vec::new();
        loop {
            match self.bump() {
                Some(b'"') => break,
                Some(b'\\') => match self.bump() {
                    Some(escaped) => value.push(escaped),
                    None => return Err(never_ends(&name)),
                },
                Some(b'\n') | None => return Err(never_ends(&name)),
                Some(byte) => value.push(byte),
            }
        }
        self.skip_space();
        if self.bump() != Some(b']') {
            return self.fail(format!("tag {name}: expected ] after the value"));
        }
        let Ok(value) = String::from_utf8(value) else {
            return self.fail(format!("tag {name}: the value is not UTF-8 text"));
        };
        Ok((name, value))
    }

    /// The next word of the movetext, comments and variations skipped; `None` at the end of the
    /// game (the end of the text, or the next game's tags).
    fn movetext_token(&mut self) -> Result<Option<String>, PdnError> {
        loop {
            self.skip_space();
            match self.peek() {
                None | Some(b'[') => return Ok(None),
                Some(b'{') => self.skip_past(b'}', "a comment { ... } never ends")?,
                Some(b';') => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.bump();
                    }
                }
                Some(b'(') => self.skip_variation()?,
                Some(b')') => return self.fail("a ) closes no variation"),
                Some(b'$') => {
                    self.bump();
                    while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                        self.bump();
                    }
                }
                Some(_) => {
                    let start = self.at;
                    while self
                        .peek()
                        .is_some_and(|b| !b.is_ascii_whitespace() && !b"{}();[".contains(&b))
                    {
                        self.bump();
                    }
                    let Ok(token) = std::str::from_utf8(&self.text[start..self.at]) else {
                        return self.fail("the moves are not UTF-8 text");
                    };
                    return Ok(Some(token.to_owned()));
                }
            }
        }
    }

    /// Skips a variation `( ... )` with everything nested in it.
    fn skip_variation(&mut self) -> Result<(), PdnError> {
        let line = self.line;
        let mut depth = 0;
        loop {
            match self.bump() {
                Some(b'(') => {
                    depth += 1;
                    if depth > MAX_VARIATION_DEPTH {
                        return self
                            .fail(format!("variations nest deeper than {MAX_VARIATION_DEPTH}"));
                    }
                }
                Some(b')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(b'{') => self.skip_past(b'}', "a comment { ... } never ends")?,
                Some(_) => {}
                None => {
                    return Err(PdnError::Syntax {
                        line,
                        problem: "a variation ( ... ) never ends".to_owned(),
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Side;
    use crate::domain::EndReason;

    fn record(start: Option<&str>, moves: &[&str]) -> GameRecord {
        let mut record = GameRecord::new(GameKind::Checkers);
        record.event = "kingme game 1".into();
        record.date = "2026.11.23".into();
        record.players = ["alice \"the fox\"".into(), "advanced (bot)".into()];
        record.start_position = start.map(str::to_owned);
        record.moves = moves.iter().map(|m| (*m).to_owned()).collect();
        record
    }

    fn round_trip(record: &GameRecord) -> String {
        let pdn = export(record).unwrap();
        let back = import(&pdn).unwrap();
        assert_eq!(back.moves, record.moves, "{pdn}");
        assert_eq!(back.players, record.players);
        assert_eq!(back.event, record.event);
        assert_eq!(back.date, record.date);
        assert_eq!(back.result, record.result);
        assert_eq!(
            back.final_game().unwrap(),
            record.final_game().unwrap(),
            "{pdn}"
        );
        pdn
    }

    #[test]
    fn an_opening_round_trips() {
        let mut game = record(None, &["11-15", "23-19", "8-11", "22-18", "15x22", "25x18"]);
        game.result = Some(RecordResult {
            winner: Some(Side::First),
            reason: Some(EndReason::Resignation),
        });
        let pdn = round_trip(&game);
        assert!(pdn.contains("[Black \"alice \\\"the fox\\\"\"]"), "{pdn}");
        assert!(pdn.contains("[Result \"1-0\"]"), "{pdn}");
        assert!(pdn.contains("[Termination \"resignation\"]"), "{pdn}");
        assert!(!pdn.contains("FEN"), "{pdn}");
        assert!(
            pdn.contains("1. 11-15 23-19 2. 8-11 22-18 3. 15x22 25x18 1-0"),
            "{pdn}"
        );
    }

    #[test]
    fn setup_games_with_multi_jumps_round_trip() {
        // Black's 9 jumps 14 and 23 in one move; White to move first in the second game.
        let jump = record(Some("B:W14,23,31:B9,1"), &["9x27", "31x24"]);
        let pdn = round_trip(&jump);
        assert!(pdn.contains("[SetUp \"1\"]"), "{pdn}");
        assert!(pdn.contains("[FEN \"B:W14,23,31:B1,9\"]"), "{pdn}");
        assert!(pdn.contains("1. 9x27 31x24"), "{pdn}");
        // Two captures join 2 and 18, so the full path is written and read.
        let ambiguous = record(Some("W:W6,7,14,15,29:B2,K32"), &["29-25", "2x11x18"]);
        let pdn = round_trip(&ambiguous);
        assert!(pdn.contains("1... 29-25 2. 2x11x18 *"), "{pdn}");
    }

    #[test]
    fn the_full_path_of_a_multi_jump_is_read_and_stored_in_standard_form() {
        let pdn = "[FEN \"B:W14,23:B9\"]\n1. 9x18x27 *";
        assert_eq!(import(pdn).unwrap().moves, vec!["9x27"]);
    }

    #[test]
    fn comments_variations_numbers_and_marks_are_understood() {
        let pdn = "[Event \"club\"]\n[GameType \"21\"]\n\
                   1.11-15 {a classic} 23-19 ; the reply\n\
                   2. 8-11! (2. 9-13 (2. 9-14 22-17) 22-18) $1 22-17?! 1/2-1/2\n\
                   [Event \"next game\"]\n1. 9-13 *";
        let game = import(pdn).unwrap();
        assert_eq!(game.moves, vec!["11-15", "23-19", "8-11", "22-17"]);
        assert_eq!(game.result.map(|r| r.winner), Some(None));
        assert_eq!(game.event, "club");
    }

    #[test]
    fn hostile_pdn_gets_clear_errors() {
        let check = |text: &str, needle: &str| {
            let err = import(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        };
        check("[Event \"x]\n", "line 1: tag Event: the value never ends");
        check("[Event x]", "expected its value in double quotes");
        check("[ \"x\"]", "the name is missing");
        check("[GameType \"20\"]", "GameType 20 is not English checkers");
        check("[Result \"3-0\"]", "expected a result");
        check("1. 11-15 {never closed", "a comment { ... } never ends");
        check("1. 11-15 (1. 9-13", "a variation ( ... ) never ends");
        check("1. 11-15 )", "a ) closes no variation");
        check(&"(".repeat(100), "variations nest deeper than 32");
        check("\n\n1. 11-15 22-18 2. 15-99", "move 3 (\"15-99\")");
        check("1. 11-15 11-15", "move 2");
        check("[FEN \"B:W33:B1\"]", "the start position is not valid");
        check(&" ".repeat(MAX_PDN + 1), "at most");
        let long: String = "1. 1-5 ".repeat(MAX_RECORD_MOVES + 1);
        check(&long, "at most 10000 moves");
    }

    #[test]
    fn other_games_are_not_pdn() {
        assert_eq!(
            export(&GameRecord::new(GameKind::Pente)),
            Err(PdnError::NotCheckers(GameKind::Pente))
        );
    }
}
