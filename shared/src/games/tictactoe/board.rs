//! The bitboard: two 9-bit masks, one per side, and the eight winning lines, as in the classic
//! design. Bit `i` is square `i + 1` (row by row from the top left).

/// The eight lines of three: rows, columns, diagonals.
pub const WIN_LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// All nine squares.
pub const FULL: u16 = 0b111_111_111;

/// The stones of both sides; index 0 is X (the first side), 1 is O.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each side's marks as a bit per square, X first.
    pub stones: [u16; 2],
}

impl Board {
    /// The squares nobody holds.
    #[must_use]
    pub fn empty(self) -> u16 {
        FULL & !(self.stones[0] | self.stones[1])
    }

    /// Whether a side's stones include a whole line.
    #[must_use]
    pub fn has_line(self, side: usize) -> bool {
        let mine = self.stones[side];
        WIN_LINES.iter().any(|&line| line & !mine == 0)
    }
}
