//! English checkers on an 8x8 array of cells, written from the rules as a person states them:
//!
//! - The board is drawn with Black at the top; the playable (dark) squares are those whose row
//!   and column add up to an odd number, numbered 1..32 row by row from the top left (so square 1
//!   is row 0, column 1 and square 5 is row 1, column 0). Black moves down the board, White up.
//! - A man steps one square diagonally forward; a king one square diagonally in any direction.
//! - A jump goes over an adjacent enemy piece onto the empty square right behind it. If any jump
//!   exists the side must jump (any jump sequence may be chosen, not necessarily the longest).
//!   After a jump the same piece must keep jumping while it can; the whole sequence is one move.
//!   Men jump forward only, kings in any direction.
//! - Jumped pieces are removed when the move ends: until then they can be neither jumped again
//!   nor landed on. The moving piece's own starting square counts as empty during its move.
//! - A man that reaches the far row becomes a king, and its move ends there.
//!
//! A move is its path: the starting square followed by every square landed on.

use std::fmt;

/// A colour of pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// Black, which moves first, down the board.
    Black,
    /// White, up the board.
    White,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// The row direction this colour's men move in: Black down (+1), White up (-1).
    fn forward(self) -> i32 {
        match self {
            Colour::Black => 1,
            Colour::White => -1,
        }
    }

    /// The far row, where this colour's men are crowned.
    fn far_row(self) -> i32 {
        match self {
            Colour::Black => 7,
            Colour::White => 0,
        }
    }
}

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// No piece.
    Empty,
    /// An uncrowned man of that colour.
    Man(Colour),
    /// A king of that colour.
    King(Colour),
}

impl Cell {
    fn colour(self) -> Option<Colour> {
        match self {
            Cell::Empty => None,
            Cell::Man(colour) | Cell::King(colour) => Some(colour),
        }
    }
}

/// A board: the 64 cells (light ones always empty) and the colour to move.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The cells by row (0 is Black's back row) and column.
    pub cells: [[Cell; 8]; 8],
    /// The colour to move.
    pub to_move: Colour,
}

/// A move as the squares it visits, by number 1..32.
pub type Path = Vec<u8>;

/// The number 1..32 of the dark square at (row, column).
#[must_use]
pub fn square_number(row: i32, column: i32) -> u8 {
    (row * 4 + column / 2 + 1) as u8
}

/// The (row, column) of square number 1..32.
#[must_use]
pub fn square_at(number: u8) -> (i32, i32) {
    let index = i32::from(number) - 1;
    let row = index / 4;
    // Even rows (0, 2, ...) start with a light square, so their dark squares are columns 1, 3, 5, 7.
    let column = 2 * (index % 4) + if row % 2 == 0 { 1 } else { 0 };
    (row, column)
}

fn on_board(row: i32, column: i32) -> bool {
    (0..8).contains(&row) && (0..8).contains(&column)
}

impl Board {
    /// The usual start: Black men on the top three rows, White men on the bottom three, Black to
    /// move.
    #[must_use]
    pub fn start() -> Board {
        let mut cells = [[Cell::Empty; 8]; 8];
        for (row, line) in cells.iter_mut().enumerate() {
            for (column, cell) in line.iter_mut().enumerate() {
                if (row + column) % 2 == 1 {
                    if row < 3 {
                        *cell = Cell::Man(Colour::Black);
                    } else if row > 4 {
                        *cell = Cell::Man(Colour::White);
                    }
                }
            }
        }
        Board {
            cells,
            to_move: Colour::Black,
        }
    }

    /// The cell at (row, column), which must be on the board.
    #[must_use]
    pub fn at(&self, row: i32, column: i32) -> Cell {
        self.cells[row as usize][column as usize]
    }

    fn set(&mut self, row: i32, column: i32, cell: Cell) {
        self.cells[row as usize][column as usize] = cell;
    }

    /// The diagonal directions a piece moves and jumps in.
    fn directions(cell: Cell) -> Vec<(i32, i32)> {
        match cell {
            Cell::Man(colour) => vec![(colour.forward(), -1), (colour.forward(), 1)],
            Cell::King(_) => vec![(1, -1), (1, 1), (-1, -1), (-1, 1)],
            Cell::Empty => vec![],
        }
    }

