//! How a game's board looks to a person: its grid, labels and what stands on each square.
//!
//! User interfaces (the TUI, plain text mode) draw every game with one piece of code through
//! these types and the drawing methods of [`crate::Game`]; only the games themselves know that
//! checkers uses the dark squares of an 8x8 board or that Pente stones sit on intersections.
//! Rows and columns here are those of the game's standard diagram, row 0 at the top.

use crate::side::Side;

/// What the pieces stand on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Squares; `checkered` boards use only the dark ones (where [`crate::Game::square_at`]
    /// answers `Some`).
    /// Squares; `checkered` boards use only the dark ones (where [`crate::Game::square_at`]
    /// answers `Some`).
    Squares {
        /// Whether only every other square is played on.
        checkered: bool,
    },
    /// Points where lines cross, as on a Go board.
    Intersections,
}

/// The shape of a game's board as its standard diagram draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardLayout {
    /// Rows, top to bottom.
    pub rows: u8,
    /// Columns, left to right.
    pub columns: u8,
    /// Squares or intersections.
    pub surface: Surface,
    /// Labels of the columns, left to right.
    pub column_labels: &'static [&'static str],
    /// Labels of the rows, top to bottom.
    pub row_labels: &'static [&'static str],
    /// The side whose pieces start at the bottom of the standard diagram, for games that have
    /// home rows (checkers: White). A user interface flips the board to put the player's own
    /// side at the bottom.
    pub bottom_side: Option<Side>,
}

/// The kinds of pieces the games use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// A checkers man.
    Man,
    /// A crowned checkers piece.
    King,
    /// A Pente stone.
    Stone,
    /// The first player's mark in noughts and crosses.
    Cross,
    /// The second player's mark in noughts and crosses.
    Nought,
}

/// A piece as drawn: whose it is and what kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardPiece {
    /// Whose piece it is.
    pub side: Side,
    /// What kind of piece (a man, a king, a stone, a mark).
    pub kind: PieceKind,
}

impl BoardPiece {
    /// A one-letter form for plain text: the first side in capitals for kings, crosses and
    /// stones is told apart from the second by letter, never by colour alone.
    #[must_use]
    pub fn letter(self) -> char {
        match (self.kind, self.side) {
            (PieceKind::Man, Side::First) => 'b',
            (PieceKind::Man, Side::Second) => 'w',
            (PieceKind::King, Side::First) => 'B',
            (PieceKind::King, Side::Second) => 'W',
            (PieceKind::Stone, Side::First) => 'X',
            (PieceKind::Stone, Side::Second) => 'O',
            (PieceKind::Cross, _) => 'X',
            (PieceKind::Nought, _) => 'O',
        }
    }
}

/// A per-side count shown beside the board, such as Pente's captured pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// What is counted, as shown beside the board.
    pub label: &'static str,
    /// Indexed by [`Side::index`].
    pub counts: [u16; 2],
    /// The count that wins, if reaching it does.
    pub goal: Option<u16>,
}

/// The dark-square geometry of an 8x8 checkered board whose squares are numbered 1..32 row by
/// row from the top, the first dark square of row 0 in column 1 (standard checkers).
pub mod checkered {
    /// The square number at a row and column of the diagram, `None` on light squares.
    #[must_use]
    pub fn square_at(row: u8, column: u8) -> Option<u16> {
        if row >= 8 || column >= 8 || (row + column).is_multiple_of(2) {
            return None;
        }
        Some(u16::from(row) * 4 + u16::from(column / 2) + 1)
    }

    /// The row and column of a square number 1..32.
    #[must_use]
    pub fn cell_of(square: u16) -> Option<(u8, u8)> {
        let index = u8::try_from(square.checked_sub(1)?)
            .ok()
            .filter(|&i| i < 32)?;
        let row = index / 4;
        let column = (index % 4) * 2 + u8::from(row.is_multiple_of(2));
        Some((row, column))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkered_squares_and_cells_agree() {
        for square in 1..=32 {
            let (row, column) = checkered::cell_of(square).expect("on the board");
            assert_eq!(checkered::square_at(row, column), Some(square));
        }
        // Square 1 is the second cell of the top row, 29 the bottom left corner.
        assert_eq!(checkered::cell_of(1), Some((0, 1)));
        assert_eq!(checkered::cell_of(29), Some((7, 0)));
        assert_eq!(checkered::square_at(0, 0), None);
        assert_eq!(checkered::cell_of(0), None);
        assert_eq!(checkered::cell_of(33), None);
    }
}
