//! The checkers opening book: for positions of the opening (the start, the ACF three-move
//! ballots and some plies beyond), the move a deep search chose, with its score and depth. The
//! expert plays the book's move where the position is in the book and searches as usual once it
//! is out of book. `kingme book build` writes the file; the one shipped with kingme is compiled
//! in ([`Book::shipped`]).
//!
//! The file: the magic `KMBOOK`, a zero, the format byte, the number of entries, then each entry
//! (Black's, White's and the kings' masks, the side to move, the move's from and to squares and
//! captured pieces, the score and the depth), sorted by position with no position twice, and a
//! CRC-32 of everything before it; little-endian throughout. A file is checked whole before use:
//! its length, its order, every position valid and every move legal in its position, and the
//! checksum. A damaged book is refused with the reason.

use crate::game::Side;
use crate::games::checkers::{Move, Position, push_moves};
use std::sync::OnceLock;

const MAGIC: &[u8; 7] = b"KMBOOK\x00";
const FORMAT: u8 = 1;
const HEADER: usize = 12;
const ENTRY: usize = 22;
const CHECKSUM: usize = 4;
/// Far more positions than any opening book kingme builds.
pub const MAX_ENTRIES: usize = 1 << 20;

/// The book shipped with kingme, built by `kingme book build`.
const SHIPPED: &[u8] = include_bytes!("../../data/checkers-book.kmbook");

/// Why a book file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error("not a kingme opening book (it does not start with KMBOOK)")]
    /// The file does not start with the book's magic bytes.
    NotABook,
    #[error("the opening book is in format {0}, this kingme reads format {FORMAT}")]
    /// A book of another format version.
    OtherFormat(u8),
    #[error(
        "the opening book is {got} bytes where its {entries} entries need {expected}: it is \
         truncated or damaged; build it again with kingme book build"
    )]
    /// The file's length does not match its entry count.
    Length {
        /// Entries the header announces.
        entries: u64,
        /// Bytes those entries need.
        expected: u64,
        /// Bytes the file has.
        got: u64,
    },
    #[error(
        "the opening book is damaged: its checksum is {found:08x}, its contents give \
         {computed:08x}; build it again with kingme book build"
    )]
    /// The stored checksum does not match the contents.
    Checksum {
        /// The checksum stored in the file.
        found: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    #[error(
        "the opening book is damaged: entry {entry}: {reason}; build it again with kingme book build"
    )]
    /// An entry that is not a legal position and move.
    BadEntry {
        /// The entry's number, from 0.
        entry: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// One position of the book and what to play there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The position, with the side to move.
    pub position: Position,
    /// The move, legal in `position`.
    pub mv: Move,
    /// The search's score for the side to move.
    pub score: i32,
    /// The depth searched, in plies.
    pub depth: u32,
}

/// A checked opening book.
#[derive(Debug, Clone, Default)]
pub struct Book {
    /// Sorted by [`order_key`], no key twice.
    entries: Vec<BookMove>,
}

