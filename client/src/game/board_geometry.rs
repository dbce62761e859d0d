//! Where squares are on the screen: the mapping between a game's squares and the cells of the
//! drawn board (with the board flipped or not), the cell size that fits the terminal, and mouse
//! hit-testing. The drawing code and the input handling both use it, so a click lands on the
//! square that was drawn there.

use kingme_shared::board_view::{BoardLayout, Surface};
use kingme_shared::{AnyGame, GameKind};
use ratatui::layout::Rect;

/// A cell of the board as displayed: row 0 at the top of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The row on the screen, from the top.
    pub row: u8,
    /// The column on the screen, from the left.
    pub column: u8,
}

/// A game's board as shown: its layout and whether it is turned round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardGeometry {
    /// The game whose board this is.
    pub kind: GameKind,
    /// The board's shape and how its squares are numbered.
    pub layout: BoardLayout,
    /// Turned by half a turn from the standard diagram.
    pub flipped: bool,
}

impl BoardGeometry {
    /// A game's board, flipped or not.
    #[must_use]
    pub fn new(kind: GameKind, flipped: bool) -> BoardGeometry {
        BoardGeometry {
            kind,
            layout: AnyGame::layout(kind),
            flipped,
        }
    }

    /// Whether a player of `side` sees the board flipped by default: their own pieces go to
    /// the bottom in games with home rows.
    #[must_use]
    pub(crate) fn flipped_for(kind: GameKind, side: Option<kingme_shared::Side>) -> bool {
        match (AnyGame::layout(kind).bottom_side, side) {
            (Some(bottom), Some(side)) => bottom != side,
            _ => false,
        }
    }

    fn diagram_cell(&self, cell: Cell) -> Option<(u8, u8)> {
        if cell.row >= self.layout.rows || cell.column >= self.layout.columns {
            return None;
        }
        Some(if self.flipped {
            (
                self.layout.rows - 1 - cell.row,
                self.layout.columns - 1 - cell.column,
            )
        } else {
            (cell.row, cell.column)
        })
    }

    /// The square drawn in a cell, `None` for light squares and cells off the board.
    #[must_use]
    pub(crate) fn square_at(&self, cell: Cell) -> Option<u16> {
        let (row, column) = self.diagram_cell(cell)?;
        AnyGame::square_at(self.kind, row, column)
    }

    /// The cell of a square nearest the middle of the board, where the cursor starts (in
    /// checkers the middle cell itself is a light square, where nothing can stand).
    #[must_use]
    pub(crate) fn middle_square(&self) -> Cell {
        let middle = Cell {
            row: self.layout.rows / 2,
            column: self.layout.columns / 2,
        };
        let distance = |cell: &Cell| {
            let rows = i16::from(cell.row) - i16::from(middle.row);
            let columns = i16::from(cell.column) - i16::from(middle.column);
            (rows.abs() + columns.abs(), rows.abs())
        };
        (0..self.layout.rows)
            .flat_map(|row| (0..self.layout.columns).map(move |column| Cell { row, column }))
            .filter(|cell| self.square_at(*cell).is_some())
            .min_by_key(distance)
            .unwrap_or(middle)
    }

    /// The cell a square is drawn in.
    #[must_use]
    pub fn cell_of(&self, square: u16) -> Option<Cell> {
        let (row, column) = AnyGame::cell_of(self.kind, square)?;
        let cell = Cell { row, column };
        // Flipping is its own inverse.
        self.diagram_cell(cell)
            .map(|(row, column)| Cell { row, column })
    }

    /// Column labels left to right as displayed.
    #[must_use]
    pub(crate) fn column_labels(&self) -> Vec<&'static str> {
        let mut labels = self.layout.column_labels.to_vec();
        if self.flipped {
            labels.reverse();
        }
        labels
    }

    /// Row labels top to bottom as displayed.
    #[must_use]
    pub(crate) fn row_labels(&self) -> Vec<&'static str> {
        let mut labels = self.layout.row_labels.to_vec();
        if self.flipped {
            labels.reverse();
        }
        labels
    }

    /// The cell sizes (width, height in terminal cells) worth trying, largest first.
    fn cell_sizes(&self) -> &'static [(u16, u16)] {
        match self.layout.surface {
            Surface::Squares { .. } if self.layout.rows <= 3 => &[(11, 5), (7, 3), (5, 2), (3, 1)],
            Surface::Squares { .. } => &[(7, 3), (5, 2), (3, 1)],
            Surface::Intersections => &[(4, 2), (3, 1), (2, 1)],
        }
    }

    /// The largest board that fits in `area` with its coordinates around it, or `None` when
    /// even the smallest does not fit.
    #[must_use]
    pub fn fit(&self, area: Rect) -> Option<BoardArea> {
        let (rows, columns) = (u16::from(self.layout.rows), u16::from(self.layout.columns));
        self.cell_sizes().iter().find_map(|&(width, height)| {
            // Row labels take 3 columns on the left; column labels a row above and below.
            let needed_width = LABEL_WIDTH + columns * width;
            let needed_height = 2 + rows * height;
            (needed_width <= area.width && needed_height <= area.height).then_some(BoardArea {
                x: area.x + LABEL_WIDTH,
                y: area.y + 1,
                cell_width: width,
                cell_height: height,
                rows: self.layout.rows,
                columns: self.layout.columns,
            })
        })
    }
}

