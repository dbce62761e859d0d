//! Zobrist keys for checkers positions: one random 64-bit key per (piece kind, square) and one for
//! the side to move, XORed together. The transposition table and repetition checks compare these.
//!
//! The keys come from a fixed seed (splitmix64) computed at compile time, so a position has the
//! same hash in every build. Pente keeps its own keys next to its board; noughts and crosses is
//! small enough to use its two masks as the key.

use crate::game::Side;
use crate::games::checkers::{Move, Position};

/// Keys per piece kind (Black man, Black king, White man, White king) and square index.
static KEYS: [[u64; 32]; 4] = {
    let mut keys = [[0; 32]; 4];
    let mut state: u64 = 0x6b69_6e67_6d65_4348;
    let mut kind = 0;
    while kind < 4 {
        let mut square = 0;
        while square < 32 {
            keys[kind][square] = splitmix(&mut state);
            square += 1;
        }
        kind += 1;
    }
    keys
};

/// The key of White to move.
const WHITE_TO_MOVE: u64 = 0x3c6e_f372_fe94_f82b;

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The hash of a position: pieces and side to move, computed afresh from all its pieces.
#[must_use]
pub fn checkers_key(position: &Position) -> u64 {
    let mut key = match position.side_to_move() {
        Side::First => 0,
        Side::Second => WHITE_TO_MOVE,
    };
    for (kind, &mask) in kinds(position).iter().enumerate() {
        key ^= squares_key(kind, mask);
    }
    key
}

/// The hash of `after`, the position `mv` leads to from `before`, given `key`, the hash of
/// `before`: only the move's origin and landing (with the piece's kind there, a man or a king
/// once crowned), its captures and the side to move are XORed out and in. The same number as
/// [`checkers_key`] of `after`, for the few squares a move touches instead of every piece: the
/// search takes it at every move it makes.
#[must_use]
#[inline]
pub fn checkers_key_after(key: u64, before: &Position, mv: &Move, after: &Position) -> u64 {
    let mut key = key;
    if before.side_to_move() != after.side_to_move() {
        key ^= WHITE_TO_MOVE;
    }
    // The kinds are numbered as in `KEYS`: the side's men, then its kings.
    let us = 2 * before.side_to_move().index();
    let kind = |position: &Position, square: usize| us + (position.kings() >> square & 1) as usize;
    let (from, to) = (usize::from(mv.from().index()), usize::from(mv.to().index()));
    // A king's capture that goes round a loop lands where it started: the two cancel out.
    key ^= KEYS[kind(before, from)][from] ^ KEYS[kind(after, to)][to];
    let captured = mv.captured();
    if captured != 0 {
        let them = 2 - us;
        key ^= squares_key(them, captured & !before.kings())
            ^ squares_key(them + 1, captured & before.kings());
    }
    key
}

/// A position's pieces by kind, in the order of [`KEYS`]: Black men, Black kings, White men,
/// White kings.
#[inline(always)]
fn kinds(position: &Position) -> [u32; 4] {
    let kings = position.kings();
    [
        position.black() & !kings,
        position.black() & kings,
        position.white() & !kings,
        position.white() & kings,
    ]
}

/// The XOR of the keys of `kind` on the squares of `mask`.
#[inline(always)]
fn squares_key(kind: usize, mask: u32) -> u64 {
    let mut key = 0;
    let mut bits = mask;
    while bits != 0 {
        key ^= KEYS[kind][bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::parse_fen;

    #[test]
    fn keys_tell_pieces_kings_and_side_apart() {
        let key = |fen: &str| checkers_key(&parse_fen(fen).expect(fen));
        let base = key("B:W21,22:B1,2");
        assert_eq!(base, key("B:W22,21:B2,1"), "order of listing is irrelevant");
        assert_ne!(base, key("W:W21,22:B1,2"), "side to move");
        assert_ne!(base, key("B:W21,22:BK1,2"), "a king is not a man");
        assert_ne!(base, key("B:W21,23:B1,2"), "another square");
        assert_ne!(key("B:W5:B6"), key("B:W6:B5"), "colours swapped");
    }

    #[test]
    fn the_key_after_a_move_is_the_key_of_the_position_after_it() {
        use crate::games::checkers::for_each_move;
        use rand::rngs::StdRng;
        use rand::seq::IndexedRandom;
        use rand::{Rng, SeedableRng};
        // Random games from the start and from positions with kings and captures: every move
        // of every position on the way, steps, multi-jumps and crownings among them.
        let mut rng = StdRng::seed_from_u64(34);
        let (mut moves, mut captures, mut crownings) = (0, 0, 0);
        for start in [
            "B:W21-32:B1-12",
            "W:WK3,K10,K26,K32:BK9,K20,K22,25,27",
            "B:W6,7,14,18:B1,K23,24",
        ] {
            for _ in 0..40 {
                let mut position = parse_fen(start).expect(start);
                for _ in 0..rng.random_range(1..120) {
                    let mut legal = Vec::new();
                    for_each_move(&position, |mv| legal.push(*mv));
                    let key = checkers_key(&position);
                    for mv in &legal {
                        let after = position.after(mv);
                        assert_eq!(
                            checkers_key_after(key, &position, mv, &after),
                            checkers_key(&after),
                            "{position:?} then {mv:?}"
                        );
                        moves += 1;
                        captures += u32::from(mv.is_capture());
                        crownings +=
                            u32::from(after.kings().count_ones() > position.kings().count_ones());
                    }
                    let Some(mv) = legal.choose(&mut rng) else {
                        break;
                    };
                    position = position.after(mv);
                }
            }
        }
        assert!(
            moves > 10_000 && captures > 500 && crownings > 50,
            "{moves} {captures} {crownings}"
        );
    }
}
