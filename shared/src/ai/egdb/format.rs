//! kingme's endgame database file, format 5, little-endian throughout:
//!
//! - a header: the magic `KMEGDB`, a zero, the format number byte, the largest piece count, the
//!   number of slices, the number of blocks and the block size ([`BLOCK`] bytes of data);
//! - a slice table: each slice's four piece counts, its byte offset in the data, its number of
//!   entries and its wins, losses and draws (Black to move, every position counted);
//! - a block table: where each block starts in the compressed data, and where the last ends;
//! - the blocks of [`BLOCK`] bytes of data (16,384 positions), each compressed on its own as a
//!   zstd frame, so that a probe decodes one small block (the file is read in place,
//!   [`super::storage`]); format 4 deflated blocks of 16 KiB, four times the bytes decoded a
//!   probe with a code several times slower to decode;
//! - a CRC-32 of everything before it.
//!
//! The data is four positions a byte, two bits each, in index order, Black to move only (see
//! [`super::index`]). Positions where the side to move has a capture are not stored: captures
//! are compulsory, so [`Egdb::verdict`] answers them by a search of the captures into the
//! smaller slices; their two bits (and those of the indices that name no position) repeat the
//! last stored verdict before them, which the compression turns into almost nothing.
//!
//! [`Egdb::parse`] checks the whole file before any use: its length, its checksum, its tables
//! against the index (a file cannot declare more than 1 GiB of data); a damaged or truncated
//! file is refused with the reason, never used.

pub use super::cache::BLOCK;

use super::cache::BlockCache;
use super::index::{Counts, SliceMap, for_each_position, index_in, normalise};
use super::solve::{Tables, pack, packed_code};
use super::storage::Storage;
use super::{NONE, Verdict, WIN};
use crate::games::checkers::{Position, for_each_move, has_capture};
use std::sync::Mutex;

/// The magic: `KMEGDB`, a zero byte, then the format number byte.
const MAGIC: &[u8; 7] = b"KMEGDB\x00";
/// The format this code writes and reads; format 1 (an index with both sides to move), format
/// 2 (the data not compressed), format 3 (deflated whole, every position stored) and format 4
/// (deflated blocks of 16 KiB) are refused.
const FORMAT: u8 = 5;
/// The zstd level: the data is written once and read many times, and levels above this one
/// shrink the six-piece file by 2% for twice the time.
const LEVEL: i32 = 16;
/// The largest data a file may declare: above the six-piece set (679 MB), far below a bomb.
const MAX_DATA: u64 = 1 << 30;
const HEADER: usize = 24;
const SLICE_ENTRY: usize = 44;
const CHECKSUM: usize = 4;
/// More slices than any piece count up to 12 has; a larger count is a damaged file.
const MAX_SLICES: usize = 4096;
/// Decoded blocks kept for probes: a block may live in any of the [`CACHE_WAYS`] slots of the set
/// its number hashes to, so that blocks whose numbers collide do not evict each other at every
/// probe. 16,384 blocks, 64 MB at most: every block of five pieces (9,240) at once; a search of
/// six-piece endings touches far fewer than the 166,000 blocks of six.
const CACHE_SETS: usize = 4096;
const CACHE_WAYS: usize = 4;

/// Why a database file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EgdbError {
    #[error(
        "not a kingme endgame database (it does not start with KMEGDB); build one with kingme \
         egdb build"
    )]
    /// The file does not start with the database's magic bytes.
    NotADatabase,
    #[error(
        "the endgame database is in format {found}, this kingme reads format {FORMAT}; build it \
         again with kingme egdb build --pieces {pieces}"
    )]
    /// A database of another format version.
    OtherFormat {
        /// The file's format version.
        found: u8,
        /// The most pieces its positions have (to say how to build it again).
        pieces: u32,
    },
    #[error(
        "the endgame database is truncated: {got} bytes where its table needs {expected}; build \
         it again with kingme egdb build"
    )]
    /// The file is shorter than its table says.
    Truncated {
        /// Bytes the table needs.
        expected: u64,
        /// Bytes the file has.
        got: u64,
    },
    #[error(
        "the endgame database is damaged: its checksum is {found:08x}, its contents give \
         {computed:08x}; build it again with kingme egdb build"
    )]
    /// The stored checksum does not match the contents.
    Checksum {
        /// The checksum stored in the file.
        found: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    #[error("the endgame database is damaged: {0}; build it again with kingme egdb build")]
    /// The table of slices is inconsistent, as said.
    BadTable(String),
}