    /// Every legal move, as paths, in no particular order.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Path> {
        let mut jumps = Vec::new();
        let mut steps = Vec::new();
        for row in 0..8 {
            for column in 0..8 {
                let piece = self.at(row, column);
                if piece.colour() != Some(self.to_move) {
                    continue;
                }
                // The piece leaves its square for the whole move.
                let mut without_mover = *self;
                without_mover.set(row, column, Cell::Empty);
                let mut path = vec![square_number(row, column)];
                let mut jumped = [[false; 8]; 8];
                without_mover.find_jumps(piece, row, column, &mut path, &mut jumped, &mut jumps);
                for (dr, dc) in Self::directions(piece) {
                    let (to_row, to_column) = (row + dr, column + dc);
                    if on_board(to_row, to_column) && self.at(to_row, to_column) == Cell::Empty {
                        steps.push(vec![
                            square_number(row, column),
                            square_number(to_row, to_column),
                        ]);
                    }
                }
            }
        }
        if jumps.is_empty() { steps } else { jumps }
    }

    /// Extends the jump sequence in `path` (the piece now on (row, column)) every possible way;
    /// records it in `out` when it cannot go on.
    fn find_jumps(
        &self,
        piece: Cell,
        row: i32,
        column: i32,
        path: &mut Path,
        jumped: &mut [[bool; 8]; 8],
        out: &mut Vec<Path>,
    ) {
        let mut went_on = false;
        for (dr, dc) in Self::directions(piece) {
            let (over_row, over_column) = (row + dr, column + dc);
            let (to_row, to_column) = (row + 2 * dr, column + 2 * dc);
            if !on_board(to_row, to_column) {
                continue;
            }
            let over = self.at(over_row, over_column);
            let enemy = over.colour() == Some(self.to_move.other());
            let already_jumped = jumped[over_row as usize][over_column as usize];
            if !enemy || already_jumped || self.at(to_row, to_column) != Cell::Empty {
                continue;
            }
            went_on = true;
            jumped[over_row as usize][over_column as usize] = true;
            path.push(square_number(to_row, to_column));
            let crowned = matches!(piece, Cell::Man(colour) if to_row == colour.far_row());
            if crowned {
                out.push(path.clone());
            } else {
                self.find_jumps(piece, to_row, to_column, path, jumped, out);
            }
            path.pop();
            jumped[over_row as usize][over_column as usize] = false;
        }
        if !went_on && path.len() > 1 {
            out.push(path.clone());
        }
    }

    /// The board after a legal move given as its path.
    #[must_use]
    pub fn after(&self, path: &[u8]) -> Board {
        let mut board = *self;
        let (mut row, mut column) = square_at(path[0]);
        let piece = board.at(row, column);
        board.set(row, column, Cell::Empty);
        for &square in &path[1..] {
            let (to_row, to_column) = square_at(square);
            if (to_row - row).abs() == 2 {
                board.set((row + to_row) / 2, (column + to_column) / 2, Cell::Empty);
            }
            (row, column) = (to_row, to_column);
        }
        let landed = match piece {
            Cell::Man(colour) if row == colour.far_row() => Cell::King(colour),
            other => other,
        };
        board.set(row, column, landed);
        board.to_move = board.to_move.other();
        board
    }
}

impl fmt::Debug for Board {
    /// The board as a diagram, Black at the top: `b`/`w` men, `B`/`W` kings, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:?} to move", self.to_move)?;
        for line in &self.cells {
            for cell in line {
                let symbol = match cell {
                    Cell::Empty => '.',
                    Cell::Man(Colour::Black) => 'b',
                    Cell::Man(Colour::White) => 'w',
                    Cell::King(Colour::Black) => 'B',
                    Cell::King(Colour::White) => 'W',
                };
                write!(f, "{symbol}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from a list of (square, cell) and the colour to move.
    fn board(pieces: &[(u8, Cell)], to_move: Colour) -> Board {
        let mut board = Board {
            cells: [[Cell::Empty; 8]; 8],
            to_move,
        };
        for &(square, cell) in pieces {
            let (row, column) = square_at(square);
            board.set(row, column, cell);
        }
        board
    }

    fn sorted(mut paths: Vec<Path>) -> Vec<Path> {
        paths.sort();
        paths
    }

    const B: Cell = Cell::Man(Colour::Black);
    const W: Cell = Cell::Man(Colour::White);
    const BK: Cell = Cell::King(Colour::Black);
    const WK: Cell = Cell::King(Colour::White);

    #[test]
    fn numbering_follows_the_standard_diagram() {
        for number in 1..=32 {
            let (row, column) = square_at(number);
            assert_eq!((row + column) % 2, 1, "square {number} is dark");
            assert_eq!(square_number(row, column), number);
        }
        assert_eq!(square_at(1), (0, 1));
        assert_eq!(square_at(5), (1, 0));
        assert_eq!(square_at(32), (7, 6));
    }

    #[test]
    fn the_start_has_seven_moves() {
        let moves = sorted(Board::start().legal_moves());
        let expected: Vec<Path> = [
            [9, 13],
            [9, 14],
            [10, 14],
            [10, 15],
            [11, 15],
            [11, 16],
            [12, 16],
        ]
        .iter()
        .map(|pair| pair.to_vec())
        .collect();
        assert_eq!(moves, expected);
    }

    #[test]
    fn the_rules_hold_in_small_cases() {
        // A capture is compulsory; the jumped man goes.
        let forced = board(&[(14, B), (1, B), (18, W)], Colour::Black);
        assert_eq!(forced.legal_moves(), vec![vec![14, 23]]);
        let after = forced.after(&[14, 23]);
        assert_eq!(after.at(3, 2), Cell::Empty, "square 18 is emptied");
        assert_eq!(after.to_move, Colour::White);
        // Crowning ends the move.
        let crowning = board(&[(22, B), (26, W), (27, W)], Colour::Black);
        assert_eq!(crowning.legal_moves(), vec![vec![22, 31]]);
        let (row, column) = square_at(31);
        assert_eq!(crowning.after(&[22, 31]).at(row, column), BK);
        // A king may go round a loop either way and end where it started.
        let looping = board(
            &[(22, WK), (9, B), (10, B), (17, B), (18, B)],
            Colour::White,
        );
        assert_eq!(
            sorted(looping.legal_moves()),
            vec![vec![22, 13, 6, 15, 22], vec![22, 15, 6, 13, 22]]
        );
        // Men do not capture backwards.
        let backwards = board(&[(22, B), (18, W)], Colour::Black);
        assert_eq!(
            sorted(backwards.legal_moves()),
            vec![vec![22, 25], vec![22, 26]]
        );
    }
}
