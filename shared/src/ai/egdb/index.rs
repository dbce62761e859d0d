//! Where a checkers position lives in the database. Only positions with Black to move are
//! stored: a position with White to move is turned round (the board rotated half a turn and the
//! colours swapped, [`normalise`]), which changes nothing about who wins. Positions are grouped
//! in slices by their piece counts (Black men, Black kings, White men, White kings) and indexed
//! inside a slice by colexicographic ranks: Black's men among the 28 squares a Black man may
//! stand on, White's men among White's 28, then Black's kings among the squares the men leave
//! free and White's kings among those left after that. Nothing is stored to find an index; the
//! indices where a Black and a White man would share a square name no position and are kept as
//! "not a position", a small waste for a plain, fast index.

use crate::game::Side;
use crate::games::checkers::Position;

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

/// The squares a man may stand on, counted from its own side: all but its crowning row.
const MAN_SQUARES: u32 = 28;

/// The most pieces of one kind a slice map covers (see [`SliceMap`]).
pub const MAX_GROUP: usize = 8;

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
    /// Black's uncrowned pieces.
    pub black_men: u8,
    /// Black's kings.
    pub black_kings: u8,
    /// White's uncrowned pieces.
    pub white_men: u8,
    /// White's kings.
    pub white_kings: u8,
}

impl Counts {
    /// The counts of a position as it is (not turned round).
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

    /// The counts with the colours swapped.
    #[must_use]
    pub fn flipped(self) -> Counts {
        Counts {
            black_men: self.white_men,
            black_kings: self.white_kings,
            white_men: self.black_men,
            white_kings: self.black_kings,
        }
    }

    /// All pieces on the board.
    #[must_use]
    pub fn total(self) -> u32 {
        self.groups().iter().sum()
    }

    /// All men on the board.
    #[must_use]
    pub fn men(self) -> u32 {
        u32::from(self.black_men) + u32::from(self.white_men)
    }

    fn groups(self) -> [u32; 4] {
        [
            u32::from(self.black_men),
            u32::from(self.black_kings),
            u32::from(self.white_men),
            u32::from(self.white_kings),
        ]
    }

    /// The sizes of the four ranks, in index order.
    fn radices(self) -> [u64; 4] {
        let [bm, bk, wm, wk] = self.groups();
        let free = 32u32.saturating_sub(bm + wm);
        [
            choose(MAN_SQUARES, bm),
            choose(MAN_SQUARES, wm),
            choose(free, bk),
            choose(free.saturating_sub(bk), wk),
        ]
    }

    /// Entries in the slice (Black to move only).
    #[must_use]
    pub fn entries(self) -> u64 {
        self.radices().iter().product()
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

    /// Where the slice sits in a [`SliceMap`], if every group fits.
    fn slot(self) -> Option<usize> {
        let groups = self.groups();
        if groups.iter().any(|&g| g as usize > MAX_GROUP) {
            return None;
        }
        Some(
            groups
                .iter()
                .fold(0, |slot, &g| slot * (MAX_GROUP + 1) + g as usize),
        )
    }
}

/// A value for each slice, found by its counts without hashing: a flat table over every count
/// of each kind up to [`MAX_GROUP`] that holds where the slice's value is (two bytes a slot, 13
/// KB, so that a probe's look-up stays in the processor's caches), and the values side by side.
#[derive(Debug, Clone)]
pub struct SliceMap<T> {
    /// For each slot, its value's place in `values`, or [`SliceMap::ABSENT`].
    places: Vec<u16>,
    values: Vec<T>,
}

impl<T> Default for SliceMap<T> {
    fn default() -> Self {
        SliceMap {
            places: vec![Self::ABSENT; (MAX_GROUP + 1).pow(4)],
            values: Vec::new(),
        }
    }
}

impl<T> SliceMap<T> {
    /// The place of a slot without a value (there are fewer slots than this).
    const ABSENT: u16 = u16::MAX;

