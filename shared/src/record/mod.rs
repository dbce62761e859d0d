//! A finished or unfinished game as a record: who played which side, where it started, the moves
//! in order, and how it ended. It is what the server stores, what `kingme export` writes (PDN for
//! checkers in [`pdn`], the text record of [`text`] for every game, its date in PDN's form in
//! [`date`]) and what `kingme replay` steps through.
//!
//! A record is only text until it is replayed: [`GameRecord::replay`] plays every move through the
//! rules, so a record read from a file or a database can never produce a position the rules did
//! not.

pub mod date;
pub mod pdn;
pub mod result;
pub mod text;

pub use date::{UNKNOWN_DATE, utc_date};
pub use result::{RecordResult, end_reason_code, parse_end_reason_code};

use crate::any_game::{AnyGame, GameKind};
use crate::games::spec::GameSpec;
use serde::{Deserialize, Serialize};

/// Most moves a record may hold. Pente ends within 361 plies and noughts and crosses within 9;
/// checkers games are bounded by the forty-move rule, and real ones stay far below this.
pub const MAX_RECORD_MOVES: usize = 10_000;

/// One game as a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game and the rules it was played under.
    pub spec: GameSpec,
    /// What the game was part of, e.g. `kingme game 12`.
    pub event: String,
    /// The day it started, `YYYY.MM.DD` (`????.??.??` when unknown).
    pub date: String,
    /// The players' names, first side first (checkers: Black, White).
    pub players: [String; 2],
    /// The start position in the game's own position text, `None` for the standard start.
    pub start_position: Option<String>,
    /// Every move in the game's standard notation, in order.
    #[serde(deserialize_with = "crate::grown_list::deserialize")]
    pub moves: Vec<String>,
    /// How the game ended, `None` while it goes on.
    pub result: Option<RecordResult>,
}

/// A record that does not replay: its start position or one of its moves is refused by the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the start position is not valid: {0}")]
    /// The start position is refused, as said.
    StartPosition(String),
    /// `ply` counts from 1.
    #[error("move {ply} ({text:?}) cannot be played: {problem}")]
    Move {
        /// The move's number, from 1.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why the rules refuse it.
        problem: String,
    },
    #[error("a record holds at most {MAX_RECORD_MOVES} moves, this one has {0}")]
    /// More moves than a record may hold.
    TooLong(usize),
}

impl GameRecord {
    /// An empty record of a game starting from the standard start.
    #[must_use]
    pub fn new(spec: impl Into<GameSpec>) -> GameRecord {
        GameRecord {
            spec: spec.into(),
            event: String::new(),
            date: UNKNOWN_DATE.to_owned(),
            players: [String::new(), String::new()],
            start_position: None,
            moves: Vec::new(),
            result: None,
        }
    }

    /// The game at its start position.
    pub fn start_game(&self) -> Result<AnyGame, RecordError> {
        self.spec
            .start(self.start_position.as_deref())
            .map_err(|err| RecordError::StartPosition(err.to_string()))
    }

    /// Which game the record is of.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.spec.kind()
    }

    /// Every position of the game, the start first and then one after each move, each move
    /// checked by the rules.
    pub fn replay(&self) -> Result<Vec<AnyGame>, RecordError> {
        if self.moves.len() > MAX_RECORD_MOVES {
            return Err(RecordError::TooLong(self.moves.len()));
        }
        let mut game = self.start_game()?;
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        positions.push(game.clone());
        for (index, text) in self.moves.iter().enumerate() {
            game.play_text(text).map_err(|err| RecordError::Move {
                ply: index + 1,
                text: text.clone(),
                problem: err.to_string(),
            })?;
            positions.push(game.clone());
        }
        Ok(positions)
    }

    /// The game after its last move.
    pub fn final_game(&self) -> Result<AnyGame, RecordError> {
        let mut positions = self.replay()?;
        // `replay` always holds the start position, so `pop` cannot come back empty.
        positions.pop().ok_or(RecordError::TooLong(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Side;

    #[test]
    fn replay_checks_every_move_and_names_the_bad_one() {
        let mut record = GameRecord::new(GameKind::TicTacToe);
        record.moves = vec!["5".into(), "1".into(), "5".into()];
        let err = record.replay().unwrap_err();
        assert!(
            matches!(&err, RecordError::Move { ply: 3, text, .. } if text == "5"),
            "{err}"
        );
        record.moves.pop();
        let positions = record.replay().unwrap();
        assert_eq!(positions.len(), 3);
        assert_eq!(positions[2].side_to_move(), Side::First);
    }

    #[test]
    fn a_bad_start_position_is_refused() {
        let mut record = GameRecord::new(GameKind::Checkers);
        record.start_position = Some("B:W99:B1".into());
        assert!(matches!(
            record.replay(),
            Err(RecordError::StartPosition(_))
        ));
    }

    #[test]
    fn pente_records_keep_their_rule() {
        let mut record = GameRecord::new("pente-free".parse::<GameSpec>().unwrap());
        // Without the tournament rule the first player's second stone may stand next to the
        // centre; with it, that move is refused.
        record.moves = vec!["K10".into(), "A1".into(), "K11".into()];
        assert!(record.replay().is_ok());
        record.spec = GameSpec::standard(GameKind::Pente);
        assert!(record.replay().is_err());
    }
}