/// Sets the two bits of `index` in packed codes.
fn set_code(packed: &mut [u8], index: u64, code: u8) {
    if let Some(byte) = usize::try_from(index / 4)
        .ok()
        .and_then(|at| packed.get_mut(at))
    {
        let shift = 2 * (index % 4);
        *byte = (*byte & !(3 << shift)) | ((code & 3) << shift);
    }
}

/// A slice's codes as stored (positions with a capture and indices that name no position
/// repeat the last verdict stored before them) and its tally of no position, wins, losses and
/// draws.
fn stored_codes(counts: Counts, packed: &[u8]) -> (Vec<u8>, [u64; 4]) {
    let entries = counts.entries();
    let mut stored = packed.to_vec();
    stored.resize(usize::try_from(entries.div_ceil(4)).unwrap_or(0), 0);
    let mut tally = [0u64; 4];
    let (mut next, mut last) = (0u64, WIN);
    for_each_position(counts, |index, position| {
        for skipped in next..index {
            set_code(&mut stored, skipped, last);
        }
        let code = packed_code(packed, index);
        tally[usize::from(code)] += 1;
        if has_capture(position) {
            set_code(&mut stored, index, last);
        } else {
            last = code;
        }
        next = index + 1;
    });
    for skipped in next..entries {
        set_code(&mut stored, skipped, last);
    }
    tally[0] += entries - next;
    (stored, tally)
}

/// One block of data as a zstd frame (the context is reused from block to block).
fn compress_block(context: &mut zstd::zstd_safe::CCtx<'_>, data: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(zstd::zstd_safe::compress_bound(data.len()));
    // Compressing into a buffer of the bound at a valid level cannot fail (zstd's contract);
    // the data is kingme's own, never outside input.
    #[allow(clippy::expect_used)]
    context
        .compress(&mut frame, data, LEVEL)
        .expect("zstd compresses any block into a buffer of its bound");
    // Held until the file is written: at its size, not the bound's (165,771 blocks of six
    // pieces at about 4 KiB of bound each would be 0.7 GB).
    frame.shrink_to_fit();
    frame
}

