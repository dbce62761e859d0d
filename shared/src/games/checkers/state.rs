//! The checkers game: a [`Position`] plus the history the draw rules need, and its
//! [`Game`] implementation.
//!
//! Draw rules as implemented:
//! - Threefold repetition: the game is drawn when the same position (same pieces, same side to
//!   move) stands on the board for the third time.
//! - The forty-move rule: the game is drawn when 80 plies in a row (40 moves by each side) have
//!   been played with no capture and no move of an uncrowned man. A man's move that crowns it
//!   counts as a man's move.
//!
//! Both rules look only at positions since the last capture or man's move: such a move can never
//! be undone, so no earlier position can come back. That history is therefore at most 81
//! positions long. A side with no legal move loses, and that is checked first: when the 80th
//! quiet ply also leaves the opponent without a move, the game is won, not drawn.

use super::fen::{fen, parse_fen};
use super::movegen::{for_each_move, has_moves, push_moves};
use super::moves::Move;
use super::notation::{full_move_text, legal_move_list, move_text, parse_move};
use super::perft::perft;
use super::position::{Position, side_name};
use crate::any_game::GameKind;
use crate::game::{
    DrawReason, Game, MoveEffect, MoveError, Outcome, PositionError, Side, WinReason,
};

/// Plies without a capture or a man's move after which the game is drawn (40 moves each).
pub const FORTY_MOVE_PLIES: usize = 80;

/// How many times the same position must occur for a draw.
pub const REPETITIONS_FOR_DRAW: usize = 3;

/// A game of English checkers: the position and the history since the last irreversible move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkers {
    position: Position,
    /// Every position since the last capture or man's move, oldest first, ending with the
    /// current one. Never empty.
    history: Vec<Position>,
}

impl Checkers {
    /// A game starting from this position, with no history.
    #[must_use]
    pub fn from_position(position: Position) -> Checkers {
        Checkers {
            position,
            history: vec![position],
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plies played since the last capture or man's move (the forty-move rule's counter).
    #[must_use]
    pub fn quiet_plies(&self) -> usize {
        self.history.len() - 1
    }

    /// How many times the current position has occurred since the last irreversible move,
    /// counting now.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        self.history
            .iter()
            .filter(|&&seen| seen == self.position)
            .count()
    }

    /// The draw by repetition or by the forty-move rule, if one applies.
    fn draw(&self) -> Option<DrawReason> {
        if self.repetitions() >= REPETITIONS_FOR_DRAW {
            Some(DrawReason::Repetition)
        } else if self.quiet_plies() >= FORTY_MOVE_PLIES {
            Some(DrawReason::FortyMoveRule)
        } else {
            None
        }
    }

    fn is_legal(&self, mv: &Move) -> bool {
        let mut legal = false;
        for_each_move(&self.position, |candidate| legal |= candidate == mv);
        legal
    }
}

impl Default for Checkers {
    fn default() -> Self {
        Checkers::from_position(Position::start())
    }
}

impl Game for Checkers {
    type Move = Move;
    const KIND: GameKind = GameKind::Checkers;

    fn start() -> Self {
        Checkers::default()
    }

    fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    fn generate_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.draw().is_none() {
            push_moves(&self.position, out);
        }
    }

    fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal {
                got: full_move_text(mv),
                problem: "it is not one of the legal moves".to_owned(),
                legal: legal_move_list(&self.position),
            });
        }
        let irreversible = mv.is_capture() || self.position.moves_a_man(mv);
        self.position.play_unchecked(mv);
        if irreversible {
            self.history.clear();
        }
        self.history.push(self.position);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if !has_moves(&self.position) {
            return Some(Outcome::Win {
                winner: self.position.side_to_move().opponent(),
                reason: WinReason::NoLegalMoves,
            });
        }
        self.draw().map(|reason| Outcome::Draw { reason })
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.outcome().is_some() {
            // Still report malformed text as such: it is the more useful message.
            super::notation::parse_move_text(text)?;
            return Err(MoveError::GameOver);
        }
        parse_move(&self.position, text)
    }

    fn move_text(&self, mv: &Move) -> String {
        move_text(&self.position, mv)
    }

    fn move_effect(&self, mv: &Move) -> MoveEffect {
        MoveEffect {
            path: mv.path().map(|square| u16::from(square.number())).collect(),
            removed: mv
                .captured_squares()
                .map(|square| u16::from(square.number()))
                .collect(),
        }
    }

    fn from_position_text(text: &str) -> Result<Self, PositionError> {
        parse_fen(text).map(Checkers::from_position)
    }

    fn position_text(&self) -> String {
        fen(&self.position)
    }

    fn side_name(side: Side) -> &'static str {
        side_name(side)
    }

    /// The bulk-counting bitboard perft from the current position; like every perft it follows
    /// the movement rules and ignores the draw rules.
    fn perft(&self, depth: u32) -> u64 {
        perft(&self.position, depth)
    }
}
