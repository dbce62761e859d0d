//! The transposition table: what a search learnt about a position (score, bound, depth, best
//! move), found again by the position's hash when it is reached by another move order.
//!
//! One entry per slot, replaced when the new result is at least as deep or the slot holds another
//! position. Win and loss scores are stored relative to the node, not the root, so an entry stays
//! right wherever in the tree the position comes back.

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
pub struct Entry<M> {
    key: u64,
    /// The depth searched.
    pub depth: i32,
    score: i32,
    /// How `score` bounds the truth.
    pub bound: Bound,
    /// The best (or cut-off) move, if any.
    pub best: Option<M>,
}

impl<M> Entry<M> {
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
pub struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: u64,
}

impl<M: Copy> Table<M> {
    /// A table of `2^bits` entries.
    #[must_use]
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits.min(24);
        Table {
            slots: vec![None; size],
            mask: size as u64 - 1,
        }
    }

    /// The entry stored for `key`, if this position's is there.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[(key & self.mask) as usize]
            .as_ref()
            .filter(|entry| entry.key == key)
    }

    /// Stores a result found `ply` plies below the root.
    pub fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<M>,
        ply: usize,
    ) {
        let slot = &mut self.slots[(key & self.mask) as usize];
        if let Some(old) = slot
            && old.key == key
            && old.depth > depth
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
            depth,
            score,
            bound,
            best,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::score::MATE;

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut table: Table<u8> = Table::new(4);
        // A win in 3 plies from a node 2 plies below the root scores MATE - 5 at the root.
        table.store(42, 3, MATE - 5, Bound::Exact, Some(7), 2);
        let entry = table.probe(42).expect("stored");
        assert_eq!(entry.score(2), MATE - 5);
        assert_eq!(entry.score(6), MATE - 9);
        assert_eq!(entry.best, Some(7));
        assert!(table.probe(42 + 16).is_none(), "same slot, other key");
    }

    #[test]
    fn a_shallower_result_does_not_replace_a_deeper_one() {
        let mut table: Table<u8> = Table::new(4);
        table.store(1, 5, 10, Bound::Exact, Some(1), 0);
        table.store(1, 2, 20, Bound::Lower, Some(2), 0);
        assert_eq!(table.probe(1).map(|e| e.depth), Some(5));
        table.store(17, 1, 30, Bound::Upper, None, 0);
        assert_eq!(
            table.probe(17).map(|e| e.depth),
            Some(1),
            "another key replaces"
        );
    }
}