    /// The value for a slice.
    #[inline]
    #[must_use]
    pub fn get(&self, counts: Counts) -> Option<&T> {
        let place = *self.places.get(counts.slot()?)?;
        self.values.get(usize::from(place))
    }

    /// Sets the value for a slice; `false` if the counts are beyond the map.
    pub fn insert(&mut self, counts: Counts, value: T) -> bool {
        let Some(place) = counts.slot().and_then(|slot| self.places.get_mut(slot)) else {
            return false;
        };
        if let Some(old) = self.values.get_mut(usize::from(*place)) {
            *old = value;
            return true;
        }
        let Ok(next) = u16::try_from(self.values.len()) else {
            return false;
        };
        *place = next;
        self.values.push(value);
        true
    }
}

/// The position with Black to move that is worth the same: itself, or with White to move the
/// board rotated half a turn (square n becomes 33 - n) and the colours swapped.
#[inline]
#[must_use]
pub fn normalise(position: &Position) -> Position {
    if position.side_to_move() == Side::First {
        return *position;
    }
    flip(position)
}

/// The board rotated half a turn with the colours and the side to move swapped.
#[inline]
#[must_use]
pub fn flip(position: &Position) -> Position {
    let black = position.white().reverse_bits();
    let white = position.black().reverse_bits();
    let kings = position.kings().reverse_bits();
    let side = position.side_to_move().opponent();
    // Rotation maps each side's crowning row onto the other's, so a valid position stays valid.
    Position::from_parts(black, white, kings, side).unwrap_or(*position)
}

/// The colexicographic rank of a set of squares among sets of its size.
#[inline]
fn rank(set: u32) -> u64 {
    squeezed_rank(set, 0)
}

/// The set of `k` squares with colexicographic rank `rank`.
fn unrank(mut rank: u64, k: u32) -> u32 {
    let mut set = 0;
    // Squares come out highest first, so each search starts below the last square found.
    let mut square = 32;
    for i in (1..=k).rev() {
        // The largest square s with choose(s, i) <= rank (choose(i - 1, i) is 0, a floor).
        square -= 1;
        while choose(square, i) > rank {
            square -= 1;
        }
        rank -= choose(square, i);
        set |= 1 << square;
    }
    set
}

/// The rank of `set` squeezed: each square renumbered among those `taken` leaves free, then
/// ranked as [`rank`] does, in one walk over both sets in increasing order (no bit counting,
/// which a processor without a population-count instruction does in a dozen steps).
#[inline]
fn squeezed_rank(set: u32, taken: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    let mut rest = set;
    let mut taken_rest = taken;
    let mut below = 0;
    while rest != 0 {
        let square = rest.trailing_zeros();
        while taken_rest != 0 && taken_rest.trailing_zeros() < square {
            below += 1;
            taken_rest &= taken_rest - 1;
        }
        rank += choose(square - below, i);
        rest &= rest - 1;
        i += 1;
    }
    rank
}

/// `set` with the squares of `taken` squeezed out: each square renumbered among the free ones.
#[cfg(test)]
fn squeeze(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let square = rest.trailing_zeros();
        let below = taken & ((1u32 << square) - 1);
        out |= 1 << (square - below.count_ones());
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`squeeze`]: free-square numbers back to squares. Each taken square at or
/// below a number pushes it one square up (the taken squares are few, so this beats walking
/// the free ones).
fn expand(squeezed: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut rest = squeezed;
    while rest != 0 {
        let mut square = rest.trailing_zeros();
        let mut below = taken;
        while below != 0 && below.trailing_zeros() <= square {
            square += 1;
            below &= below - 1;
        }
        out |= 1 << square;
        rest &= rest - 1;
    }
    out
}

/// The index of a position with Black to move in its slice (see [`normalise`]).
#[inline]
#[must_use]
pub fn index_of(position: &Position) -> u64 {
    index_in(position, Counts::of(position))
}

/// [`index_of`] for a position whose counts are known already (`Counts::of(position)`).
#[inline]
#[must_use]
pub fn index_in(position: &Position, counts: Counts) -> u64 {
    let kings = position.kings();
    let black_men = position.black() & !kings;
    let white_men = position.white() & !kings;
    let black_kings = position.black() & kings;
    let white_kings = position.white() & kings;
    let [_, r_wm, r_bk, r_wk] = counts.radices();
    let men = black_men | white_men;
    let mut index = rank(black_men);
    index = index * r_wm + rank(white_men >> 4);
    index = index * r_bk + squeezed_rank(black_kings, men);
    index * r_wk + squeezed_rank(white_kings, men | black_kings)
}

/// The position with Black to move at `index` of a slice, or `None` where the index names no
/// board (a Black and a White man on one square).
#[must_use]
pub fn position_at(counts: Counts, index: u64) -> Option<Position> {
    let [bm, bk, wm, wk] = counts.groups();
    let radices = counts.radices();
    if index >= radices.iter().product() {
        return None;
    }
    let mut rest = index;
    let r_wk = rest % radices[3];
    rest /= radices[3];
    let r_bk = rest % radices[2];
    rest /= radices[2];
    let r_wm = rest % radices[1];
    let r_bm = rest / radices[1];
    let black_men = unrank(r_bm, bm);
    let white_men = unrank(r_wm, wm) << 4;
    if black_men & white_men != 0 {
        return None;
    }
    let men = black_men | white_men;
    let black_kings = expand(unrank(r_bk, bk), men);
    let white_kings = expand(unrank(r_wk, wk), men | black_kings);
    Position::from_parts(
        black_men | black_kings,
        white_men | white_kings,
        black_kings | white_kings,
        Side::First,
    )
    .ok()
}

/// Calls `visit` with every `k`-square subset of `mask` in increasing order of its bits, which
/// is the order of colexicographic rank (of the subset squeezed to the squares of `mask`).
#[inline(always)]
fn for_each_subset(mask: u32, k: u32, mut visit: impl FnMut(u32)) {
    let mut squares = [0u32; 32];
    let mut n = 0;
    let mut rest = mask;
    while rest != 0 {
        squares[n] = rest & rest.wrapping_neg();
        rest &= rest - 1;
        n += 1;
    }
    if k as usize > n {
        return;
    }
    if k == 0 {
        visit(0);
        return;
    }
    // Gosper's hack over the numbers of the squares of `mask`, each deposited on its square.
    let end = 1u64 << n;
    let mut chosen = (1u64 << k) - 1;
    while chosen < end {
        let mut set = 0;
        let mut bits = chosen;
        while bits != 0 {
            set |= squares[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        visit(set);
        let lowest = chosen & chosen.wrapping_neg();
        let ripple = chosen + lowest;
        chosen = (((ripple ^ chosen) >> 2) / lowest) | ripple;
    }
}

/// Calls `visit` with every position of a slice (Black to move) and its index, in index order,
/// building each from the last instead of unranking every index afresh.
pub fn for_each_position(counts: Counts, mut visit: impl FnMut(u64, &Position)) {
    let [bm, bk, wm, wk] = counts.groups();
    let [_, _, r_bk, r_wk] = counts.radices();
    let men_block = r_bk * r_wk;
    let man_squares = (1u32 << MAN_SQUARES) - 1;
    let mut index = 0u64;
    for_each_subset(man_squares, bm, |black_men| {
        for_each_subset(man_squares, wm, |white_ranked| {
            let white_men = white_ranked << 4;
            if black_men & white_men != 0 {
                index += men_block;
                return;
            }
            let men = black_men | white_men;
            for_each_subset(!men, bk, |black_kings| {
                for_each_subset(!(men | black_kings), wk, |white_kings| {
                    if let Ok(position) = Position::from_parts(
                        black_men | black_kings,
                        white_men | white_kings,
                        black_kings | white_kings,
                        Side::First,
                    ) {
                        visit(index, &position);
                    }
                    index += 1;
                });
            });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::parse_fen;

    #[test]
    fn a_slice_map_keeps_one_value_a_slice_and_refuses_counts_beyond_it() {
        let mut map = SliceMap::default();
        let slices = Counts::with_total(4);
        for (n, &counts) in slices.iter().enumerate() {
            assert!(map.insert(counts, n));
        }
        assert!(map.insert(slices[0], 100), "a value replaced");
        assert_eq!(map.get(slices[0]), Some(&100));
        for (n, &counts) in slices.iter().enumerate().skip(1) {
            assert_eq!(map.get(counts), Some(&n));
        }
        assert_eq!(map.values.len(), slices.len(), "no value twice");
        assert_eq!(map.get(Counts::with_total(5)[0]), None);
        let crowded = Counts {
            black_men: MAX_GROUP as u8 + 1,
            black_kings: 0,
            white_men: 1,
            white_kings: 0,
        };
        assert!(!map.insert(crowded, 7));
        assert_eq!(map.get(crowded), None);
    }

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
        let taken = 0b1011_0010;
        for set in [0b0100_0001u32, 0b1_0000_0100, 1 << 31] {
            assert_eq!(expand(squeeze(set, taken), taken), set);
        }
    }

    #[test]
    fn a_squeezed_rank_is_the_rank_of_the_squeezed_set() {
        // Sets of up to three squares beside up to four taken ones, drawn from a fixed sequence.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u32
        };
        for _ in 0..20_000 {
            let taken = next() & next() & next();
            let set = next() & next() & next() & next() & !taken;
            assert_eq!(
                squeezed_rank(set, taken),
                rank(squeeze(set, taken)),
                "{set:#034b} {taken:#034b}"
            );
        }
    }

    #[test]
    fn every_position_of_a_slice_sits_at_its_own_index() {
        for counts in [
            Counts {
                black_men: 1,
                black_kings: 0,
                white_men: 1,
                white_kings: 1,
            },
            Counts {
                black_men: 0,
                black_kings: 2,
                white_men: 1,
                white_kings: 0,
            },
        ] {
            let mut valid = 0;
            for index in 0..counts.entries() {
                if let Some(position) = position_at(counts, index) {
                    assert_eq!(index_of(&position), index);
                    assert_eq!(Counts::of(&position), counts);
                    valid += 1;
                }
            }
            // Every placement of the pieces, counted square by square.
            let expected = match counts.black_men {
                // The Black man on 28 squares, the White man on White's 28 minus the Black
                // man's square when it is one of them (24 of 28 are), the king anywhere free.
                1 => (4 * 28 + 24 * 27) * 30,
                // The White man on 28 squares, the two kings on two of the other 31.
                _ => 28 * 465,
            };
            assert_eq!(valid, expected, "{counts:?}");
        }
    }

    #[test]
    fn walking_a_slice_in_order_meets_every_position_at_its_index() {
        for counts in [
            Counts {
                black_men: 2,
                black_kings: 1,
                white_men: 1,
                white_kings: 1,
            },
            Counts {
                black_men: 0,
                black_kings: 2,
                white_men: 0,
                white_kings: 1,
            },
            Counts {
                black_men: 1,
                black_kings: 0,
                white_men: 2,
                white_kings: 0,
            },
        ] {
            let mut expected = (0..counts.entries())
                .filter_map(|index| position_at(counts, index).map(|p| (index, p)));
            for_each_position(counts, |index, position| {
                assert_eq!(expected.next(), Some((index, *position)), "{counts:?}");
            });
            assert_eq!(expected.next(), None, "{counts:?}");
        }
    }

    #[test]
    fn turning_the_board_round_keeps_a_position_valid_and_is_its_own_inverse() {
        let position = parse_fen("W:W5,K20:B1,K30").expect("a FEN");
        let turned = normalise(&position);
        assert_eq!(turned.side_to_move(), Side::First);
        // White's man on 5 becomes Black's man on 28; Black's king on 30 becomes White's on 3.
        assert_eq!(turned, parse_fen("B:W32,K3:B28,K13").expect("a FEN"));
        assert_eq!(flip(&turned), position);
        assert_eq!(
            Counts::of(&turned),
            Counts::of(&position).flipped(),
            "colours swap"
        );
    }
}
