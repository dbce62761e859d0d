//! Zobrist keys for checkers positions: one random 64-bit key per (piece kind, square) and one for
//! the side to move, XORed together. The transposition table and repetition checks compare these.
//!
//! The keys come from a fixed seed (splitmix64) computed at compile time, so a position has the
//! same hash in every build. Pente keeps its own keys next to its board; noughts and crosses is
//! small enough to use its two masks as the key.

use crate::game::Side;
use crate::games::checkers::Position;

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

/// The hash of a position: pieces and side to move. At most 24 pieces, so computing it afresh
/// costs about as much as updating it would.
#[must_use]
pub fn checkers_key(position: &Position) -> u64 {
    let kings = position.kings();
    let masks = [
        position.black() & !kings,
        position.black() & kings,
        position.white() & !kings,
        position.white() & kings,
    ];
    let mut key = match position.side_to_move() {
        Side::First => 0,
        Side::Second => WHITE_TO_MOVE,
    };
    for (kind, &mask) in masks.iter().enumerate() {
        let mut bits = mask;
        while bits != 0 {
            key ^= KEYS[kind][bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
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
}