/// The file's bytes for solved tables. Blocks are compressed as the slices fill them, so the
/// data is never held whole a second time.
#[must_use]
pub fn encode(tables: &Tables) -> Vec<u8> {
    let mut table = Vec::new();
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    let mut context = zstd::zstd_safe::CCtx::create();
    let mut pending: Vec<u8> = Vec::with_capacity(2 * BLOCK);
    let mut data_len = 0u64;
    for (counts, packed) in tables.slices() {
        let (stored, tally) = stored_codes(*counts, packed);
        table.extend_from_slice(&[
            counts.black_men,
            counts.black_kings,
            counts.white_men,
            counts.white_kings,
        ]);
        table.extend_from_slice(&data_len.to_le_bytes());
        table.extend_from_slice(&counts.entries().to_le_bytes());
        for count in &tally[1..] {
            table.extend_from_slice(&count.to_le_bytes());
        }
        data_len += stored.len() as u64;
        let mut rest = stored.as_slice();
        while !rest.is_empty() {
            let take = (BLOCK - pending.len()).min(rest.len());
            pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if pending.len() == BLOCK {
                blocks.push(compress_block(&mut context, &pending));
                pending.clear();
            }
        }
    }
    if !pending.is_empty() {
        blocks.push(compress_block(&mut context, &pending));
    }
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.push(FORMAT);
    out.extend_from_slice(&tables.max_pieces().to_le_bytes());
    out.extend_from_slice(&(tables.slices().len() as u32).to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&table);
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for block in &blocks {
        offset += block.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for block in &blocks {
        out.extend_from_slice(block);
    }
    let checksum = crc32fast::hash(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// A slice of the file: where its data starts, its entries and its tally.
#[derive(Debug, Clone, Copy)]
struct Slice {
    offset: u64,
    entries: u64,
    tally: [u64; 4],
}

/// The pieces on the board, both sides'.
fn pieces_on(position: &Position) -> u32 {
    (position.black() | position.white()).count_ones()
}

/// A checked database file, read in place: blocks are decoded as probes need them and many
/// are kept.
pub struct Egdb {
    file: Storage,
    max_pieces: u32,
    slices: SliceMap<Slice>,
    /// The slices in file order.
    order: Vec<Counts>,
    /// Where the block table starts in the file, and the compressed data after it.
    block_table: usize,
    data_start: usize,
    blocks: usize,
    /// Bytes of data (decoded) in all.
    data_len: u64,
    cache: Mutex<BlockCache>,
}

impl std::fmt::Debug for Egdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Egdb")
            .field("file_len", &self.file.len())
            .field("data_len", &self.data_len)
            .field("max_pieces", &self.max_pieces)
            .field("slices", &self.order.len())
            .field("blocks", &self.blocks)
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
    /// Checks a whole file and reads its tables.
    pub fn parse(file: impl Into<Storage>) -> Result<Egdb, EgdbError> {
        let file: Storage = file.into();
        let bytes: &[u8] = &file;
        if bytes.len() < HEADER || &bytes[..7] != MAGIC {
            return Err(EgdbError::NotADatabase);
        }
        let format = bytes[7];
        if format != FORMAT {
            // Every format so far gave the largest piece count next, for the advice.
            let pieces = le_u32(bytes, 8);
            return Err(EgdbError::OtherFormat {
                found: format,
                pieces: if (2..=24).contains(&pieces) {
                    pieces
                } else {
                    5
                },
            });
        }
        let max_pieces = le_u32(bytes, 8);
        let count = le_u32(bytes, 12) as usize;
        let blocks = le_u32(bytes, 16) as usize;
        let block_size = le_u32(bytes, 20) as usize;
        if count > MAX_SLICES || max_pieces > 24 || block_size != BLOCK {
            return Err(EgdbError::BadTable(format!(
                "{count} slices of up to {max_pieces} pieces in blocks of {block_size} bytes"
            )));
        }
        if blocks as u64 > MAX_DATA.div_ceil(BLOCK as u64) {
            return Err(EgdbError::BadTable(format!(
                "{blocks} blocks, more than any database holds"
            )));
        }
        let block_table = HEADER + count * SLICE_ENTRY;
        let data_start = block_table + (blocks + 1) * 8;
        let got = bytes.len() as u64;
        if bytes.len() < data_start + CHECKSUM {
            return Err(EgdbError::Truncated {
                expected: (data_start + CHECKSUM) as u64,
                got,
            });
        }
        let compressed_len = le_u64(bytes, data_start - 8);
        let expected = ((data_start + CHECKSUM) as u64)
            .checked_add(compressed_len)
            .ok_or_else(|| EgdbError::BadTable("a length larger than any file".to_owned()))?;
        if got < expected {
            return Err(EgdbError::Truncated { expected, got });
        }
        if got > expected {
            return Err(EgdbError::BadTable(format!(
                "{} bytes after the end of the data",
                got - expected
            )));
        }
        let body = bytes.len() - CHECKSUM;
        let found = le_u32(bytes, body);
        let computed = crc32fast::hash(&bytes[..body]);
        if found != computed {
            return Err(EgdbError::Checksum { found, computed });
        }
        let (slices, order, data_len) = read_slices(bytes, count, max_pieces)?;
        if data_len.div_ceil(BLOCK as u64) != blocks as u64 {
            return Err(EgdbError::BadTable(format!(
                "{blocks} blocks for {data_len} bytes of data"
            )));
        }
        let mut previous = 0;
        for block in 0..=blocks {
            let offset = le_u64(bytes, block_table + 8 * block);
            if offset < previous || (block == 0 && offset != 0) {
                return Err(EgdbError::BadTable(format!(
                    "block {block} starts at {offset}"
                )));
            }
            previous = offset;
        }
        Ok(Egdb {
            max_pieces,
            slices,
            order,
            block_table,
            data_start,
            blocks,
            data_len,
            cache: Mutex::new(BlockCache::new(CACHE_SETS, CACHE_WAYS)),
            file,
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
        self.file.len()
    }

    /// Whether the file is memory-mapped rather than read into memory.
    #[must_use]
    pub fn is_mapped(&self) -> bool {
        self.file.is_mapped()
    }

    /// The verdict for the side to move, when the position is in the database. Cheap when it is
    /// not: more pieces than the file holds are turned away by a count of bits. A position with
    /// a capture is answered by its captures (each into a smaller slice); a side whose last
    /// piece was taken has lost.
    #[must_use]
    pub fn verdict(&self, position: &Position) -> Option<Verdict> {
        if !self.covers(position) {
            return None;
        }
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        self.verdict_with(position, &mut cache)
    }

    /// Whether the position has few enough pieces to be in the file.
    fn covers(&self, position: &Position) -> bool {
        pieces_on(position) <= self.max_pieces
    }

    /// Whether the position has as many pieces as the file's largest endings, or more (a search
    /// leaves those to its evaluation at the horizon).
    #[must_use]
    pub fn at_largest_count(&self, position: &Position) -> bool {
        pieces_on(position) >= self.max_pieces
    }

    /// [`Egdb::verdict`] under the cache's lock, taken once for a probe and its captures.
    fn verdict_with(&self, position: &Position, cache: &mut BlockCache) -> Option<Verdict> {
        if !self.covers(position) {
            return None;
        }
        let black_to_move = normalise(position);
        if black_to_move.black() == 0 {
            // Its last piece taken: lost (no slice holds a side without pieces).
            return Some(Verdict::Loss);
        }
        if has_capture(&black_to_move) {
            return self.capture_verdict(&black_to_move, cache);
        }
        let counts = Counts::of(&black_to_move);
        let slice = self.slices.get(counts)?;
        let index = index_in(&black_to_move, counts);
        if index >= slice.entries {
            return None;
        }
        let at = slice.offset + index / 4;
        let byte = self.data_byte(at, cache)?;
        Verdict::from_code((byte >> (2 * (index % 4))) & 3)
    }

    /// The verdict of a position (Black to move) that must capture: won if a capture leaves
    /// the opponent lost (or without pieces), drawn if the best leaves a draw, else lost.
    fn capture_verdict(&self, black_to_move: &Position, cache: &mut BlockCache) -> Option<Verdict> {
        let (mut win, mut draw, mut unknown) = (false, false, false);
        for_each_move(black_to_move, |mv| {
            if win {
                return;
            }
            let child = black_to_move.after(mv);
            match self.verdict_with(&child, cache) {
                Some(Verdict::Loss) => win = true,
                Some(Verdict::Draw) => draw = true,
                Some(Verdict::Win) => {}
                None => unknown = true,
            }
        });
        if win {
            Some(Verdict::Win)
        } else if unknown {
            None
        } else if draw {
            Some(Verdict::Draw)
        } else {
            Some(Verdict::Loss)
        }
    }

    /// A byte of the data, from its block (decoded now or kept from before).
    fn data_byte(&self, at: u64, cache: &mut BlockCache) -> Option<u8> {
        let block = usize::try_from(at / BLOCK as u64).ok()?;
        let within = (at % BLOCK as u64) as usize;
        if within >= self.block_len(block) {
            return None;
        }
        let bytes = cache.block(block, |decoder, out| self.decode_into(block, decoder, out))?;
        bytes.get(within).copied()
    }

    /// One block, decoded into `out` (at least [`BLOCK`] bytes) and checked against the size
    /// the table gives it ([`Egdb::block_len`]); `None` for a block that does not decode to it.
    fn decode_into(
        &self,
        block: usize,
        decoder: &mut zstd::zstd_safe::DCtx<'_>,
        out: &mut [u8],
    ) -> Option<()> {
        if block >= self.blocks {
            return None;
        }
        let start = self.data_start + usize::try_from(self.offset(block)).ok()?;
        let end = self.data_start + usize::try_from(self.offset(block + 1)).ok()?;
        let size = self.block_len(block);
        let input = self.file.get(start..end)?;
        let decoded = decoder.decompress(out.get_mut(..size)?, input).ok()?;
        (decoded == size).then_some(())
    }

    /// How many bytes a block decodes to: [`BLOCK`], or less for the data's last block (0 for
    /// a block past the end).
    fn block_len(&self, block: usize) -> usize {
        let start = (block as u64).saturating_mul(BLOCK as u64);
        usize::try_from(self.data_len.saturating_sub(start).min(BLOCK as u64)).unwrap_or(0)
    }

    /// Where a block starts in the compressed data (checked at parse).
    fn offset(&self, block: usize) -> u64 {
        le_u64(&self.file, self.block_table + 8 * block)
    }

    /// Whether every block decodes to the size its table gives (a whole read of the data).
    #[must_use]
    pub fn blocks_decode(&self) -> bool {
        let mut buffer = vec![0u8; BLOCK];
        let Some(mut decoder) = zstd::zstd_safe::DCtx::try_create() else {
            return false;
        };
        (0..self.blocks).all(|block| self.decode_into(block, &mut decoder, &mut buffer).is_some())
    }

    /// For each slice in file order, how many of its indices are no position, wins, losses and
    /// draws (for the side to move, Black), as the file's table gives them.
    #[must_use]
    pub fn tallies(&self) -> Vec<(Counts, [u64; 4])> {
        self.order
            .iter()
            .filter_map(|&counts| Some((counts, self.slices.get(counts)?.tally)))
            .collect()
    }

    /// Every verdict of the file, positions with a capture answered by their captures (for
    /// tests and tools that rewrite a file; it probes every position).
    #[must_use]
    pub fn to_tables(&self) -> Tables {
        let mut tables = Tables::default();
        for &counts in &self.order {
            let mut codes = vec![NONE; usize::try_from(counts.entries()).unwrap_or(0)];
            for_each_position(counts, |index, position| {
                if let Some(verdict) = self.verdict(position) {
                    codes[index as usize] = verdict.code();
                }
            });
            tables.insert(counts, pack(&codes));
        }
        tables
    }
}

/// The slice table: each slice where it sits, checked against the index.
fn read_slices(
    bytes: &[u8],
    count: usize,
    max_pieces: u32,
) -> Result<(SliceMap<Slice>, Vec<Counts>, u64), EgdbError> {
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
        let (offset, entries) = (le_u64(bytes, at + 4), le_u64(bytes, at + 12));
        let mut tally = [0u64; 4];
        for (kind, place) in tally.iter_mut().enumerate().skip(1) {
            *place = le_u64(bytes, at + 20 + 8 * (kind - 1));
        }
        let known = tally.iter().try_fold(0u64, |sum, &n| sum.checked_add(n));
        let bad = || EgdbError::BadTable(format!("slice {slot} ({counts:?})"));
        if counts.total() > max_pieces
            || offset != expected_offset
            || entries != counts.entries()
            || known.is_none_or(|known| known > entries)
            || slices.get(counts).is_some()
        {
            return Err(bad());
        }
        tally[0] = entries - known.unwrap_or(0);
        expected_offset = offset
            .checked_add(entries.div_ceil(4))
            .ok_or_else(|| EgdbError::BadTable(format!("slice {slot} is too large")))?;
        if expected_offset > MAX_DATA {
            return Err(EgdbError::BadTable(format!(
                "slice {slot} ends after {expected_offset} bytes of data, more than any \
                 database holds"
            )));
        }
        if !slices.insert(
            counts,
            Slice {
                offset,
                entries,
                tally,
            },
        ) {
            return Err(bad());
        }
        order.push(counts);
    }
    Ok((slices, order, expected_offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::egdb::index::{flip, position_at};
    use crate::ai::egdb::solve;

    #[test]
    fn a_file_reads_back_every_verdict_and_damage_is_refused() {
        let tables = solve(3, |_| {});
        let bytes = encode(&tables);
        let db = Egdb::parse(bytes.clone()).expect("a fresh file");
        assert_eq!(db.max_pieces(), 3);
        assert!(db.blocks_decode());
        let (mut checked, mut captures) = (0, 0);
        for (counts, packed) in tables.slices() {
            let mut tally = [0u64; 4];
            for index in 0..counts.entries() {
                tally[usize::from(packed_code(packed, index))] += 1;
                if let Some(position) = position_at(*counts, index) {
                    assert_eq!(db.verdict(&position), tables.verdict(&position));
                    assert_eq!(db.verdict(&flip(&position)), tables.verdict(&position));
                    assert!(db.verdict(&position).is_some());
                    checked += 1;
                    captures += u32::from(has_capture(&position));
                }
            }
            let (_, told) = db
                .tallies()
                .into_iter()
                .find(|(c, _)| c == counts)
                .expect("a slice");
            assert_eq!(told, tally, "{counts:?}");
        }
        assert!(
            checked > 100_000 && captures > 10_000,
            "{checked} {captures}"
        );
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
        // Something else entirely, and files of older formats.
        assert_eq!(
            Egdb::parse(b"PDN 1. 11-15 23-19".to_vec()).expect_err("foreign"),
            EgdbError::NotADatabase
        );
        for format in [1, 3, 4] {
            let mut old = bytes.clone();
            old[7] = format;
            let err = Egdb::parse(old).expect_err("an older format");
            assert!(
                err.to_string().contains(&format!("in format {format}")),
                "{err}"
            );
            assert!(
                err.to_string()
                    .contains("build it again with kingme egdb build --pieces 3"),
                "{err}"
            );
        }
        // A file read back and written again is the same file.
        assert_eq!(encode(&db.to_tables()), bytes);
    }

    #[test]
    fn a_small_block_cache_gives_the_same_verdicts_and_a_large_one_decodes_each_block_once() {
        let tables = solve(3, |_| {});
        let db = Egdb::parse(encode(&tables)).expect("a fresh file");
        assert!(db.blocks > 2, "{db:?}");
        // One slot evicts at every change of block; 64 keep every block once decoded.
        let (mut tiny, mut roomy) = (BlockCache::new(1, 1), BlockCache::new(16, 4));
        for (counts, _) in tables.slices() {
            for index in 0..counts.entries() {
                if let Some(position) = position_at(*counts, index) {
                    let shared = db.verdict(&position);
                    assert_eq!(db.verdict_with(&position, &mut tiny), shared);
                    assert_eq!(db.verdict_with(&flip(&position), &mut roomy), shared);
                }
            }
        }
        assert!(roomy.decoded <= db.blocks as u64, "{roomy:?}");
        assert!(tiny.decoded > roomy.decoded, "{tiny:?}");
        // Too many pieces: turned away without a block.
        let crowded =
            Position::from_parts(0b1111, 0xF000_0000, 0xF000_000F, crate::game::Side::First);
        assert_eq!(
            db.verdict_with(&crowded.expect("a position"), &mut tiny),
            None
        );
        // A side whose last piece was taken has lost, whichever colour it is.
        for side in [crate::game::Side::First, crate::game::Side::Second] {
            let (own, other) = match side {
                crate::game::Side::First => (0, 1 << 9),
                crate::game::Side::Second => (1 << 9, 0),
            };
            let bare = Position::from_parts(own, other, 1 << 9, side).expect("a position");
            assert_eq!(db.verdict(&bare), Some(Verdict::Loss), "{side:?}");
        }
    }

    #[test]
    fn a_set_keeps_blocks_that_share_it_and_evicts_the_least_recently_used() {
        let db = Egdb::parse(encode(&solve(3, |_| {}))).expect("a fresh file");
        assert!(db.blocks >= 5, "{db:?}");
        let first_bytes = |cache: &mut BlockCache, blocks: &[usize]| -> Vec<u8> {
            blocks
                .iter()
                .map(|&block| {
                    db.data_byte((block * BLOCK) as u64, cache)
                        .expect("a block of the file")
                })
                .collect()
        };
        // One set of four ways: four blocks read in turn three times are decoded once each.
        let mut one_set = BlockCache::new(1, 4);
        let order = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3];
        let read = first_bytes(&mut one_set, &order);
        assert_eq!(one_set.decoded, 4, "{one_set:?}");
        // One slot decodes at every change, and reads the same bytes.
        let mut one_slot = BlockCache::new(1, 1);
        assert_eq!(first_bytes(&mut one_slot, &order), read);
        assert_eq!(one_slot.decoded, 12, "{one_slot:?}");
        // A fifth block evicts the least recently used (block 0 after reading 1, 2, 3, 0, 1, 2,
        // 3 ends with 0 the oldest): 0 is decoded again, 3 is still kept.
        first_bytes(&mut one_set, &[4]);
        assert_eq!(one_set.decoded, 5);
        first_bytes(&mut one_set, &[3]);
        assert_eq!(one_set.decoded, 5);
        first_bytes(&mut one_set, &[0]);
        assert_eq!(one_set.decoded, 6);
    }

    #[test]
    fn positions_on_each_side_of_every_block_boundary_read_as_solved() {
        let tables = solve(4, |_| {});
        let db = Egdb::parse(encode(&tables)).expect("a fresh file");
        assert!(db.blocks > 100, "{db:?}");
        // For each byte of data, the slice it belongs to and its first index there.
        let indices_at = |at: u64| -> Option<(Counts, u64)> {
            db.order.iter().find_map(|&counts| {
                let slice = db.slices.get(counts)?;
                (slice.offset..slice.offset + slice.entries.div_ceil(4))
                    .contains(&at)
                    .then_some((counts, (at - slice.offset) * 4))
            })
        };
        let (mut boundaries, mut checked) = (0, 0);
        for block in 1..db.blocks {
            let boundary = (block * BLOCK) as u64;
            let mut sides = [false; 2];
            for (side, at) in [boundary - 1, boundary].into_iter().enumerate() {
                let (counts, first) = indices_at(at).expect("every byte is in a slice");
                // A cache of one slot, so the block is decoded for this very probe.
                let mut cold = BlockCache::new(1, 1);
                for index in first..(first + 4).min(counts.entries()) {
                    let Some(position) = position_at(counts, index) else {
                        continue;
                    };
                    let solved = tables.verdict(&position);
                    assert!(solved.is_some(), "{counts:?} {index}");
                    assert_eq!(db.verdict(&position), solved, "{counts:?} {index}");
                    assert_eq!(db.verdict_with(&position, &mut cold), solved);
                    sides[side] |= !has_capture(&position);
                    checked += 1;
                }
            }
            boundaries += usize::from(sides == [true, true]);
        }
        // Most boundaries have a stored position (no capture) on both sides.
        assert!(boundaries * 2 > db.blocks, "{boundaries} of {}", db.blocks);
        assert!(checked > 4 * db.blocks, "{checked}");
    }

    #[test]
    fn a_block_that_does_not_decode_gives_no_verdict() {
        let tables = solve(3, |_| {});
        let bytes = encode(&tables);
        let db = Egdb::parse(bytes.clone()).expect("a fresh file");
        // Block 0's frame damaged and the checksum made to match: the file is accepted (only
        // someone who means it gets here), and its probes answer nothing rather than garbage.
        let mut damaged = bytes;
        damaged[db.data_start] ^= 0xff;
        let body = damaged.len() - CHECKSUM;
        let checksum = crc32fast::hash(&damaged[..body]);
        damaged[body..].copy_from_slice(&checksum.to_le_bytes());
        let bad = Egdb::parse(damaged).expect("the tables are whole");
        assert!(!bad.blocks_decode());
        let counts = db.order[0];
        let (mut answered, mut refused) = (0, 0);
        for_each_position(counts, |index, position| {
            if index < 4 * BLOCK as u64 && !has_capture(position) {
                assert!(db.verdict(position).is_some());
                answered += 1;
                refused += usize::from(bad.verdict(position).is_none());
            }
        });
        assert!(answered > 0 && refused == answered, "{answered} {refused}");
    }

    #[test]
    fn the_verdicts_of_positions_with_a_capture_are_not_stored() {
        let tables = solve(3, |_| {});
        let bytes = encode(&tables);
        // The same tables with every capture position's verdict changed: only the tallies in the
        // slice table differ, not a bit of the data.
        let mut scrambled = Tables::default();
        for (counts, packed) in tables.slices() {
            let mut codes: Vec<u8> = (0..counts.entries())
                .map(|index| packed_code(packed, index))
                .collect();
            for_each_position(*counts, |index, position| {
                if has_capture(position) {
                    codes[index as usize] = 1 + codes[index as usize] % 3;
                }
            });
            scrambled.insert(*counts, pack(&codes));
        }
        let again = encode(&scrambled);
        assert_eq!(again.len(), bytes.len());
        let blocks_start = HEADER + tables.slices().len() * SLICE_ENTRY;
        assert_ne!(again[..blocks_start], bytes[..blocks_start]);
        assert_eq!(
            again[blocks_start..again.len() - CHECKSUM],
            bytes[blocks_start..bytes.len() - CHECKSUM]
        );
    }
}
