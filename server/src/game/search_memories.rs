//! The expert bots' transposition tables between their moves, bounded by the search slots.
//!
//! An expert's search keeps what it learnt in a table ([`SearchMemory`], about 12 MB in
//! checkers, 4 MB in Pente) that its next move can reuse. Keeping one per bot seat for ever
//! would let memory grow with the number of games, so the shelf holds at most one table per
//! search slot: a bot about to search (holding a slot) takes the table it used last if it is
//! still on the shelf (no other bot took it since), else the one given back longest ago, else a
//! new one when the shelf is empty; after the search it gives it back. The search keeps a
//! table's entries only for the same game and level ([`kingme_shared::ai::memory`]); another
//! bot's table of the same kind is reused aged: its entries are still right, as they depend on
//! the positions alone. So a server never holds more tables than it has search slots.

use kingme_shared::ai::memory::SearchMemory;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// A bot's number, to find its own table again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotId(u64);

/// The tables not in use, each with the bot that used it last, oldest first.
#[derive(Debug)]
pub struct Shelf {
    tables: Mutex<Vec<(BotId, SearchMemory)>>,
    /// The most tables kept: the search slots.
    capacity: usize,
    next_id: AtomicU64,
}

impl Shelf {
    /// A shelf for `capacity` search slots.
    #[must_use]
    pub fn new(capacity: usize) -> Shelf {
        Shelf {
            tables: Mutex::new(Vec::new()),
            capacity,
            next_id: AtomicU64::new(0),
        }
    }

    /// A new bot's number.
    pub fn new_bot(&self) -> BotId {
        BotId(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// The table for `bot`'s next search: its own if still here, else the oldest given back,
    /// else a new (empty) one. Taken only by a search holding a slot, so that the tables in
    /// use and on the shelf never outnumber the slots.
    pub fn take(&self, bot: BotId) -> SearchMemory {
        let mut tables = self.lock();
        let index = tables.iter().position(|(owner, _)| *owner == bot);
        match index.or((!tables.is_empty()).then_some(0)) {
            Some(index) => tables.remove(index).1,
            None => SearchMemory::default(),
        }
    }

    /// `bot`'s table back after its search; dropped if the shelf is full.
    pub fn give_back(&self, bot: BotId, memory: SearchMemory) {
        let mut tables = self.lock();
        if tables.len() < self.capacity {
            tables.push((bot, memory));
        }
    }

    /// How many tables are on the shelf.
    #[cfg(test)]
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the shelf is empty.
    #[cfg(test)]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(BotId, SearchMemory)>> {
        // The list is whole after every operation: a panic elsewhere cannot leave it torn.
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_gets_its_own_table_back_when_nobody_took_it() {
        let shelf = Shelf::new(2);
        let (a, b) = (shelf.new_bot(), shelf.new_bot());
        let (mine, theirs) = (shelf.take(a), shelf.take(b));
        shelf.give_back(a, mine.clone());
        shelf.give_back(b, theirs.clone());
        // b comes first now, though a's table is the older one on the shelf.
        assert!(shelf.take(b).same_as(&theirs));
        assert!(shelf.take(a).same_as(&mine));
        shelf.give_back(a, mine.clone());
        shelf.give_back(b, theirs.clone());
        // A third bot takes the oldest; a then gets the other one, and its own once given back.
        let c = shelf.new_bot();
        let taken = shelf.take(c);
        assert!(taken.same_as(&mine));
        let now_mine = shelf.take(a);
        assert!(now_mine.same_as(&theirs));
        shelf.give_back(a, now_mine);
        shelf.give_back(c, taken);
        // The table a used last, not the one c used since, though that one is older.
        assert!(shelf.take(a).same_as(&theirs));
        assert!(shelf.take(c).same_as(&mine));
    }

    #[test]
    fn the_shelf_never_holds_more_tables_than_slots() {
        let shelf = Shelf::new(2);
        let bots: Vec<BotId> = (0..5).map(|_| shelf.new_bot()).collect();
        // More searches at once than slots (a caller that broke the rule): the extra tables
        // are dropped when given back.
        let taken: Vec<SearchMemory> = bots.iter().map(|&bot| shelf.take(bot)).collect();
        for (&bot, memory) in bots.iter().zip(taken) {
            shelf.give_back(bot, memory);
            assert!(shelf.len() <= 2);
        }
        assert_eq!(shelf.len(), 2);
        // Within the rule, one search at a time: one table does for every bot.
        let one = Shelf::new(1);
        for round in 0..3 {
            for &bot in &bots {
                let memory = one.take(bot);
                assert!(one.is_empty(), "round {round}: the only table is in use");
                one.give_back(bot, memory);
                assert_eq!(one.len(), 1);
            }
        }
    }
}
