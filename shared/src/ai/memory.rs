//! A search's memory between moves: the expert's transposition table, kept by the caller (a bot
//! for its game, one side of `kingme match`) and handed to the next search through
//! [`super::Limits::memory`], so that what the last search learnt about the positions still
//! ahead is not thrown away, nor a new table allocated and zeroed for every move.
//!
//! A [`SearchMemory`] is a cheap handle (clones share the table). The search takes the table
//! out while it runs and puts it back when done, so two searches that share a handle at once do
//! not wait for each other: the second makes a fresh table, and whichever ends last is kept.
//!
//! What an entry says depends on the position alone (its key), with these exceptions, which
//! are the table's [`Context`]: the game and level (each has its own move type and search),
//! the engine options (contempt, evaluation weights, threat search), the endgame database the
//! search consults, and the draw score a checkers contempt gives (relative to the root's
//! evaluation: see `ai/checkers.rs`). A table is reused only under the same context, and is
//! otherwise dropped and a new one made. Where the game scores repetitions by where the root
//! stands ([`super::search::SearchGame::root_dependent_draws`]: checkers), an entry of an
//! earlier search gives only its move for ordering, not its score ([`super::tt::Table::age`]
//! marks which search stored an entry).
//! Only the expert keeps a memory: the levels under node budgets were fitted to the ladder
//! with a fresh table each move.

use super::ThinkOptions;
use super::egdb::Egdb;
use super::level::Level;
use super::tt::Table;
use crate::GameKind;
use std::any::Any;
use std::sync::{Arc, Mutex, PoisonError};

/// A table kept between searches, shared by its clones; empty until a search keeps one.
#[derive(Clone, Default)]
pub struct SearchMemory(Arc<Mutex<Option<Kept>>>);

/// The table and what its entries were computed under.
struct Kept {
    context: Context,
    table: Box<dyn Any + Send>,
}

/// Everything besides the position that a stored score depends on.
#[derive(Clone)]
pub(crate) struct Context {
    /// The game.
    pub kind: GameKind,
    /// The level that searched.
    pub level: Level,
    /// The engine tools' switches.
    pub options: ThinkOptions,
    /// The endgame database consulted, compared by identity.
    pub egdb: Option<Arc<Egdb>>,
    /// A value of the game's own on which stored scores depend
    /// ([`super::search::SearchGame::memory_tag`]): the checkers draw score under a contempt.
    pub tag: i32,
}

impl PartialEq for Context {
    fn eq(&self, other: &Context) -> bool {
        let same_egdb = match (&self.egdb, &other.egdb) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_egdb
            && (self.kind, self.level, self.options, self.tag)
                == (other.kind, other.level, other.options, other.tag)
    }
}

impl SearchMemory {
    /// The kept table if it was made under `context` with `2^bits` entries, aged for a new
    /// search; `None` otherwise (a table made under another context is dropped).
    pub(crate) fn take<M: Copy + Send + 'static>(
        &self,
        context: &Context,
        bits: u32,
    ) -> Option<Table<M>> {
        let kept = self.lock().take()?;
        if kept.context != *context {
            return None;
        }
        let mut table = *kept.table.downcast::<Table<M>>().ok()?;
        if table.bits() != bits {
            return None;
        }
        table.age();
        Some(table)
    }

    /// Keeps `table`, made under `context`, for the next search.
    pub(crate) fn keep<M: Copy + Send + 'static>(&self, context: Context, table: Table<M>) {
        *self.lock() = Some(Kept {
            context,
            table: Box::new(table),
        });
    }

    /// Whether a table is kept.
    #[must_use]
    pub fn holds_table(&self) -> bool {
        self.lock().is_some()
    }

    /// Forgets the kept table (its memory is freed).
    pub fn clear(&self) {
        *self.lock() = None;
    }

    /// Whether `self` and `other` are handles of the same memory.
    #[must_use]
    pub fn same_as(&self, other: &SearchMemory) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Kept>> {
        // A search that panicked holding the lock left either a table or none: both are fine.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl std::fmt::Debug for SearchMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchMemory")
            .field("holds_table", &self.holds_table())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(level: Level) -> Context {
        Context {
            kind: GameKind::Checkers,
            level,
            options: ThinkOptions::default(),
            egdb: None,
            tag: 0,
        }
    }

    #[test]
    fn a_table_comes_back_only_under_the_same_context_type_and_size() {
        let memory = SearchMemory::default();
        let expert = context(Level::Expert);
        assert!(memory.take::<u8>(&expert, 4).is_none(), "empty at first");
        let mut table: Table<u8> = Table::new(4);
        table.store(9, 3, 1, super::super::tt::Bound::Exact, Some(2), 0);
        memory.keep(expert.clone(), table);
        let clone = memory.clone();
        assert!(clone.holds_table() && clone.same_as(&memory));
        let back = memory.take::<u8>(&expert, 4).expect("the same context");
        assert_eq!(back.probe(9).and_then(|e| e.best), Some(2));
        assert!(!memory.holds_table(), "taken out while a search runs");
        memory.keep(expert.clone(), back);
        for (other, bits) in [
            (context(Level::Strong), 4),
            (
                Context {
                    tag: 5,
                    ..expert.clone()
                },
                4,
            ),
            (expert.clone(), 5),
        ] {
            assert!(memory.take::<u8>(&other, bits).is_none());
            memory.keep(expert.clone(), Table::<u8>::new(4));
        }
        assert!(
            memory.take::<u16>(&expert, 4).is_none(),
            "another move type"
        );
        assert!(
            !memory.holds_table(),
            "a table that does not fit is dropped"
        );
    }
}