/// Columns taken by the row labels left of the board.
pub(crate) const LABEL_WIDTH: u16 = 3;

/// Where the board's cells are on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardArea {
    /// The top left of cell (0, 0).
    pub x: u16,
    /// The top of cell (0, 0).
    pub y: u16,
    pub(crate) cell_width: u16,
    pub(crate) cell_height: u16,
    /// How many rows of cells.
    pub rows: u8,
    /// How many columns of cells.
    pub columns: u8,
}

impl BoardArea {
    /// The screen rectangle of a cell.
    #[must_use]
    pub fn cell_rect(&self, cell: Cell) -> Rect {
        Rect {
            x: self.x + u16::from(cell.column) * self.cell_width,
            y: self.y + u16::from(cell.row) * self.cell_height,
            width: self.cell_width,
            height: self.cell_height,
        }
    }

    /// The whole grid of cells, labels excluded.
    #[must_use]
    pub(crate) fn grid(&self) -> Rect {
        Rect {
            x: self.x,
            y: self.y,
            width: u16::from(self.columns) * self.cell_width,
            height: u16::from(self.rows) * self.cell_height,
        }
    }

    /// The cell under a screen position (a mouse click), if it is on the board.
    #[must_use]
    pub(crate) fn hit(&self, x: u16, y: u16) -> Option<Cell> {
        let column = x.checked_sub(self.x)? / self.cell_width;
        let row = y.checked_sub(self.y)? / self.cell_height;
        (row < u16::from(self.rows) && column < u16::from(self.columns)).then_some(Cell {
            row: row as u8,
            column: column as u8,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::Side;

    #[test]
    fn flipping_turns_the_board_round() {
        let upright = BoardGeometry::new(GameKind::Checkers, false);
        let flipped = BoardGeometry::new(GameKind::Checkers, true);
        // Square 1 is top left (second cell) in the diagram and bottom right when flipped.
        assert_eq!(upright.cell_of(1), Some(Cell { row: 0, column: 1 }));
        assert_eq!(flipped.cell_of(1), Some(Cell { row: 7, column: 6 }));
        for square in 1..=32 {
            for geometry in [upright, flipped] {
                let cell = geometry.cell_of(square).expect("a cell");
                assert_eq!(geometry.square_at(cell), Some(square));
            }
        }
        assert_eq!(flipped.column_labels().first(), Some(&"h"));
        assert_eq!(flipped.row_labels().first(), Some(&"1"));
        assert_eq!(upright.square_at(Cell { row: 0, column: 0 }), None);
    }

    #[test]
    fn the_player_sits_at_the_bottom() {
        // White starts at the bottom of the diagram: Black's player sees it flipped.
        assert!(BoardGeometry::flipped_for(
            GameKind::Checkers,
            Some(Side::First)
        ));
        assert!(!BoardGeometry::flipped_for(
            GameKind::Checkers,
            Some(Side::Second)
        ));
        assert!(!BoardGeometry::flipped_for(
            GameKind::Pente,
            Some(Side::Second)
        ));
        assert!(!BoardGeometry::flipped_for(GameKind::Checkers, None));
    }

    #[test]
    fn clicks_land_on_the_drawn_cell() {
        let geometry = BoardGeometry::new(GameKind::TicTacToe, false);
        let area = geometry.fit(Rect::new(10, 5, 40, 20)).expect("fits");
        assert_eq!((area.cell_width, area.cell_height), (11, 5));
        assert_eq!(area.x, 13);
        assert_eq!(area.y, 6);
        assert_eq!(area.hit(13, 6), Some(Cell { row: 0, column: 0 }));
        assert_eq!(
            area.hit(13 + 11, 6 + 5 + 4),
            Some(Cell { row: 1, column: 1 })
        );
        assert_eq!(area.hit(12, 6), None);
        assert_eq!(area.hit(13 + 33, 6), None);
        assert_eq!(area.hit(13, 6 + 15), None);
        assert_eq!(
            area.cell_rect(Cell { row: 2, column: 1 }),
            Rect::new(24, 16, 11, 5)
        );
    }

    #[test]
    fn the_cell_size_shrinks_to_fit_and_gives_up_when_too_small() {
        let pente = BoardGeometry::new(GameKind::Pente, false);
        let big = pente.fit(Rect::new(0, 0, 80, 40)).expect("fits");
        assert_eq!((big.cell_width, big.cell_height), (4, 2));
        let small = pente.fit(Rect::new(0, 0, 45, 21)).expect("fits");
        assert_eq!((small.cell_width, small.cell_height), (2, 1));
        assert_eq!(pente.fit(Rect::new(0, 0, 40, 20)), None);
    }
}
