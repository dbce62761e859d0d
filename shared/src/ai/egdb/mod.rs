//! Checkers endgame databases: the win / loss / draw verdict, for the side to move, of every
//! position with few pieces, computed by [`solve`] (retrograde analysis) over the bitboard rules, written and read in
//! kingme's own indexed file format ([`format`]: a slice table, two bits a position in blocks
//! of 4 KiB compressed one by one (zstd) and read in place, a CRC-32 over the whole file so that a damaged or
//! truncated file is refused).
//!
//! The verdicts are game-theoretic: with best play and no draw by repetition or by the
//! forty-move rule (a database win may take longer than forty moves without a capture or a man's
//! move). Files: `index` (position to index and back), `solve` (the analysis), `format`,
//! `storage` (the file's bytes, memory-mapped), `open` (a file mapped and checked), `cache` (the decoded blocks probes keep).

mod cache;
pub mod format;
pub mod index;
pub mod open;
pub mod solve;
pub mod storage;

pub use format::{Egdb, EgdbError, encode};
pub use open::{EndgameFileError, open};
pub use solve::{Progress, Tables, solve};
pub use storage::Storage;

/// The value of a position for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
}

impl Verdict {
    /// The two bits stored for the verdict (0 marks an index that names no position).
    #[must_use]
    pub const fn code(self) -> u8 {
        match self {
            Verdict::Win => WIN,
            Verdict::Loss => LOSS,
            Verdict::Draw => DRAW,
        }
    }

    /// The verdict of two stored bits.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<Verdict> {
        match code {
            WIN => Some(Verdict::Win),
            LOSS => Some(Verdict::Loss),
            DRAW => Some(Verdict::Draw),
            _ => None,
        }
    }

    /// How the verdict reads in messages.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Verdict::Win => "a win for the side to move",
            Verdict::Loss => "a loss for the side to move",
            Verdict::Draw => "a draw",
        }
    }
}

/// Two-bit codes: 0 is no position.
pub(crate) const NONE: u8 = 0;
pub(crate) const WIN: u8 = 1;
pub(crate) const LOSS: u8 = 2;
pub(crate) const DRAW: u8 = 3;
