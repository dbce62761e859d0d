//! The endgame database file target: whatever bytes come, [`Egdb::parse`] answers without
//! panicking, and a file it accepts probes and decodes its blocks without panicking, and its
//! verdicts written again read back as a file that answers every probe the same.

use crate::ai::egdb::{Egdb, encode};
use crate::games::checkers::parse_fen;

/// Positions probed in an accepted file: two, three and four pieces, both sides to move.
const PROBES: [&str; 4] = ["B:WK1:BK32", "W:W25:B5", "B:W25:BK1,K5", "W:W25,K20:BK1,9"];

/// The body of `egdb_file`.
pub fn egdb_file(data: &[u8]) {
    let Ok(view) = Egdb::parse(data.to_vec()) else {
        return;
    };
    let _ = view.blocks_decode();
    let again = Egdb::parse(encode(&view.to_tables())).expect("a file written reads back");
    for text in PROBES {
        if let Ok(position) = parse_fen(text) {
            assert_eq!(
                again.verdict(&position),
                view.verdict(&position),
                "{text}: written again, the verdict changed"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::egdb::solve;

    #[test]
    fn a_real_file_passes_and_a_damaged_one_is_only_refused() {
        let bytes = encode(&solve(2, |_| {}));
        assert!(Egdb::parse(bytes.clone()).is_ok());
        egdb_file(&bytes);
        // The seed is a file of the current format.
        let seed = include_bytes!("../../../tests/fuzz/seeds/egdb_file/two-pieces.kmdb");
        assert_eq!(
            seed.as_slice(),
            bytes.as_slice(),
            "the seed is the 2-piece file"
        );
        let mut damaged = bytes.clone();
        damaged[20] ^= 0xff;
        egdb_file(&damaged);
        egdb_file(&bytes[..bytes.len() / 3]);
    }
}
