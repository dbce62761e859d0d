//! The review board's budget per asker: at most so many analyses started in a sliding minute by
//! one person (by name) or, for a guest, one address. Pure arithmetic on the `now` it is given,
//! so tests need no clock. The map forgets an asker whose minute has passed, and holds at most
//! [`MAX_ASKERS`] of them (a flood of addresses cannot grow it without bound).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::Duration;
use tokio::time::Instant;

/// The window the budget counts over.
pub const WINDOW: Duration = Duration::from_secs(60);

/// The most askers remembered at once; beyond it the longest-quiet ones are forgotten.
pub const MAX_ASKERS: usize = 10_000;

/// Who asks, for the budget.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Asker {
    /// A person who proved a key, by name (wherever they connect from).
    Person(String),
    /// A guest, by the address it connects from (a guest's name is anyone's to take).
    Address(IpAddr),
}

/// Analyses started per asker in the last [`WINDOW`].
#[derive(Debug)]
pub struct Budget {
    per_window: usize,
    started: HashMap<Asker, VecDeque<Instant>>,
}

impl Budget {
    /// A budget of `per_window` analyses a minute per asker (at least one).
    #[must_use]
    pub fn new(per_window: usize) -> Budget {
        Budget {
            per_window: per_window.max(1),
            started: HashMap::new(),
        }
    }

    /// Takes one analysis for `asker` at `now`; `false` when its minute's budget is spent.
    pub fn take(&mut self, asker: &Asker, now: Instant) -> bool {
        if !self.started.contains_key(asker) && self.started.len() >= MAX_ASKERS {
            self.forget_quiet(now);
        }
        let times = self.started.entry(asker.clone()).or_default();
        while times
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= self.per_window {
            return false;
        }
        times.push_back(now);
        true
    }

    /// Forgets the askers with nothing in the window, and if that frees nothing, the one
    /// quiet the longest.
    fn forget_quiet(&mut self, now: Instant) {
        self.started.retain(|_, times| {
            times
                .back()
                .is_some_and(|at| now.saturating_duration_since(*at) < WINDOW)
        });
        if self.started.len() >= MAX_ASKERS
            && let Some(oldest) = self
                .started
                .iter()
                .min_by_key(|(_, times)| times.back().copied())
                .map(|(asker, _)| asker.clone())
        {
            self.started.remove(&oldest);
        }
    }

    /// How many analyses an asker may start a minute.
    #[must_use]
    pub fn per_window(&self) -> usize {
        self.per_window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_asker_gets_its_budget_a_minute_and_others_theirs() {
        let start = Instant::now();
        let mut budget = Budget::new(3);
        let ann = Asker::Person("ann".to_owned());
        let guest = Asker::Address([10, 0, 0, 1].into());
        assert_eq!((0..5).filter(|_| budget.take(&ann, start)).count(), 3);
        assert!(
            budget.take(&guest, start),
            "another asker has its own budget"
        );
        assert!(!budget.take(&ann, start + Duration::from_secs(59)));
        assert!(
            budget.take(&ann, start + WINDOW),
            "a minute later it is back"
        );
    }

    #[test]
    fn the_askers_remembered_are_bounded() {
        let start = Instant::now();
        let mut budget = Budget::new(1);
        for n in 0..=u32::try_from(MAX_ASKERS).expect("small") {
            assert!(budget.take(&Asker::Address(IpAddr::from(n.to_be_bytes())), start));
        }
        assert!(budget.started.len() <= MAX_ASKERS);
    }
}
