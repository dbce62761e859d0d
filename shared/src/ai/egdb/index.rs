//! Where a checkers position lives in the database: positions are grouped in slices by their
//! piece counts (Black men, Black kings, White men, White kings), and inside a slice each group
//! of pieces is a set of squares ranked in colexicographic order, so an index is a few binomial
//! sums and nothing is stored to find it. Ranks ignore the other groups, so some indices name
//! impossible boards (two pieces on one square, a man on its crowning row); they are kept as
//! "not a position" and cost a little space for a plain, fast index.

use crate::game::Side;
use crate::games::checkers::{Position, crowning_row};

/// `BINOMIAL[n][k]` = n choose k, for n up to 32.
const BINOMIAL: [[u64; 33]; 33] = {
    let mut table = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

/// n choose k over the 32 squares.
#[must_use]
pub fn choose(n: u32, k: u32) -> u64 {
    if k > n || n > 32 {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// The piece counts that name a slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Counts {
    pub black_men: u8,
    pub black_kings: u8,
    pub white_men: u8,
    pub white_kings: u8,
}

impl Counts {
    /// The counts of a position.
    #[must_use]
    pub fn of(position: &Position) -> Counts {
        let kings = position.kings();
        let count = |mask: u32| mask.count_ones() as u8;
        Counts {
            black_men: count(position.black() & !kings),
            black_kings: count(position.black() & kings),
            white_men: count(position.white() & !kings),
            white_kings: count(position.white() & kings),
        }
    }

    /// All pieces on the board.
    #[must_use]
    pub fn total(self) -> u32 {
        u32::from(self.black_men)
            + u32::from(self.black_kings)
            + u32::from(self.white_men)
            + u32::from(self.white_kings)
    }

    fn groups(self) -> [u32; 4] {
        [
            u32::from(self.black_men),
            u32::from(self.black_kings),
            u32::from(self.white_men),
            u32::from(self.white_kings),
        ]
    }

    /// Entries in the slice: every rank of every group, for both sides to move.
    #[must_use]
    pub fn entries(self) -> u64 {
        self.groups()
            .iter()
            .map(|&k| choose(32, k))
            .product::<u64>()
            * 2
    }

    /// Every slice with `total` pieces in which both sides have at least one piece.
    #[must_use]
    pub fn with_total(total: u32) -> Vec<Counts> {
        let mut slices = Vec::new();
        for black in 1..total {
            let white = total - black;
            for black_kings in 0..=black {
                for white_kings in 0..=white {
                    slices.push(Counts {
                        black_men: (black - black_kings) as u8,
                        black_kings: black_kings as u8,
                        white_men: (white - white_kings) as u8,
                        white_kings: white_kings as u8,
                    });
                }
            }
        }
        slices
    }
}

/// The colexicographic rank of a set of squares among sets of its size.
fn rank(mut set: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        let square = set.trailing_zeros();
        rank += choose(square, i);
        set &= set - 1;
        i += 1;
    }
    rank
}

/// The set of `k` squares with colexicographic rank `rank`.
fn unrank(mut rank: u64, k: u32) -> u32 {
    let mut set = 0;
    for i in (1..=k).rev() {
        // The largest square s with choose(s, i) <= rank.
        let mut square = i - 1;
        while choose(square + 1, i) <= rank {
            square += 1;
        }
        rank -= choose(square, i);
        set |= 1 << square;
    }
    set
}

/// The index of a position in its slice.
#[must_use]
pub fn index_of(position: &Position) -> u64 {
    let kings = position.kings();
    let sets = [
        position.black() & !kings,
        position.black() & kings,
        position.white() & !kings,
        position.white() & kings,
    ];
    let mut index = 0;
    for set in sets {
        index = index * choose(32, set.count_ones()) + rank(set);
    }
    index * 2 + u64::from(position.side_to_move() == Side::Second)
}

/// The position at `index` of a slice, or `None` where the index names no legal board.
#[must_use]
pub fn position_at(counts: Counts, index: u64) -> Option<Position> {
    let side = if index.is_multiple_of(2) {
        Side::First
    } else {
        Side::Second
    };
    let mut rest = index / 2;
    let mut sets = [0u32; 4];
    for (slot, &k) in counts.groups().iter().enumerate().rev() {
        let size = choose(32, k);
        sets[slot] = unrank(rest % size, k);
        rest /= size;
    }
    let [black_men, black_kings, white_men, white_kings] = sets;
    let all = black_men | black_kings | white_men | white_kings;
    if all.count_ones() != counts.total()
        || black_men & crowning_row(Side::First) != 0
        || white_men & crowning_row(Side::Second) != 0
    {
        return None;
    }
    Position::from_parts(
        black_men | black_kings,
        white_men | white_kings,
        black_kings | white_kings,
        side,
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_round_trip_and_count_every_set() {
        for k in 0..=3u32 {
            let size = choose(32, k);
            for r in (0..size).step_by(7) {
                let set = unrank(r, k);
                assert_eq!(set.count_ones(), k);
                assert_eq!(rank(set), r);
            }
        }
        assert_eq!(choose(32, 2), 496);
    }

    #[test]
    fn every_position_of_a_slice_sits_at_its_own_index() {
        let counts = Counts {
            black_men: 1,
            black_kings: 0,
            white_men: 0,
            white_kings: 2,
        };
        let mut valid = 0;
        for index in 0..counts.entries() {
            if let Some(position) = position_at(counts, index) {
                assert_eq!(index_of(&position), index);
                assert_eq!(Counts::of(&position), counts);
                valid += 1;
            }
        }
        // The man on 28 squares, the two kings on two of the other 31, either side to move.
        assert_eq!(valid, 28 * 465 * 2);
    }
}
