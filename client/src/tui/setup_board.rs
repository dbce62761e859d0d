//! The Setup board of the create dialog: placing pieces one by one on an empty board, as the
//! classic programs' Setup mode does. It cycles a square through the game's piece kinds for
//! both sides and checks the result with the game's own rules ([`AnyGame::from_pieces`]).

use crate::game::board_geometry::{BoardGeometry, Cell};
use kingme_shared::board_view::BoardPiece;
use kingme_shared::{AnyGame, GameKind, Side};
use std::collections::BTreeMap;

/// Pieces placed so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupBoard {
    /// The game.
    pub kind: GameKind,
    /// The pieces placed so far, by square.
    pub pieces: BTreeMap<u16, BoardPiece>,
    /// The cell the cursor is on.
    pub cursor: Cell,
    /// The side to move first.
    pub side_to_move: Side,
}

impl SetupBoard {
    /// An empty board of a game.
    #[must_use]
    pub fn new(kind: GameKind) -> SetupBoard {
        SetupBoard {
            kind,
            pieces: BTreeMap::new(),
            cursor: Cell { row: 0, column: 0 },
            side_to_move: Side::First,
        }
    }

    /// The board as drawn (never flipped while setting up).
    #[must_use]
    pub fn geometry(&self) -> BoardGeometry {
        BoardGeometry::new(self.kind, false)
    }

    /// Moves the cursor by rows and columns, staying on the board.
    pub(crate) fn move_cursor(&mut self, rows: i8, columns: i8) {
        let layout = AnyGame::layout(self.kind);
        self.cursor = step(self.cursor, rows, columns, layout.rows, layout.columns);
    }

    /// Puts the next piece on the square under the cursor: empty, then each of the game's setup
    /// pieces in turn, then empty again. Returns a reason when the cursor is on
    /// a square where no piece can stand.
    pub fn cycle(&mut self) -> Result<(), String> {
        let square = self
            .geometry()
            .square_at(self.cursor)
            .ok_or_else(|| "pieces stand on the dark squares only".to_owned())?;
        let order = AnyGame::setup_pieces(self.kind);
        let next = match self.pieces.get(&square) {
            None => order.first().copied(),
            Some(current) => order
                .iter()
                .position(|p| p == current)
                .and_then(|i| order.get(i + 1).copied()),
        };
        match next {
            Some(piece) => self.pieces.insert(square, piece),
            None => self.pieces.remove(&square),
        };
        Ok(())
    }

    /// The position set up, checked by the game's rules.
    pub fn build(&self) -> Result<AnyGame, String> {
        let pieces: Vec<(u16, BoardPiece)> = self.pieces.iter().map(|(&s, &p)| (s, p)).collect();
        AnyGame::from_pieces(self.kind, &pieces, self.side_to_move).map_err(|err| {
            // The rules' hint is for a FEN ("write K29"); here a person presses Space.
            let text = err.to_string();
            match text.find(" (write K") {
                Some(at) => format!("{}: press Space on it until it shows a king", &text[..at]),
                None => text,
            }
        })
    }
}

/// A cell moved by rows and columns, clamped to a board of `rows` x `columns`.
#[must_use]
pub(crate) fn step(cell: Cell, rows: i8, columns: i8, max_rows: u8, max_columns: u8) -> Cell {
    let clamp = |value: u8, delta: i8, max: u8| -> u8 {
        let moved = i16::from(value) + i16::from(delta);
        moved.clamp(0, i16::from(max) - 1) as u8
    };
    Cell {
        row: clamp(cell.row, rows, max_rows),
        column: clamp(cell.column, columns, max_columns),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_cycle_and_the_position_is_checked() {
        let mut setup = SetupBoard::new(GameKind::Checkers);
        assert!(setup.cycle().is_err(), "top left is a light square");
        setup.move_cursor(0, 1);
        setup.cycle().expect("square 1");
        assert_eq!(setup.pieces.get(&1).map(|p| p.side), Some(Side::First));
        // A Black man on square 1 is fine (Black's own back row); a White man there is not.
        setup.cycle().expect("black king");
        setup.cycle().expect("white man");
        let err = setup.build().expect_err("a White man on its crowning row");
        assert!(err.contains("1"), "{err}");
        // In the person's terms: the key to press, not the FEN to write.
        assert!(
            err.contains("press Space") && !err.contains("write"),
            "{err}"
        );
        setup.cycle().expect("white king");
        let game = setup.build().expect("a White king on 1");
        assert_eq!(game.position_text(), "B:WK1:B");
        setup.cycle().expect("empty again");
        assert!(setup.pieces.is_empty());
        setup.move_cursor(-5, 20);
        assert_eq!(setup.cursor, Cell { row: 0, column: 7 });
    }

    #[test]
    fn noughts_and_crosses_places_crosses_and_noughts() {
        let mut setup = SetupBoard::new(GameKind::TicTacToe);
        setup.cycle().expect("X");
        setup.move_cursor(1, 1);
        setup.cycle().expect("X");
        setup.cycle().expect("O");
        assert_eq!(setup.build().expect("legal").position_text(), "X---O----");
    }
}
