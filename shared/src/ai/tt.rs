//! The transposition table: what a search learnt about a position (score, bound, depth, best
//! move), found again by the position's hash when it is reached by another move order.
//!
//! One entry per slot, replaced when the new result is at least as deep or the slot holds another
//! position. Win and loss scores are stored relative to the node, not the root, so an entry stays
//! right wherever in the tree the position comes back.
//!
//! An entry is 16 bytes: the best move is kept as its place in the list the game generates for
//! the position (the same list whenever the same position is searched again), not as the move
//! itself (20 bytes in checkers), so the table holds four entries a cache line and takes a
//! third of the memory it took with whole moves; the search spends much of its time waiting
//! for the slot it probes.

use super::score::MATE_BOUND;

/// What a stored score means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

/// One stored result.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    key: u64,
    score: i32,
    /// The depth searched (a search's depths stay within `i8`: at most [`super::search::MAX_PLY`]
    /// either way).
    depth: i8,
    /// How `score` bounds the truth.
    pub bound: Bound,
    /// The best (or cut-off) move's place in the generated list, [`NO_MOVE`] for none.
    best: u16,
}

/// [`Entry::best`] when no move is stored.
const NO_MOVE: u16 = u16::MAX;

impl Entry {
    /// The depth searched.
    #[must_use]
    pub fn depth(&self) -> i32 {
        i32::from(self.depth)
    }

    /// The best (or cut-off) move's place in the list the game generates for the position, if
    /// any.
    #[must_use]
    pub fn best(&self) -> Option<usize> {
        (self.best != NO_MOVE).then_some(usize::from(self.best))
    }

    /// The score seen from a node `ply` plies below the root.
    #[must_use]
    pub fn score(&self, ply: usize) -> i32 {
        let ply = ply as i32;
        if self.score >= MATE_BOUND {
            self.score - ply
        } else if self.score <= -MATE_BOUND {
            self.score + ply
        } else {
            self.score
        }
    }
}

/// A fixed-size table, allocated once per search.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: u64,
}

impl Table {
    /// A table of `2^bits` entries.
    #[must_use]
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits.min(24);
        Table {
            slots: vec![None; size],
            mask: size as u64 - 1,
        }
    }

    /// Asks the processor to bring `key`'s slot into its caches without waiting for it, so
    /// that a [`Table::probe`] of the key a little later finds it there instead of waiting for
    /// memory (the table is larger than a core's caches). Changes nothing the table holds.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::cpu::prefetch(&self.slots[(key & self.mask) as usize]);
    }

    /// The entry stored for `key`, if this position's is there.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<&Entry> {
        self.slots[(key & self.mask) as usize]
            .as_ref()
            .filter(|entry| entry.key == key)
    }

    /// Stores a result found `ply` plies below the root; `best` is the best move's place in
    /// the list the game generates for the position (a place beyond `u16` is not kept).
    pub fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<usize>,
        ply: usize,
    ) {
        let slot = &mut self.slots[(key & self.mask) as usize];
        if let Some(old) = slot
            && old.key == key
            && old.depth() > depth
        {
            return;
        }
        let ply = ply as i32;
        let score = if score >= MATE_BOUND {
            score + ply
        } else if score <= -MATE_BOUND {
            score - ply
        } else {
            score
        };
        *slot = Some(Entry {
            key,
            depth: depth.clamp(i8::MIN.into(), i8::MAX.into()) as i8,
            score,
            bound,
            best: best
                .and_then(|place| u16::try_from(place).ok())
                .unwrap_or(NO_MOVE),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::score::MATE;

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut table = Table::new(4);
        // A win in 3 plies from a node 2 plies below the root scores MATE - 5 at the root.
        table.store(42, 3, MATE - 5, Bound::Exact, Some(7), 2);
        let entry = table.probe(42).expect("stored");
        assert_eq!(entry.score(2), MATE - 5);
        assert_eq!(entry.score(6), MATE - 9);
        assert_eq!(entry.best(), Some(7));
        assert!(table.probe(42 + 16).is_none(), "same slot, other key");
    }

    #[test]
    fn a_shallower_result_does_not_replace_a_deeper_one() {
        let mut table = Table::new(4);
        table.store(1, 5, 10, Bound::Exact, Some(1), 0);
        table.store(1, 2, 20, Bound::Lower, Some(2), 0);
        assert_eq!(table.probe(1).map(Entry::depth), Some(5));
        table.store(17, 1, 30, Bound::Upper, None, 0);
        assert_eq!(table.probe(17).and_then(Entry::best), None);
        assert_eq!(
            table.probe(17).map(Entry::depth),
            Some(1),
            "another key replaces"
        );
    }

    #[test]
    fn a_prefetch_changes_nothing_the_table_holds() {
        let mut table = Table::new(4);
        table.store(5, 3, 77, Bound::Lower, Some(2), 0);
        // The stored key, another in its slot, an empty slot, and the last slot.
        for key in [5, 21, 6, u64::MAX] {
            table.prefetch(key);
        }
        let entry = table.probe(5).expect("stored");
        assert_eq!(
            (entry.depth(), entry.score(0), entry.bound, entry.best()),
            (3, 77, Bound::Lower, Some(2))
        );
        assert!(table.probe(21).is_none() && table.probe(6).is_none());
    }

    #[test]
    fn an_entry_takes_a_quarter_of_a_cache_line_and_keeps_what_a_search_stores() {
        assert_eq!(std::mem::size_of::<Option<Entry>>(), 16);
        let mut table = Table::new(4);
        // Depths below zero (captures searched past the horizon) and the deepest a search goes.
        for (key, depth) in [(3, -90), (4, 95)] {
            table.store(key, depth, -321, Bound::Upper, Some(400), 0);
            let entry = table.probe(key).expect("stored");
            assert_eq!((entry.depth(), entry.score(0)), (depth, -321));
            assert_eq!((entry.bound, entry.best()), (Bound::Upper, Some(400)));
        }
    }
}
