//! The endgame database file target: whatever bytes come, [`Egdb::parse`] answers without
//! panicking, and a file it accepts probes without panicking and writes back to the same bytes.

use crate::ai::egdb::{Egdb, encode};
use crate::games::checkers::parse_fen;

/// Positions probed in an accepted file: two, three and four pieces, both sides to move.
const PROBES: [&str; 4] = ["B:WK1:BK32", "W:W25:B5", "B:W25:BK1,K5", "W:W25,K20:BK1,9"];

/// The body of `egdb_file`.
pub fn egdb_file(data: &[u8]) {
    let Ok(view) = Egdb::parse(data.to_vec()) else {
        return;
    };
    for text in PROBES {
        if let Ok(position) = parse_fen(text) {
            let _ = view.verdict(&position);
        }
    }
    assert_eq!(
        encode(&view.to_tables()),
        data,
        "an accepted file writes back the same"
    );
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
        let mut damaged = bytes.clone();
        damaged[20] ^= 0xff;
        egdb_file(&damaged);
        egdb_file(&bytes[..bytes.len() / 3]);
    }
}
