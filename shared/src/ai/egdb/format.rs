//! kingme's endgame database file: a header (the magic `KMEGDB`, a zero, the format number byte,
//! the largest piece count, the number of slices), a slice table (four piece counts, the slice's
//! byte offset in the data and its number of entries, each), the length of the compressed data
//! and the data itself (four positions a byte, two bits each, in index order, Black to move only:
//! see [`super::index`]; compressed with deflate, `miniz_oxide`), and a CRC-32 of everything
//! before it, little-endian throughout. [`Egdb`] holds the data in memory after checking the
//! file's length, its table and its checksum, and that the data inflates to exactly the size the
//! table gives: a damaged or truncated file is refused with the reason, never used.

use super::Verdict;
use super::index::{Counts, SliceMap, index_of, normalise};
use super::solve::{Tables, packed_code};
use crate::games::checkers::Position;

/// The magic: `KMEGDB`, a zero byte, then the format number byte.
const MAGIC: &[u8; 7] = b"KMEGDB\x00";
/// The format this code writes and reads; format 1 (an index with both sides to move) and
/// format 2 (the data not compressed) are refused.
const FORMAT: u8 = 3;
/// The deflate level: the data is written once and read many times.
const LEVEL: u8 = 9;
/// The largest data a file may declare: above the six-piece set (641 MB), far below a bomb.
const MAX_DATA: u64 = 1 << 30;
const HEADER: usize = 16;
const SLICE_ENTRY: usize = 20;
const CHECKSUM: usize = 4;
/// More slices than any piece count up to 12 has; a larger count is a damaged file.
const MAX_SLICES: usize = 4096;

/// Why a database file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EgdbError {
    #[error("not a kingme endgame database (it does not start with KMEGDB)")]
    NotADatabase,
    #[error(
        "the endgame database is in format {found}, this kingme reads format {FORMAT}; build it \
         again with kingme egdb build"
    )]
    OtherFormat { found: u8 },
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
    out.push(FORMAT);
    out.extend_from_slice(&tables.max_pieces().to_le_bytes());
    out.extend_from_slice(&(tables.slices().len() as u32).to_le_bytes());
    let mut offset = 0u64;
    for (counts, packed) in tables.slices() {
        out.extend_from_slice(&[
            counts.black_men,
            counts.black_kings,
            counts.white_men,
            counts.white_kings,
        ]);
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&counts.entries().to_le_bytes());
        offset += packed.len() as u64;
    }
    let data: Vec<u8> = tables
        .slices()
        .iter()
        .flat_map(|(_, packed)| packed.iter().copied())
        .collect();
    let compressed = miniz_oxide::deflate::compress_to_vec(&data, LEVEL);
    out.extend_from_slice(&(compressed.len() as u64).to_le_bytes());
    out.extend_from_slice(&compressed);
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// A checked database file in memory.
#[derive(Clone)]
pub struct Egdb {
    /// The data, inflated.
    bytes: Vec<u8>,
    /// The file's size.
    file_len: usize,
    max_pieces: u32,
    /// Each slice's data start in `bytes` and its entries.
    slices: SliceMap<(usize, u64)>,
    /// The slices in file order.
    order: Vec<Counts>,
}

impl std::fmt::Debug for Egdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Egdb")
            .field("bytes", &self.bytes.len())
            .field("file_len", &self.file_len)
            .field("max_pieces", &self.max_pieces)
            .field("slices", &self.order.len())
            .finish()
    }
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

impl Egdb {
    /// Checks a whole file and reads its table.
    pub fn parse(bytes: Vec<u8>) -> Result<Egdb, EgdbError> {
        if bytes.len() < HEADER || &bytes[..7] != MAGIC {
            return Err(EgdbError::NotADatabase);
        }
        let format = bytes[7];
        if format != FORMAT {
            return Err(EgdbError::OtherFormat { found: format });
        }
        let max_pieces = le_u32(&bytes, 8);
        let count = le_u32(&bytes, 12) as usize;
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
        if bytes.len() < table_end + 8 + CHECKSUM {
            return Err(truncated((table_end + 8 + CHECKSUM) as u64));
        }
        let mut slices = SliceMap::default();
        let mut order = Vec::with_capacity(count);
        let mut expected_offset = 0u64;
        for slot in 0..count {
            let at = HEADER + slot * SLICE_ENTRY;
            let counts = Counts {
                black_men: bytes[at],
                black_kings: bytes[at + 1],
                white_men: bytes[at + 2],
                white_kings: bytes[at + 3],
            };
            let (offset, entries) = (le_u64(&bytes, at + 4), le_u64(&bytes, at + 12));
            if counts.total() > max_pieces
                || offset != expected_offset
                || entries != counts.entries()
                || slices.get(counts).is_some()
            {
                return Err(EgdbError::BadTable(format!("slice {slot} ({counts:?})")));
            }
            expected_offset = offset
                .checked_add(entries.div_ceil(4))
                .ok_or_else(|| EgdbError::BadTable(format!("slice {slot} is too large")))?;
            if expected_offset > MAX_DATA {
                return Err(EgdbError::BadTable(format!(
                    "slice {slot} ends after {expected_offset} bytes of data, more than any \
                     database holds"
                )));
            }
            let start = offset as usize;
            if !slices.insert(counts, (start, entries)) {
                return Err(EgdbError::BadTable(format!("slice {slot} ({counts:?})")));
            }
            order.push(counts);
        }
        let compressed_len = le_u64(&bytes, table_end);
        let expected_len = ((table_end + 8 + CHECKSUM) as u64)
            .checked_add(compressed_len)
            .ok_or_else(|| EgdbError::BadTable("a length larger than any file".to_owned()))?;
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
        let found = le_u32(&bytes, body);
        let computed = crc32fast::hash(&bytes[..body]);
        if found != computed {
            return Err(EgdbError::Checksum { found, computed });
        }
        let raw_len = expected_offset as usize;
        let data = miniz_oxide::inflate::decompress_to_vec_with_limit(
            &bytes[table_end + 8..body],
            raw_len,
        )
        .map_err(|_| EgdbError::BadTable("the data does not inflate to its table".to_owned()))?;
        if data.len() != raw_len {
            return Err(EgdbError::BadTable(format!(
                "the data inflates to {} bytes, its table needs {raw_len}",
                data.len()
            )));
        }
        Ok(Egdb {
            bytes: data,
            file_len: bytes.len(),
            max_pieces,
            slices,
            order,
        })
    }

