//! kingme's endgame database file: a header (the magic `KMEGDB` and format version, the
//! largest piece count, the number of slices), a slice table (four piece counts, the slice's
//! byte offset in the data and its number of entries, each), the data (four positions a byte,
//! two bits each, in index order) and a CRC-32 of everything before it, little-endian
//! throughout. [`EgdbView`] reads a file in place (a memory map or a byte slice) after checking
//! its length, its table and its checksum: a damaged or truncated file is refused with the
//! reason, never used.

use super::Verdict;
use super::index::{Counts, index_of};
use super::solve::Tables;
use crate::games::checkers::Position;
use std::collections::HashMap;

const MAGIC: &[u8; 8] = b"KMEGDB\x00\x01";
const HEADER: usize = 16;
const SLICE_ENTRY: usize = 20;
const CHECKSUM: usize = 4;
/// More slices than any piece count up to 12 has; a larger count is a damaged file.
const MAX_SLICES: usize = 4096;

/// Why a database file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EgdbError {
    #[error("not a kingme endgame database (it does not start with KMEGDB, format 1)")]
    NotADatabase,
    #[error(
        "the endgame database is truncated: {got} bytes where its table needs {expected}; build \
         it again with kingme egdb build"
    )]
    Truncated { expected: u64, got: u64 },
    #[error(
        "the endgame database is damaged: its checksum is {found:08x}, its contents give \
         {computed:08x}; build it again with kingme egdb build"
    )]
    Checksum { found: u32, computed: u32 },
    #[error("the endgame database is damaged: {0}; build it again with kingme egdb build")]
    BadTable(String),
}

/// The file's bytes for solved tables.
#[must_use]
pub fn encode(tables: &Tables) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&tables.max_pieces.to_le_bytes());
    out.extend_from_slice(&(tables.slices.len() as u32).to_le_bytes());
    let mut offset = 0u64;
    for (counts, codes) in &tables.slices {
        out.extend_from_slice(&[
            counts.black_men,
            counts.black_kings,
            counts.white_men,
            counts.white_kings,
        ]);
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(codes.len() as u64).to_le_bytes());
        offset += (codes.len() as u64).div_ceil(4);
    }
    for (_, codes) in &tables.slices {
        for four in codes.chunks(4) {
            let byte = four
                .iter()
                .enumerate()
                .fold(0u8, |byte, (i, &code)| byte | ((code & 3) << (2 * i)));
            out.push(byte);
        }
    }
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// A checked database file, read in place.
#[derive(Debug, Clone)]
pub struct EgdbView<'a> {
    data: &'a [u8],
    max_pieces: u32,
    slices: HashMap<Counts, (usize, u64)>,
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

