//! The noughts-and-crosses game state and its [`Game`] implementation.

use super::board::{Board, FULL};
use super::notation::{parse_square, square_text};
use crate::board_view::{BoardLayout, BoardPiece, PieceKind, Surface};
use crate::game::{
    DrawReason, Game, MoveEffect, MoveError, Outcome, PositionError, Side, WinReason,
};
use crate::game_kind::GameKind;

/// A square, 0-based: bit index into the masks (square number minus one).
pub type Square = u8;

/// A noughts-and-crosses position. The side to move follows from the stone counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    board: Board,
}

impl TicTacToe {
    /// The two masks (X, O).
    #[must_use]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The mask of legal destination squares (empty while the game goes on).
    #[must_use]
    pub fn legal_mask(&self) -> u16 {
        if self.outcome().is_some() {
            0
        } else {
            self.board.empty()
        }
    }

    /// Places the side to move's stone without checking legality: for searches that generated
    /// the move themselves.
    pub fn play_unchecked(&mut self, square: Square) {
        let side = self.side_to_move().index();
        self.board.stones[side] |= 1 << square;
    }

    /// Removes a stone placed by [`TicTacToe::play_unchecked`].
    pub fn undo_unchecked(&mut self, square: Square) {
        let mask = !(1u16 << square);
        self.board.stones[0] &= mask;
        self.board.stones[1] &= mask;
    }

    /// Which side holds a square, if any.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<Side> {
        let bit = 1u16 << square;
        if self.board.stones[0] & bit != 0 {
            Some(Side::First)
        } else if self.board.stones[1] & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }
}

impl Game for TicTacToe {
    type Move = Square;
    const KIND: GameKind = GameKind::TicTacToe;

    fn layout() -> BoardLayout {
        BoardLayout {
            rows: 3,
            columns: 3,
            surface: Surface::Squares { checkered: false },
            column_labels: &["a", "b", "c"],
            row_labels: &["3", "2", "1"],
            bottom_side: None,
        }
    }

    fn square_at(row: u8, column: u8) -> Option<u16> {
        (row < 3 && column < 3).then(|| u16::from(row * 3 + column) + 1)
    }

    fn cell_of(square: u16) -> Option<(u8, u8)> {
        let index = u8::try_from(square.checked_sub(1)?)
            .ok()
            .filter(|&i| i < 9)?;
        Some((index / 3, index % 3))
    }

    fn square_name(square: u16) -> String {
        square.to_string()
    }

    fn piece_on(&self, square: u16) -> Option<BoardPiece> {
        let index = u8::try_from(square.checked_sub(1)?)
            .ok()
            .filter(|&i| i < 9)?;
        self.at(index).map(|side| BoardPiece {
            side,
            kind: match side {
                Side::First => PieceKind::Cross,
                Side::Second => PieceKind::Nought,
            },
        })
    }