    /// The largest piece count the file covers.
    #[must_use]
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The file's size in bytes.
    #[must_use]
    pub fn len_bytes(&self) -> usize {
        self.file_len
    }

    /// The size of the data in memory, in bytes.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.bytes.len()
    }

    /// The verdict for the side to move, when the position is in the database. Cheap when it is
    /// not: more pieces than the file holds are turned away by a count of bits.
    #[inline]
    #[must_use]
    pub fn verdict(&self, position: &Position) -> Option<Verdict> {
        if (position.black() | position.white()).count_ones() > self.max_pieces {
            return None;
        }
        let black_to_move = normalise(position);
        let &(start, entries) = self.slices.get(Counts::of(&black_to_move))?;
        let index = index_of(&black_to_move);
        if index >= entries {
            return None;
        }
        Verdict::from_code(packed_code(self.bytes.get(start..)?, index))
    }

    /// For each slice in file order, how many of its indices are no position, wins, losses and
    /// draws (for the side to move, Black).
    #[must_use]
    pub fn tallies(&self) -> Vec<(Counts, [u64; 4])> {
        self.order
            .iter()
            .filter_map(|&counts| {
                let &(start, entries) = self.slices.get(counts)?;
                let data = self.bytes.get(start..)?;
                let mut tally = [0u64; 4];
                for index in 0..entries {
                    tally[usize::from(packed_code(data, index))] += 1;
                }
                Some((counts, tally))
            })
            .collect()
    }

    /// The tables in memory (for tests and tools that rewrite a file).
    #[must_use]
    pub fn to_tables(&self) -> Tables {
        let mut tables = Tables::default();
        for &counts in &self.order {
            if let Some(&(start, entries)) = self.slices.get(counts) {
                let end = start + entries.div_ceil(4) as usize;
                tables.insert(counts, self.bytes[start..end].to_vec());
            }
        }
        tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::egdb::index::{flip, position_at};
    use crate::ai::egdb::solve;

    #[test]
    fn a_file_reads_back_every_verdict_and_damage_is_refused() {
        let tables = solve(2, |_| {});
        let bytes = encode(&tables);
        let db = Egdb::parse(bytes.clone()).expect("a fresh file");
        assert_eq!(db.max_pieces(), 2);
        let mut checked = 0;
        for (counts, _) in tables.slices() {
            for index in 0..counts.entries() {
                if let Some(position) = position_at(*counts, index) {
                    assert_eq!(db.verdict(&position), tables.verdict(&position));
                    assert_eq!(db.verdict(&flip(&position)), tables.verdict(&position));
                    assert!(db.verdict(&position).is_some());
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
        // One flipped bit in the data: the checksum no longer matches.
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last - 200] ^= 1;
        let err = Egdb::parse(damaged).expect_err("damaged");
        assert!(matches!(err, EgdbError::Checksum { .. }), "{err}");
        assert!(err.to_string().contains("build it again"), "{err}");
        // A flipped bit in the table.
        let mut damaged = bytes.clone();
        damaged[HEADER + 5] ^= 0x10;
        assert!(matches!(
            Egdb::parse(damaged),
            Err(EgdbError::BadTable(_) | EgdbError::Checksum { .. } | EgdbError::Truncated { .. })
        ));
        // Cut short anywhere: refused as truncated (or as no database at all).
        for cut in [0, 7, HEADER + 3, bytes.len() / 2, bytes.len() - 1] {
            let err = Egdb::parse(bytes[..cut].to_vec()).expect_err("truncated");
            assert!(
                matches!(err, EgdbError::Truncated { .. } | EgdbError::NotADatabase),
                "{cut}: {err}"
            );
        }
        // Something else entirely, and a file of the first format.
        assert_eq!(
            Egdb::parse(b"PDN 1. 11-15 23-19".to_vec()).expect_err("foreign"),
            EgdbError::NotADatabase
        );
        let mut old = bytes.clone();
        old[7] = 1;
        let err = Egdb::parse(old).expect_err("format 1");
        assert!(err.to_string().contains("in format 1"), "{err}");
        // The tallies count every index once, and as many wins as the tables hold.
        let tallies = db.tallies();
        assert_eq!(tallies.len(), tables.slices().len());
        for (counts, tally) in tallies {
            assert_eq!(tally.iter().sum::<u64>(), counts.entries());
        }
        // A file read back and written again is the same file.
        assert_eq!(encode(&db.to_tables()), bytes);
    }
}