fn le_u64(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

impl<'a> EgdbView<'a> {
    /// Checks a whole file and reads its table.
    pub fn parse(bytes: &'a [u8]) -> Result<EgdbView<'a>, EgdbError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(EgdbError::NotADatabase);
        }
        let max_pieces = le_u32(bytes, 8);
        let count = le_u32(bytes, 12) as usize;
        if count > MAX_SLICES || max_pieces > 24 {
            return Err(EgdbError::BadTable(format!(
                "{count} slices of up to {max_pieces} pieces"
            )));
        }
        let table_end = HEADER + count * SLICE_ENTRY;
        let truncated = |expected: u64| EgdbError::Truncated {
            expected,
            got: bytes.len() as u64,
        };
        if bytes.len() < table_end + CHECKSUM {
            return Err(truncated((table_end + CHECKSUM) as u64));
        }
        let mut slices = HashMap::with_capacity(count);
        let mut expected_offset = 0u64;
        for slot in 0..count {
            let at = HEADER + slot * SLICE_ENTRY;
            let counts = Counts {
                black_men: bytes[at],
                black_kings: bytes[at + 1],
                white_men: bytes[at + 2],
                white_kings: bytes[at + 3],
            };
            let (offset, entries) = (le_u64(bytes, at + 4), le_u64(bytes, at + 12));
            if counts.total() > max_pieces
                || offset != expected_offset
                || entries != counts.entries()
            {
                return Err(EgdbError::BadTable(format!("slice {slot} ({counts:?})")));
            }
            expected_offset = offset
                .checked_add(entries.div_ceil(4))
                .ok_or_else(|| EgdbError::BadTable(format!("slice {slot} is too large")))?;
            slices.insert(counts, (table_end + offset as usize, entries));
        }
        let expected_len = (table_end as u64)
            .checked_add(expected_offset)
            .and_then(|len| len.checked_add(CHECKSUM as u64))
            .ok_or_else(|| EgdbError::BadTable("a table larger than any file".to_owned()))?;
        if (bytes.len() as u64) < expected_len {
            return Err(truncated(expected_len));
        }
        if bytes.len() as u64 > expected_len {
            return Err(EgdbError::BadTable(format!(
                "{} bytes after the end of the data",
                bytes.len() as u64 - expected_len
            )));
        }
        let body = bytes.len() - CHECKSUM;
        let found = le_u32(bytes, body);
        let computed = crc32fast::hash(&bytes[..body]);
        if found != computed {
            return Err(EgdbError::Checksum { found, computed });
        }
        Ok(EgdbView {
            data: bytes,
            max_pieces,
            slices,
        })
    }

    /// The largest piece count the file covers.
    #[must_use]
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The verdict for the side to move, when the position is in the database.
    #[must_use]
    pub fn verdict(&self, position: &Position) -> Option<Verdict> {
        let &(start, entries) = self.slices.get(&Counts::of(position))?;
        let index = index_of(position);
        if index >= entries {
            return None;
        }
        let byte = *self.data.get(start + (index / 4) as usize)?;
        Verdict::from_code((byte >> (2 * (index % 4))) & 3)
    }

    /// The tables in memory (for tests and tools that rewrite a file).
    #[must_use]
    pub fn to_tables(&self) -> Tables {
        let mut tables = Tables::default();
        let mut slices: Vec<_> = self.slices.iter().collect();
        slices.sort_by_key(|&(_, &(start, _))| start);
        for (&counts, &(start, entries)) in slices {
            let codes = (0..entries)
                .map(|index| (self.data[start + (index / 4) as usize] >> (2 * (index % 4))) & 3)
                .collect();
            tables.insert(counts, codes);
        }
        tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::egdb::index::position_at;
    use crate::ai::egdb::solve;

    #[test]
    fn a_file_reads_back_every_verdict_and_damage_is_refused() {
        let tables = solve(2, |_| {});
        let bytes = encode(&tables);
        let view = EgdbView::parse(&bytes).expect("a fresh file");
        assert_eq!(view.max_pieces(), 2);
        let mut checked = 0;
        for (counts, codes) in &tables.slices {
            for (index, &code) in codes.iter().enumerate() {
                if let Some(position) = position_at(*counts, index as u64) {
                    assert_eq!(view.verdict(&position), Verdict::from_code(code));
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
        // One flipped bit in the data: the checksum no longer matches.
        let mut damaged = bytes.clone();
        damaged[HEADER + 40] ^= 0x10;
        let last = damaged.len() - 1;
        assert!(matches!(
            EgdbView::parse(&damaged),
            Err(EgdbError::BadTable(_) | EgdbError::Checksum { .. })
        ));
        damaged = bytes.clone();
        damaged[last - 200] ^= 1;
        let err = EgdbView::parse(&damaged).expect_err("damaged");
        assert!(matches!(err, EgdbError::Checksum { .. }), "{err}");
        assert!(err.to_string().contains("build it again"), "{err}");
        // Cut short anywhere: refused as truncated (or as no database at all).
        for cut in [0, 7, HEADER + 3, bytes.len() / 2, bytes.len() - 1] {
            let err = EgdbView::parse(&bytes[..cut]).expect_err("truncated");
            assert!(
                matches!(err, EgdbError::Truncated { .. } | EgdbError::NotADatabase),
                "{cut}: {err}"
            );
        }
        // Something else entirely.
        assert_eq!(
            EgdbView::parse(b"PDN 1. 11-15 23-19").expect_err("foreign"),
            EgdbError::NotADatabase
        );
        // A file read back and written again is the same file.
        assert_eq!(encode(&view.to_tables()), bytes);
    }
}
