//! The decoded blocks a database keeps for its probes, in sets of a few slots: a block lives in
//! the set its number hashes to (so blocks whose numbers collide do not evict each other at every
//! probe), and a block decoded into a full set takes the slot of the set's least recently used
//! one.
//!
//! Built for the probe's cost, which is mostly memory: the slots' tags (the block each holds, its
//! length and when it was last used) lie apart from the bytes, a set's four tags in one cache
//! line; the bytes of every slot are one anonymous mapping made at the first block decoded
//! (backed by huge pages where the system offers them, so that reading a byte of a 64 MB cache at
//! random does not also miss the TLB), never a buffer allocated a block.

use super::format::BLOCK;
use memmap2::{Advice, MmapMut};

/// No block: the tag of an empty slot.
const EMPTY: u32 = u32::MAX;

/// What a slot holds.
#[derive(Debug, Clone, Copy)]
struct Tag {
    /// The block's number, or [`EMPTY`].
    block: u32,
    /// Its decoded length (the last block of a file may be short).
    len: u32,
    /// When it was last read, on the cache's own clock.
    used: u64,
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
    /// Reads so far: the clock of [`Tag::used`].
    clock: u64,
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
            len: 0,
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
    /// of one slice, numbered in a row, spread over every set).
    fn set_of(&self, block: u32) -> usize {
        let hash = u64::from(block).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        usize::try_from(hash).unwrap_or(0) % self.sets * self.ways
    }

    /// The bytes of `block`: kept from before, or decoded now by `decode` into the buffer of
    /// the set's least recently used slot (`decode` returns the length decoded, or `None` for
    /// a block that does not decode, which is then not kept).
    pub(super) fn block(
        &mut self,
        block: usize,
        decode: impl FnOnce(&mut zstd::zstd_safe::DCtx<'static>, &mut [u8]) -> Option<usize>,
    ) -> Option<&[u8]> {
        let block = u32::try_from(block).ok().filter(|&b| b != EMPTY)?;
        self.clock += 1;
        let first = self.set_of(block);
        let set = self.tags.get_mut(first..first + self.ways)?;
        let slot = match set.iter().position(|tag| tag.block == block) {
            Some(way) => {
                set[way].used = self.clock;
                first + way
            }
            None => {
                let way = (0..set.len()).min_by_key(|&way| set[way].used)?;
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
                let len = decode(decoder, out)?;
                self.decoded += 1;
                let tag = self.tags.get_mut(first + way)?;
                *tag = Tag {
                    block,
                    len: u32::try_from(len.min(BLOCK)).ok()?,
                    used: self.clock,
                };
                first + way
            }
        };
        let len = usize::try_from(self.tags.get(slot)?.len).ok()?;
        let start = slot * BLOCK;
        self.arena.as_mut()?.bytes().get(start..start + len)
    }
}
