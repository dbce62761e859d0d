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
use super::square::Square;
use crate::board_view::{BoardLayout, BoardPiece, PieceKind, Surface, checkered};
use crate::game::{
    DrawReason, Game, MoveEffect, MoveError, Outcome, PositionError, Side, WinReason,
};
use crate::game_kind::GameKind;

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

    /// Every position since the last capture or man's move, oldest first, ending with the
    /// current one: what a search needs to see repetitions coming.
    #[must_use]
    pub fn history(&self) -> &[Position] {
        &self.history
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

    fn layout() -> BoardLayout {
        BoardLayout {
            rows: 8,
            columns: 8,
            surface: Surface::Squares { checkered: true },
            column_labels: &["a", "b", "c", "d", "e", "f", "g", "h"],
            row_labels: &["8", "7", "6", "5", "4", "3", "2", "1"],
            bottom_side: Some(Side::Second),
        }
    }

    fn square_at(row: u8, column: u8) -> Option<u16> {
        checkered::square_at(row, column)
    }

    fn cell_of(square: u16) -> Option<(u8, u8)> {
        checkered::cell_of(square)
    }

    fn square_name(square: u16) -> String {
        square.to_string()
    }

    fn piece_on(&self, square: u16) -> Option<BoardPiece> {
        let square = Square::from_number(u32::from(square))?;
        self.position.piece_at(square).map(|piece| BoardPiece {
            side: piece.side,
            kind: if piece.king {
                PieceKind::King
            } else {
                PieceKind::Man
            },
        })
    }

    fn setup_pieces() -> &'static [BoardPiece] {
        const fn piece(side: Side, kind: PieceKind) -> BoardPiece {
            BoardPiece { side, kind }
        }
        const PIECES: [BoardPiece; 4] = [
            piece(Side::First, PieceKind::Man),
            piece(Side::First, PieceKind::King),
            piece(Side::Second, PieceKind::Man),
            piece(Side::Second, PieceKind::King),
        ];
        &PIECES
    }

    fn from_pieces(
        pieces: &[(u16, BoardPiece)],
        side_to_move: Side,
    ) -> Result<Self, PositionError> {
        let (mut sides, mut kings) = ([0u32; 2], 0u32);
        for &(number, piece) in pieces {
            let square = Square::from_number(u32::from(number))
                .ok_or_else(|| PositionError::new(format!("square {number} is not 1..32")))?;
            match piece.kind {
                PieceKind::Man => {}
                PieceKind::King => kings |= square.bit(),
                other => {
                    return Err(PositionError::new(format!(
                        "checkers has men and kings, not {other:?}"
                    )));
                }
            }
            sides[piece.side.index()] |= square.bit();
        }
        Position::from_parts(sides[0], sides[1], kings, side_to_move).map(Checkers::from_position)
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: &str) -> Checkers {
        Checkers::from_position_text(fen).expect(fen)
    }

    /// The legal moves of a position, as standard texts sorted, joined by ", ".
    fn check_moves(fen: &str, expected: &str) {
        let game = game(fen);
        let mut texts: Vec<String> = game
            .legal_moves()
            .iter()
            .map(|mv| game.move_text(mv))
            .collect();
        texts.sort();
        assert_eq!(texts.join(", "), expected, "legal moves of {fen}");
    }

    fn describe(outcome: Option<Outcome>) -> String {
        match outcome {
            None => "ongoing".to_owned(),
            Some(Outcome::Win { winner, reason }) => {
                format!("{} wins: {reason}", side_name(winner))
            }
            Some(Outcome::Draw { reason }) => format!("draw: {reason}"),
        }
    }

    /// Plays the space-separated moves from a position; checks the outcome and the position.
    fn check(fen: &str, moves: &str, expected_outcome: &str, expected_fen: &str) {
        let mut game = game(fen);
        for text in moves.split_whitespace() {
            let mv = game
                .parse_move(text)
                .unwrap_or_else(|err| panic!("{fen}: {text}: {err}"));
            game.play(&mv)
                .unwrap_or_else(|err| panic!("{fen}: {text}: {err}"));
        }
        assert_eq!(describe(game.outcome()), expected_outcome, "{fen} {moves}");
        assert_eq!(game.position_text(), expected_fen, "{fen} {moves}");
    }

    #[test]
    fn legal_moves_follow_the_rules() {
        // The start: seven steps for Black.
        check_moves(
            "B:W21-32:B1-12",
            "10-14, 10-15, 11-15, 11-16, 12-16, 9-13, 9-14",
        );
        // Forced capture: the men on 1 may not step while 14 can jump.
        check_moves("B:W18:B14,1", "14x23");
        // Choice among captures: the single jump is allowed beside the double.
        check_moves("B:W7,14,23:B2,9", "2x11, 9x27");
        // A multi-jump is one move.
        check_moves("B:W14,23:B9", "9x27");
        // Crowning ends the move: the new king on 31 may not jump 27 at once.
        check_moves("B:W26,27:B22", "22x31");
        // A king does jump on from there.
        check_moves("B:W26,27:BK22", "22x24");
        // Kings capture backwards, men do not.
        check_moves("B:W18:BK22", "22x15");
        check_moves("B:W18:B22", "22-25, 22-26");
        check_moves("W:W22:B18,26", "22x15");
        check_moves("W:W22:BK26", "22-17, 22-18");
        // A king's loop either way round is two moves; the short form 22x22 would be ambiguous.
        check_moves("W:WK22:B9,10,17,18", "22x13x6x15x22, 22x15x6x13x22");
        // The loops must go on over 26; jumping 26 at once is a capture of its own.
        check_moves(
            "W:WK22:B9,10,17,18,26",
            "22x13x6x15x22x31, 22x15x6x13x22x31, 22x31",
        );
        // Two different double jumps from 2 to 18.
        check_moves("B:W6,7,14,15:B2", "2x11x18, 2x9x18");
        // No flying kings: one step at a time.
        check_moves("B:W32:BK1", "1-5, 1-6");
        // A blocked side has no move.
        check_moves("B:W9,14:B5", "");
    }

    /// A king's walk of 40 moves in the top three rows and one in the bottom three, which never
    /// meet and never put a position on the board three times (found by a random search).
    const BLACK_TOUR: &str =
        "1 5 9 6 9 6 9 5 1 6 10 6 10 6 2 7 3 8 4 8 4 8 3 7 3 8 11 7 2 6 1 5 9 5 1 6 10 7 3 7 2";
    const WHITE_TOUR: &str = "32 27 24 28 32 27 31 26 23 26 22 26 30 25 21 25 30 25 22 26 31 27 \
                              31 26 22 26 23 26 22 25 30 26 31 27 24 28 24 28 32 27 23";

    /// The first `plies` moves of the two tours, alternating, Black first.
    fn tours(plies: usize) -> String {
        let steps = |tour: &str| -> Vec<String> {
            let squares: Vec<&str> = tour.split_whitespace().collect();
            squares
                .windows(2)
                .map(|pair| format!("{}-{}", pair[0], pair[1]))
                .collect()
        };
        let (black, white) = (steps(BLACK_TOUR), steps(WHITE_TOUR));
        let moves: Vec<String> = black
            .into_iter()
            .zip(white)
            .flat_map(|(b, w)| [b, w])
            .take(plies)
            .collect();
        moves.join(" ")
    }

    #[test]
    fn outcomes_follow_the_rules() {
        let shuffle = "1-5 32-28 5-1 28-32 1-5 32-28 5-1 28-32";
        let kings = "B:WK32:BK1";
        check(kings, "", "ongoing", kings);
        check(
            kings,
            &shuffle[..shuffle.len() - 6],
            "ongoing",
            "W:WK28:BK1",
        );
        check(kings, shuffle, "draw: threefold repetition", kings);
        check(kings, &tours(79), "ongoing", "W:WK27:BK2");
        check(kings, &tours(80), "draw: the forty-move rule", "B:WK23:BK2");
        check(
            "B:W9,14:B5",
            "",
            "White wins: the opponent has no legal move",
            "B:W9,14:B5",
        );
        check(
            "B:W9:B",
            "",
            "White wins: the opponent has no legal move",
            "B:W9:B",
        );
        check(
            "W:W18:B14",
            "18x9",
            "White wins: the opponent has no legal move",
            "B:W9:B",
        );
        check("B:W14,23,32:B9", "9x27", "ongoing", "W:W32:B27");
        check("B:W26,27:B22", "22x31", "ongoing", "W:W27:BK31");
    }

    #[test]
    fn irreversible_moves_reset_the_draw_counters() {
        let mut game = game("B:WK32:BK1,12");
        for text in tours(40).split_whitespace() {
            let mv = game.parse_move(text).expect(text);
            game.play(&mv).expect(text);
        }
        assert_eq!(game.quiet_plies(), 40);
        let man = game.parse_move("12-16").expect("a man's step");
        game.play(&man).expect("a man's step");
        assert_eq!(game.quiet_plies(), 0);
        assert_eq!(game.repetitions(), 1);

        let mut capture = self::game("B:WK18:BK14,K1");
        let mv = capture.parse_move("14x23").expect("a king's capture");
        capture.play(&mv).expect("a king's capture");
        assert_eq!(capture.quiet_plies(), 0);
    }

    #[test]
    fn an_illegal_move_is_refused_and_nothing_changes() {
        let mut game = game("B:W18:B14,1");
        let before = game.clone();
        let step = Move::step(
            super::super::Square::from_number(1).expect("square 1"),
            super::super::Square::from_number(5).expect("square 5"),
        );
        let err = game.play(&step).expect_err("a capture is compulsory");
        assert!(err.to_string().contains("legal moves: 14x23"), "{err}");
        assert_eq!(game, before);
    }

    #[test]
    fn a_finished_game_takes_no_moves() {
        let game = game("B:W9,14:B5");
        assert!(game.legal_moves().is_empty());
        assert_eq!(game.parse_move("5-9"), Err(MoveError::GameOver));
        assert!(matches!(
            game.parse_move("5-"),
            Err(MoveError::Syntax { .. })
        ));
    }

    #[test]
    fn move_effects_carry_the_whole_path() {
        let game = game("W:WK22:B9,10,17,18");
        let effects: Vec<MoveEffect> = game
            .legal_moves()
            .iter()
            .map(|mv| game.move_effect(mv))
            .collect();
        let expected = [
            MoveEffect {
                path: vec![22, 13, 6, 15, 22],
                removed: vec![17, 9, 10, 18],
            },
            MoveEffect {
                path: vec![22, 15, 6, 13, 22],
                removed: vec![18, 10, 9, 17],
            },
        ];
        for effect in &expected {
            assert!(effects.contains(effect), "{effects:?}");
        }
        assert_eq!(effects.len(), 2);
    }

    #[test]
    fn checkers_plays_through_any_game() {
        use crate::{AnyGame, AnyMove, GameKind};
        let mut any =
            AnyGame::from_position_text(GameKind::Checkers, "W:WK22:B9,10,17,18").expect("a FEN");
        assert_eq!(any.kind(), GameKind::Checkers);
        assert_eq!(any.side_name(any.side_to_move()), "White");
        assert_eq!(any.legal_move_texts(), ["22x13x6x15x22", "22x15x6x13x22"]);
        assert_eq!(any.perft(1), 2);
        let before = any.clone();
        assert!(any.play(&AnyMove::TicTacToe(4)).is_err());
        assert_eq!(any, before);
        let (text, effect) = any.play_text("22x15x6x13x22").expect("a legal capture");
        assert_eq!(text, "22x15x6x13x22");
        assert_eq!(effect.removed, [18, 10, 9, 17]);
        assert_eq!(any.position_text(), "B:WK22:B");
        assert_eq!(
            any.outcome(),
            Some(Outcome::Win {
                winner: Side::Second,
                reason: WinReason::NoLegalMoves
            })
        );
    }

    #[test]
    fn the_generic_perft_agrees_with_the_fast_one() {
        let start = Checkers::start();
        for depth in 0..=6 {
            assert_eq!(
                crate::game::perft(&start, depth),
                start.perft(depth),
                "depth {depth}"
            );
        }
    }
}
