//! The squares the evaluation's terms look at, as masks of the 32 playable squares (bit `n - 1`
//! is square `n`; Black starts on 1 to 12 and moves towards 32), computed at compile time.

use crate::games::checkers::Direction;

/// Black's back-row squares that stop most crownings (1 and 3), and White's (30 and 32).
pub const BLACK_GUARD: u32 = (1 << 0) | (1 << 2);
/// White's bridge squares, 30 and 32.
pub const WHITE_GUARD: u32 = (1 << 29) | (1 << 31);

/// Black's back row, 1 to 4.
pub const BLACK_BACK_ROW: u32 = 0x0000_000F;
/// White's back row, 29 to 32.
pub const WHITE_BACK_ROW: u32 = 0xF000_0000;

/// The eight central squares: 10, 11, 14, 15, 18, 19, 22, 23.
pub const CENTRE: u32 =
    (1 << 9) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 21) | (1 << 22);

/// The two double corners: 1 and 5, 28 and 32.
pub const DOUBLE_CORNERS: u32 = (1 << 0) | (1 << 4) | (1 << 27) | (1 << 31);

/// The edge squares, where a king controls only two diagonals.
pub const EDGES: u32 = 0x0000_000F | 0xF000_0000 | 0x1010_1010 | 0x0808_0808;

/// Black's dog hole, 28, and the White man on 32 that keeps a Black man there from moving.
pub const BLACK_DOG_HOLE: (u32, u32) = (1 << 27, 1 << 31);
/// White's dog hole, 5, and the Black man on 1 that keeps a White man there from moving.
pub const WHITE_DOG_HOLE: (u32, u32) = (1 << 4, 1 << 0);

/// For each square, the squares a Black man there could ever reach going forward: the cone that
/// widens a square each way a row. The evaluation counts runaway men without these tables (see
/// `runaways`); the tests compare it with them.
#[cfg(test)]
pub const BLACK_CONES: [u32; 32] = cones([Direction::DownLeft, Direction::DownRight]);
/// The same for a White man, going up the board.
#[cfg(test)]
pub const WHITE_CONES: [u32; 32] = cones([Direction::UpLeft, Direction::UpRight]);

/// The squares next to any of `squares`, diagonally.
#[inline(always)]
#[must_use]
pub const fn neighbours(squares: u32) -> u32 {
    Direction::DownLeft.step(squares)
        | Direction::DownRight.step(squares)
        | Direction::UpLeft.step(squares)
        | Direction::UpRight.step(squares)
}

/// Each square's forward cone for a man that steps in `forward`.
#[cfg(test)]
const fn cones(forward: [Direction; 2]) -> [u32; 32] {
    let mut cones = [0; 32];
    let mut square = 0;
    while square < 32 {
        let mut frontier = 1u32 << square;
        let mut cone = 0;
        let mut row = 0;
        while row < 8 {
            frontier = forward[0].step(frontier) | forward[1].step(frontier);
            cone |= frontier;
            row += 1;
        }
        cones[square] = cone;
        square += 1;
    }
    cones
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cones_widen_a_square_each_way_a_row() {
        // Black's man on 1 (row 0, column 1): 5 and 6 on the next row, then the squares within
        // r columns of it on row r: 2, 2, 3, 3, 4, 4, 4.
        assert_eq!(BLACK_CONES[0] & 0xF0, (1 << 4) | (1 << 5));
        assert_eq!(BLACK_CONES[0].count_ones(), 2 + 2 + 3 + 3 + 4 + 4 + 4);
        // A man on its crowning row has nowhere to go; one a row before it has two squares.
        assert_eq!(BLACK_CONES[31], 0);
        assert_eq!(WHITE_CONES[0], 0);
        assert_eq!(WHITE_CONES[4], 1 << 0);
        // The colours mirror: square n for Black is square 33 - n for White, turned round.
        for square in 0..32 {
            assert_eq!(
                BLACK_CONES[square].reverse_bits(),
                WHITE_CONES[31 - square],
                "square {}",
                square + 1
            );
        }
    }

    #[test]
    fn neighbours_are_diagonal_steps() {
        // Square 1's neighbours are 5 and 6; square 5's are 1 and 9.
        assert_eq!(neighbours(1 << 0), (1 << 4) | (1 << 5));
        assert_eq!(neighbours(1 << 4), (1 << 0) | (1 << 8));
    }
}