/// The order of positions in the file.
fn order_key(position: &Position) -> (u32, u32, u32, bool) {
    (
        position.black(),
        position.white(),
        position.kings(),
        position.side_to_move() == Side::Second,
    )
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

impl Book {
    /// A book of these moves (the last one kept where a position comes twice).
    #[must_use]
    pub fn new(moves: impl IntoIterator<Item = BookMove>) -> Book {
        let mut entries: Vec<BookMove> = moves.into_iter().collect();
        entries.sort_by_key(|entry| order_key(&entry.position));
        entries.reverse();
        entries.dedup_by_key(|entry| order_key(&entry.position));
        entries.reverse();
        Book { entries }
    }

    /// The book compiled into kingme; `None` only if the shipped file were damaged (a test
    /// checks that it is not).
    #[must_use]
    pub fn shipped() -> Option<&'static Book> {
        static SHIPPED_BOOK: OnceLock<Option<Book>> = OnceLock::new();
        SHIPPED_BOOK
            .get_or_init(|| Book::parse(SHIPPED).ok())
            .as_ref()
    }

    /// The positions in the book.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in file order.
    #[must_use]
    pub fn entries(&self) -> &[BookMove] {
        &self.entries
    }

    /// The book's move for a position, if the position is in the book.
    #[must_use]
    pub fn lookup(&self, position: &Position) -> Option<BookMove> {
        let key = order_key(position);
        self.entries
            .binary_search_by_key(&key, |entry| order_key(&entry.position))
            .ok()
            .map(|at| self.entries[at])
    }

    /// The file's bytes.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.entries.len() * ENTRY + CHECKSUM);
        out.extend_from_slice(MAGIC);
        out.push(FORMAT);
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for entry in &self.entries {
            let position = &entry.position;
            out.extend_from_slice(&position.black().to_le_bytes());
            out.extend_from_slice(&position.white().to_le_bytes());
            out.extend_from_slice(&position.kings().to_le_bytes());
            out.push(u8::from(position.side_to_move() == Side::Second));
            out.push(entry.mv.from().index());
            out.push(entry.mv.to().index());
            out.extend_from_slice(&entry.mv.captured().to_le_bytes());
            let score = entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            out.extend_from_slice(&score.to_le_bytes());
            out.push(entry.depth.min(255) as u8);
        }
        let checksum = crc32fast::hash(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Checks a whole file and reads it.
    pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER || &bytes[..7] != MAGIC {
            return Err(BookError::NotABook);
        }
        if bytes[7] != FORMAT {
            return Err(BookError::OtherFormat(bytes[7]));
        }
        let count = le_u32(bytes, 8) as usize;
        let expected = (count as u64) * ENTRY as u64 + (HEADER + CHECKSUM) as u64;
        if count > MAX_ENTRIES || bytes.len() as u64 != expected {
            return Err(BookError::Length {
                entries: count as u64,
                expected,
                got: bytes.len() as u64,
            });
        }
        let body = bytes.len() - CHECKSUM;
        let found = le_u32(bytes, body);
        let computed = crc32fast::hash(&bytes[..body]);
        if found != computed {
            return Err(BookError::Checksum { found, computed });
        }
        let mut entries: Vec<BookMove> = Vec::with_capacity(count);
        let mut moves = Vec::new();
        for entry in 0..count {
            let at = HEADER + entry * ENTRY;
            let bad = |reason: String| BookError::BadEntry { entry, reason };
            let side = match bytes[at + 12] {
                0 => Side::First,
                1 => Side::Second,
                other => return Err(bad(format!("side to move {other}"))),
            };
            let position = Position::from_parts(
                le_u32(bytes, at),
                le_u32(bytes, at + 4),
                le_u32(bytes, at + 8),
                side,
            )
            .map_err(|err| bad(err.to_string()))?;
            if let Some(last) = entries.last()
                && order_key(&last.position) >= order_key(&position)
            {
                return Err(bad("out of order".to_owned()));
            }
            let (from, to) = (bytes[at + 13], bytes[at + 14]);
            let captured = le_u32(bytes, at + 15);
            moves.clear();
            push_moves(&position, &mut moves);
            let mv = *moves
                .iter()
                .find(|mv| {
                    mv.from().index() == from && mv.to().index() == to && mv.captured() == captured
                })
                .ok_or_else(|| bad("the move is not legal in its position".to_owned()))?;
            let score = i32::from(i16::from_le_bytes([bytes[at + 19], bytes[at + 20]]));
            entries.push(BookMove {
                position,
                mv,
                score,
                depth: u32::from(bytes[at + 21]),
            });
        }
        Ok(Book { entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::checkers::Checkers;

    fn sample() -> Book {
        let mut game = Checkers::from_position(Position::start());
        let mut moves = Vec::new();
        for (ply, text) in ["11-15", "23-19", "8-11"].iter().enumerate() {
            let mv = game.parse_move(text).expect("a legal move");
            moves.push(BookMove {
                position: *game.position(),
                mv,
                score: ply as i32 * 10 - 5,
                depth: 20 + ply as u32,
            });
            game.play(&mv).expect("legal");
        }
        Book::new(moves)
    }

    #[test]
    fn a_book_reads_back_and_answers_only_for_its_positions() {
        let book = sample();
        let bytes = book.encode();
        let read = Book::parse(&bytes).expect("a fresh book");
        assert_eq!(read.entries(), book.entries());
        let start = Position::start();
        let answer = read.lookup(&start).expect("the start is in the book");
        assert_eq!(answer.mv.from().number(), 11);
        assert_eq!((answer.score, answer.depth), (-5, 20));
        // Out of book: a position the book never saw.
        let other = start.after(&answer.mv).with_side_to_move(Side::First);
        assert!(read.lookup(&other).is_none());
    }

    #[test]
    fn a_damaged_book_is_refused_with_the_reason() {
        let bytes = sample().encode();
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 0x40;
        let err = Book::parse(&flipped).expect_err("damaged");
        assert!(matches!(err, BookError::Checksum { .. }), "{err}");
        assert!(err.to_string().contains("build it again"), "{err}");
        for cut in [0, 5, HEADER, bytes.len() - 1] {
            assert!(Book::parse(&bytes[..cut]).is_err(), "{cut}");
        }
        assert_eq!(
            Book::parse(b"KMEGDB\x00\x02....").expect_err("foreign"),
            BookError::NotABook
        );
        // A move that is not legal, with a checksum that matches: refused all the same.
        let mut illegal = bytes.clone();
        illegal[HEADER + 14] = 31;
        let body = illegal.len() - CHECKSUM;
        let checksum = crc32fast::hash(&illegal[..body]);
        illegal[body..].copy_from_slice(&checksum.to_le_bytes());
        let err = Book::parse(&illegal).expect_err("illegal move");
        assert!(err.to_string().contains("not legal"), "{err}");
    }

    #[test]
    fn the_shipped_book_is_whole_and_knows_the_start() {
        let book = Book::shipped().expect("the shipped book reads");
        assert!(book.len() > 100, "{}", book.len());
        assert!(book.lookup(&Position::start()).is_some());
    }
}
