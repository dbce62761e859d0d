//! The decoded blocks a database keeps for its probes, in sets of a few slots: a block lives in
//! the set its number hashes to (so blocks whose numbers collide do not evict each other at every
//! probe), and a block decoded into a full set takes the slot of the set's least recently used
//! one.
//!
//! Built for the probe's cost, which is mostly memory: the slots' tags (the block each holds and
//! when it was last used, eight bytes) lie apart from the bytes, a set's four tags in half a cache
//! line and all of them small enough to stay in the processor's caches; the bytes of every slot
//! are one anonymous mapping made at the first block decoded (backed by huge pages where the
//! system offers them, so that reading a byte of a 64 MB cache at random does not also miss the
//! TLB), never a buffer allocated a block.

use memmap2::{Advice, MmapMut};

/// Bytes of data in a block of the file format, and so in a slot here (16,384 positions): small
/// enough to decode for one probe (a few microseconds), large enough to compress well.
pub const BLOCK: usize = 4 * 1024;

/// No block: the tag of an empty slot.
const EMPTY: u32 = u32::MAX;

/// What a slot holds: eight bytes, so that the tags of all 16,384 slots (128 KB) stay in the
/// processor's second-level cache beside the search's own data, and a set of four is half a line.
#[derive(Debug, Clone, Copy)]
struct Tag {
    /// The block's number, or [`EMPTY`].
    block: u32,
    /// When it was last read, on the cache's own clock (which wraps: ages are taken modulo
    /// 2^32, and a slot unread for four billion reads is as good to evict as any).
    used: u32,
}

/// The bytes of every slot, [`BLOCK`] each.
enum Arena {
    /// An anonymous mapping (pages given as they are first written).
    Mapped(MmapMut),
    /// Memory from the allocator, where no mapping could be made.
    Heap(Vec<u8>),
}

impl Arena {
    fn new(len: usize) -> Arena {
        match MmapMut::map_anon(len) {
            Ok(map) => {
                // Only advice: a system without transparent huge pages keeps small ones.
                let _ = map.advise(Advice::HugePage);
                Arena::Mapped(map)
            }
            Err(_) => Arena::Heap(vec![0; len]),
        }
    }

    fn bytes(&mut self) -> &mut [u8] {
        match self {
            Arena::Mapped(map) => map,
            Arena::Heap(bytes) => bytes,
        }
    }
}

/// Decoded blocks in `sets` sets of `ways` slots.
pub(super) struct BlockCache {
    sets: usize,
    ways: usize,
    /// One a slot, set after set.
    tags: Vec<Tag>,
    /// Made at the first block decoded.
    arena: Option<Arena>,
    /// The zstd decoding context, made at the first block decoded and kept.
    decoder: Option<zstd::zstd_safe::DCtx<'static>>,
    /// Reads so far, modulo 2^32: the clock of [`Tag::used`].
    clock: u32,
    /// Blocks decoded so far (a read that found its block kept decodes none).
    pub(super) decoded: u64,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockCache")
            .field("sets", &self.sets)
            .field("ways", &self.ways)
            .field("decoded", &self.decoded)
            .finish_non_exhaustive()
    }
}

impl BlockCache {
    /// An empty cache; nothing is allocated but the tags until a block is decoded.
    pub(super) fn new(sets: usize, ways: usize) -> BlockCache {
        let (sets, ways) = (sets.max(1), ways.max(1));
        let empty = Tag {
            block: EMPTY,
            used: 0,
        };
        BlockCache {
            sets,
            ways,
            tags: vec![empty; sets * ways],
            arena: None,
            decoder: None,
            clock: 0,
            decoded: 0,
        }
    }

    /// The first slot of the set a block lives in (a multiplicative hash, so that the blocks
    /// of one slice, numbered in a row, spread over every set, scaled to the sets by a multiply
    /// rather than a division).
    fn set_of(&self, block: u32) -> usize {
        let hash = u64::from(block).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        let set = (hash * self.sets as u64) >> 32;
        usize::try_from(set).unwrap_or(0) * self.ways
    }

    /// The [`BLOCK`] bytes of `block`'s slot: kept from before, or decoded now by `decode` into
    /// the buffer of the set's least recently used slot (`decode` returns `None` for a block that
    /// does not decode, which is then not kept). A block shorter than [`BLOCK`] (a file's last)
    /// fills the front of its slot; the caller knows its length.
    pub(super) fn block(
        &mut self,
        block: usize,
        decode: impl FnOnce(&mut zstd::zstd_safe::DCtx<'static>, &mut [u8]) -> Option<()>,
    ) -> Option<&[u8]> {
        let block = u32::try_from(block).ok().filter(|&b| b != EMPTY)?;
        self.clock = self.clock.wrapping_add(1);
        let clock = self.clock;
        let first = self.set_of(block);
        let set = self.tags.get_mut(first..first + self.ways)?;
        let slot = match set.iter().position(|tag| tag.block == block) {
            Some(way) => {
                set[way].used = clock;
                first + way
            }
            None => {
                let way = (0..set.len()).max_by_key(|&way| clock.wrapping_sub(set[way].used))?;
                set[way].block = EMPTY;
                if self.decoder.is_none() {
                    self.decoder = Some(zstd::zstd_safe::DCtx::try_create()?);
                }
                let decoder = self.decoder.as_mut()?;
                let arena = self
                    .arena
                    .get_or_insert_with(|| Arena::new(self.tags.len() * BLOCK));
                let start = (first + way) * BLOCK;
                let out = arena.bytes().get_mut(start..start + BLOCK)?;
                decode(decoder, out)?;
                self.decoded += 1;
                *self.tags.get_mut(first + way)? = Tag { block, used: clock };
                first + way
            }
        };
        let start = slot * BLOCK;
        self.arena.as_mut()?.bytes().get(start..start + BLOCK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `blocks` in turn; a block decoded is filled with its number. Returns the first
    /// byte of each read.
    fn read(cache: &mut BlockCache, blocks: &[usize]) -> Vec<u8> {
        blocks
            .iter()
            .map(|&block| {
                let bytes = cache.block(block, |_, out| {
                    out.fill(block as u8);
                    Some(())
                });
                bytes.expect("a block decodes")[0]
            })
            .collect()
    }

    #[test]
    fn the_least_recently_used_block_is_evicted_across_the_clocks_wrap() {
        let mut cache = BlockCache::new(1, 4);
        // Four reads before the clock wraps, three after it: block 0, read before the wrap, is
        // the least recently used, though its stamp is the largest number.
        cache.clock = u32::MAX - 4;
        assert_eq!(read(&mut cache, &[0, 1, 2, 3]), [0, 1, 2, 3]);
        assert_eq!(read(&mut cache, &[1, 2, 3]), [1, 2, 3]);
        assert!(cache.clock < 8, "the clock wrapped: {}", cache.clock);
        assert_eq!(cache.decoded, 4);
        // A fifth block takes block 0's slot: 1, 2 and 3 are still kept, 0 is decoded again.
        assert_eq!(read(&mut cache, &[4, 1, 2, 3]), [4, 1, 2, 3]);
        assert_eq!(cache.decoded, 5);
        assert_eq!(read(&mut cache, &[0]), [0]);
        assert_eq!(cache.decoded, 6);
    }

    #[test]
    fn a_block_that_does_not_decode_is_not_kept() {
        let mut cache = BlockCache::new(1, 2);
        assert!(cache.block(7, |_, _| None).is_none());
        assert_eq!(read(&mut cache, &[7]), [7]);
        assert_eq!(cache.decoded, 1);
    }
}