    fn setup_pieces() -> &'static [BoardPiece] {
        &[
            BoardPiece {
                side: Side::First,
                kind: PieceKind::Cross,
            },
            BoardPiece {
                side: Side::Second,
                kind: PieceKind::Nought,
            },
        ]
    }

    fn from_pieces(
        pieces: &[(u16, BoardPiece)],
        _side_to_move: Side,
    ) -> Result<Self, PositionError> {
        // The side to move follows from the counts in noughts and crosses.
        let mut cells = ['-'; 9];
        for &(square, piece) in pieces {
            let cell = square
                .checked_sub(1)
                .and_then(|i| cells.get_mut(usize::from(i)))
                .ok_or_else(|| PositionError::new(format!("square {square} is not 1..9")))?;
            *cell = match piece.side {
                Side::First => 'X',
                Side::Second => 'O',
            };
        }
        Self::from_position_text(&cells.iter().collect::<String>())
    }

    fn start() -> Self {
        TicTacToe::default()
    }

    fn side_to_move(&self) -> Side {
        let [x, o] = self.board.stones;
        if x.count_ones() > o.count_ones() {
            Side::Second
        } else {
            Side::First
        }
    }

    fn generate_moves(&self, out: &mut Vec<Square>) {
        out.clear();
        let mut mask = self.legal_mask();
        while mask != 0 {
            out.push(mask.trailing_zeros() as Square);
            mask &= mask - 1;
        }
    }

    fn play(&mut self, mv: &Square) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if *mv > 8 || self.board.empty() & (1 << mv) == 0 {
            return Err(MoveError::Illegal {
                got: square_text(*mv),
                problem: "that square is taken".to_owned(),
                legal: self.legal_move_list(),
            });
        }
        self.play_unchecked(*mv);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in Side::BOTH {
            if self.board.has_line(side.index()) {
                return Some(Outcome::Win {
                    winner: side,
                    reason: WinReason::ThreeInARow,
                });
            }
        }
        (self.board.empty() == 0).then_some(Outcome::Draw {
            reason: DrawReason::FullBoard,
        })
    }

    fn parse_move(&self, text: &str) -> Result<Square, MoveError> {
        let square = parse_square(text)?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if self.board.empty() & (1 << square) == 0 {
            return Err(MoveError::Illegal {
                got: text.trim().to_owned(),
                problem: format!("square {} is taken", square_text(square)),
                legal: self.legal_move_list(),
            });
        }
        Ok(square)
    }

    fn move_text(&self, mv: &Square) -> String {
        square_text(*mv)
    }

    fn move_effect(&self, mv: &Square) -> MoveEffect {
        MoveEffect {
            path: vec![u16::from(*mv) + 1],
            removed: Vec::new(),
        }
    }

    fn from_position_text(text: &str) -> Result<Self, PositionError> {
        let cells: Vec<char> = text.trim().chars().collect();
        if cells.len() != 9 {
            return Err(PositionError::new(format!(
                "expected 9 characters X, O or - row by row from the top left (like XO--X---O), \
                 got {} characters in {text:?}",
                cells.len()
            )));
        }
        let mut board = Board::default();
        for (index, cell) in cells.iter().enumerate() {
            match cell.to_ascii_uppercase() {
                'X' => board.stones[0] |= 1 << index,
                'O' | '0' => board.stones[1] |= 1 << index,
                '-' | '.' | '_' => {}
                other => {
                    return Err(PositionError::new(format!(
                        "character {} of {text:?} is {other:?}: expected X, O or -",
                        index + 1
                    )));
                }
            }
        }
        let (x, o) = (board.stones[0].count_ones(), board.stones[1].count_ones());
        if x != o && x != o + 1 {
            return Err(PositionError::new(format!(
                "impossible position {text:?}: X moves first, so X has as many stones as O or one \
                 more, but X has {x} and O has {o}"
            )));
        }
        let (x_line, o_line) = (board.has_line(0), board.has_line(1));
        if x_line && o_line {
            return Err(PositionError::new(format!(
                "impossible position {text:?}: both sides have three in a row"
            )));
        }
        if x_line && x != o + 1 {
            return Err(PositionError::new(format!(
                "impossible position {text:?}: X has three in a row, so X moved last and has one \
                 stone more than O"
            )));
        }
        if o_line && x != o {
            return Err(PositionError::new(format!(
                "impossible position {text:?}: O has three in a row, so O moved last and has as \
                 many stones as X"
            )));
        }
        debug_assert_eq!(board.stones[0] & board.stones[1] & FULL, 0);
        Ok(TicTacToe { board })
    }

    fn position_text(&self) -> String {
        (0..9)
            .map(|square| match self.at(square) {
                Some(Side::First) => 'X',
                Some(Side::Second) => 'O',
                None => '-',
            })
            .collect()
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "X",
            Side::Second => "O",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> TicTacToe {
        TicTacToe::from_position_text(text).expect(text)
    }

    #[test]
    fn outcomes_follow_the_lines() {
        let cases = [
            ("XXXOO----", Some(Side::First)),
            ("XX-OOO-X-", Some(Side::Second)),
            ("XXOOOXXXO", None),
            ("XO-XO-X--", Some(Side::First)),
        ];
        for (text, winner) in cases {
            let game = position(text);
            assert_eq!(game.outcome().and_then(Outcome::winner), winner, "{text}");
        }
        assert_eq!(
            position("XXOOOXXXO").outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::FullBoard
            })
        );
    }

    #[test]
    fn impossible_positions_are_rejected_with_the_reason() {
        let cases = [
            ("XX-------", "X has 2 and O has 0"),
            ("XXXOOO---", "both sides"),
            ("XXXOO-O--", "X has three in a row"),
            ("XXOOOOOXX", "X has 4 and O has 5"),
            ("XO-", "9 characters"),
            ("XOZ------", "character 3"),
        ];
        for (text, needle) in cases {
            let err = TicTacToe::from_position_text(text)
                .expect_err(text)
                .to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn a_taken_square_is_refused_and_nothing_changes() {
        let mut game = position("X--------");
        let before = game;
        let err = game.parse_move("1").expect_err("taken");
        assert!(err.to_string().contains("square 1 is taken"), "{err}");
        assert!(game.play(&0).is_err());
        assert_eq!(game, before);
        assert_eq!(game.side_to_move(), Side::Second);
    }

    /// In every reachable position, `play_unchecked` agrees with `play` on every legal move and
    /// `undo_unchecked` takes it back exactly.
    #[test]
    fn unchecked_play_and_undo_agree_with_play_everywhere() {
        fn walk(game: TicTacToe, visited: &mut u32) {
            *visited += 1;
            for square in game.legal_moves() {
                let mut checked = game;
                checked.play(&square).expect("legal");
                let mut unchecked = game;
                unchecked.play_unchecked(square);
                assert_eq!(checked, unchecked, "{} + {square}", game.position_text());
                unchecked.undo_unchecked(square);
                assert_eq!(unchecked, game);
                walk(checked, visited);
            }
        }
        let mut visited = 0;
        walk(TicTacToe::start(), &mut visited);
        assert!(visited > 9, "the walk went past the first moves: {visited}");
    }

    #[test]
    fn no_moves_after_a_win() {
        let game = position("XXXOO----");
        assert!(game.legal_moves().is_empty());
        assert_eq!(game.parse_move("9"), Err(MoveError::GameOver));
    }
}
