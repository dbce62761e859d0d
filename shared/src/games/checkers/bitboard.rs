//! The geometry of the 32 dark squares as 32-bit masks: which bit is which square, and the four
//! diagonal steps as shifts, as in the classic bitboard design.
//!
//! Bit `i` is square `i + 1` in standard notation. Rows are counted from Black's side (squares
//! 1..4 are row 0, 29..32 row 7). On even rows the dark squares are the 2nd, 4th, 6th and 8th
//! columns, on odd rows the 1st, 3rd, 5th and 7th, so a diagonal step is a shift by 3, 4 or 5
//! depending on the row's parity; the masks below pick the right shift and drop steps that would
//! leave the board. "Down" means towards higher square numbers (Black's forward direction).
//! Everything here is branch-free so that move generation works on whole sets of pieces at once.

/// Rows 0, 2, 4, 6 (squares 1..4, 9..12, 17..20, 25..28).
pub const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// Rows 1, 3, 5, 7.
pub const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// The right-hand edge squares on even rows (4, 12, 20, 28), which have no right neighbour.
pub const RIGHT_EDGE: u32 = 0x0808_0808;
/// The left-hand edge squares on odd rows (5, 13, 21, 29), which have no left neighbour.
pub const LEFT_EDGE: u32 = 0x1010_1010;
/// Squares 1..4: where White's men are crowned.
pub const TOP_ROW: u32 = 0x0000_000F;
/// Squares 29..32: where Black's men are crowned.
pub const BOTTOM_ROW: u32 = 0xF000_0000;

/// One step down and to the left of every square in `squares` that has such a neighbour.
#[inline(always)]
#[must_use]
pub const fn down_left(squares: u32) -> u32 {
    ((squares & EVEN_ROWS) << 4) | ((squares & ODD_ROWS & !LEFT_EDGE) << 3)
}

/// One step down and to the right.
#[inline(always)]
#[must_use]
pub const fn down_right(squares: u32) -> u32 {
    ((squares & EVEN_ROWS & !RIGHT_EDGE) << 5) | ((squares & ODD_ROWS) << 4)
}

/// One step up and to the left.
#[inline(always)]
#[must_use]
pub const fn up_left(squares: u32) -> u32 {
    ((squares & EVEN_ROWS) >> 4) | ((squares & ODD_ROWS & !LEFT_EDGE) >> 5)
}

/// One step up and to the right.
#[inline(always)]
#[must_use]
pub const fn up_right(squares: u32) -> u32 {
    ((squares & EVEN_ROWS & !RIGHT_EDGE) >> 3) | ((squares & ODD_ROWS) >> 4)
}

/// A diagonal direction. Each has a step function and its reverse, so the origins of moves can
/// be found from their targets without looping over pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Toward the bottom of the board and the left.
    DownLeft,
    /// Toward the bottom of the board and the right.
    DownRight,
    /// Toward the top of the board and the left.
    UpLeft,
    /// Toward the top of the board and the right.
    UpRight,
}

impl Direction {
    /// All four, the two downward ones first.
    pub const ALL: [Direction; 4] = [
        Direction::DownLeft,
        Direction::DownRight,
        Direction::UpLeft,
        Direction::UpRight,
    ];

    /// One step in this direction from every square in `squares`.
    #[inline(always)]
    #[must_use]
    pub const fn step(self, squares: u32) -> u32 {
        match self {
            Direction::DownLeft => down_left(squares),
            Direction::DownRight => down_right(squares),
            Direction::UpLeft => up_left(squares),
            Direction::UpRight => up_right(squares),
        }
    }

    /// The opposite direction.
    #[inline(always)]
    #[must_use]
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
        }
    }
}

/// Iterates over the bits of a mask as bit indices, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Bits(pub u32);

impl Iterator for Bits {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        // A u32 has at most 32 trailing zeros, so the index always fits in a u8.
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbours of a square (1-based) in a direction, as 1-based numbers (0 for none).
    fn neighbour(square: u32, direction: Direction) -> u32 {
        let to = direction.step(1 << (square - 1));
        if to == 0 { 0 } else { to.trailing_zeros() + 1 }
    }

    #[test]
    fn steps_follow_standard_numbering() {
        // (square, down-left, down-right, up-left, up-right); 0 is off the board.
        let cases = [
            (1, 5, 6, 0, 0),
            (4, 8, 0, 0, 0),
            (5, 0, 9, 0, 1),
            (6, 9, 10, 1, 2),
            (12, 16, 0, 8, 0),
            (13, 0, 17, 0, 9),
            (28, 32, 0, 24, 0),
            (29, 0, 0, 0, 25),
            (32, 0, 0, 27, 28),
        ];
        for (square, dl, dr, ul, ur) in cases {
            let got = Direction::ALL.map(|direction| neighbour(square, direction));
            assert_eq!(got, [dl, dr, ul, ur], "square {square}");
        }
    }

    #[test]
    fn every_step_is_undone_by_its_reverse() {
        for square in 1..=32 {
            for direction in Direction::ALL {
                let to = direction.step(1 << (square - 1));
                if to != 0 {
                    assert_eq!(direction.reverse().step(to), 1 << (square - 1));
                }
            }
        }
    }

    #[test]
    fn bits_lists_set_bits_in_order() {
        assert_eq!(Bits(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(Bits(0).count(), 0);
    }
}
