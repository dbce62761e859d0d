//! The nodes a client may reconnect to: the address it was given, and the live nodes of a
//! cluster as the server's `Nodes` named them (after each `Welcome`). After a lost connection
//! the client goes round them, the other nodes first and the lost one last, so a node that died
//! costs one refused attempt at most, and a lone server is simply tried again.

use std::time::Duration;

/// The addresses to try, and which one the client is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NodeList {
    /// Never empty; the address the client was given stays in it.
    addresses: Vec<String>,
    /// The address the client was given (kept when a `Nodes` list leaves it out).
    given: String,
    /// Index of the node the client is (or was last) connected to.
    current: usize,
}

/// The most addresses kept from a `Nodes` list: a hostile server cannot make the client try
/// thousands of addresses.
const MAX_NODES: usize = 16;

impl NodeList {
    /// Only the given address, until a server names others.
    #[must_use]
    pub(crate) fn new(given: String) -> NodeList {
        NodeList {
            addresses: vec![given.clone()],
            given,
            current: 0,
        }
    }

    /// The node the client is (or was last) connected to.
    #[must_use]
    pub(crate) fn current(&self) -> &str {
        &self.addresses[self.current]
    }

    /// All the addresses known, the current one first (what the tests look at).
    #[cfg(test)]
    #[must_use]
    pub(crate) fn addresses(&self) -> &[String] {
        &self.addresses
    }

    /// What a `Nodes` message said, while connected to the current node: that node first
    /// (it is the one the client is on), then the others as listed, without repeats or empty
    /// entries, and the given address last if the list left it out. Returns whether a node
    /// known before is gone from it (it died or stopped: its games move to other nodes).
    pub(crate) fn learn(&mut self, listed: &[String]) -> bool {
        let on = self.current().to_owned();
        let mut addresses = vec![on];
        for address in listed.iter().chain(std::iter::once(&self.given)) {
            let address = address.trim();
            if !address.is_empty()
                && !addresses.iter().any(|known| known == address)
                && addresses.len() < MAX_NODES
            {
                addresses.push(address.to_owned());
            }
        }
        let gone = self
            .addresses
            .iter()
            .any(|known| !addresses.contains(known));
        self.addresses = addresses;
        self.current = 0;
        gone
    }

    /// The node for reconnection attempt `attempt` (0 first) after losing the current one:
    /// the next node round the list, the lost one last in each round.
    #[must_use]
    pub(crate) fn for_attempt(&self, attempt: u32) -> usize {
        let count = self.addresses.len();
        let step = usize::try_from(attempt).unwrap_or(usize::MAX) % count;
        (self.current + 1 + step) % count
    }

    /// The address at `index` (from [`NodeList::for_attempt`]).
    #[must_use]
    pub(crate) fn address(&self, index: usize) -> &str {
        &self.addresses[index % self.addresses.len()]
    }

    /// The client is on node `index` now.
    pub(crate) fn connected_to(&mut self, index: usize) {
        self.current = index % self.addresses.len();
    }

    /// The pause before attempt `attempt`: `first`, doubled after each whole round of the
    /// nodes, at most `longest`.
    #[must_use]
    pub(crate) fn pause(&self, attempt: u32, first: Duration, longest: Duration) -> Duration {
        let rounds = attempt / u32::try_from(self.addresses.len()).unwrap_or(u32::MAX);
        (first * (1 << rounds.min(3))).min(longest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(given: &str, listed: &[&str]) -> NodeList {
        let mut nodes = NodeList::new(given.to_owned());
        let listed: Vec<String> = listed.iter().map(|s| (*s).to_owned()).collect();
        nodes.learn(&listed);
        nodes
    }

    #[test]
    fn a_node_gone_from_the_list_is_noticed() {
        let mut nodes = list("a:1", &["a:1", "b:2", "c:3"]);
        assert!(!nodes.learn(&["a:1".to_owned(), "c:3".to_owned(), "b:2".to_owned()]));
        assert!(!nodes.learn(&[
            "a:1".to_owned(),
            "b:2".to_owned(),
            "c:3".to_owned(),
            "d:4".to_owned()
        ]));
        assert!(nodes.learn(&["a:1".to_owned(), "b:2".to_owned(), "d:4".to_owned()]));
    }

    #[test]
    fn a_lone_server_is_tried_again_with_growing_pauses() {
        let nodes = NodeList::new("a:1".to_owned());
        let second = Duration::from_secs(1);
        let pauses: Vec<u64> = (0..5)
            .map(|attempt| {
                assert_eq!(nodes.address(nodes.for_attempt(attempt)), "a:1");
                nodes.pause(attempt, second, 8 * second).as_secs()
            })
            .collect();
        assert_eq!(pauses, [1, 2, 4, 8, 8]);
    }

    #[test]
    fn the_other_nodes_come_first_and_the_lost_one_last() {
        let nodes = list("a:1", &["a:1", "b:2", "c:3"]);
        let order: Vec<&str> = (0..6)
            .map(|attempt| nodes.address(nodes.for_attempt(attempt)))
            .collect();
        assert_eq!(order, ["b:2", "c:3", "a:1", "b:2", "c:3", "a:1"]);
        let second = Duration::from_secs(1);
        let pauses: Vec<u64> = (0..7)
            .map(|attempt| nodes.pause(attempt, second, 8 * second).as_secs())
            .collect();
        assert_eq!(pauses, [1, 1, 1, 2, 2, 2, 4]);
    }

    #[test]
    fn a_node_list_keeps_the_current_node_first_and_the_given_address() {
        let mut nodes = list("localhost:1", &["a:1", "b:2", "", "b:2"]);
        assert_eq!(nodes.addresses(), ["localhost:1", "a:1", "b:2"]);
        nodes.connected_to(2);
        assert_eq!(nodes.current(), "b:2");
        nodes.learn(&["b:2".to_owned(), "c:3".to_owned()]);
        assert_eq!(nodes.addresses(), ["b:2", "c:3", "localhost:1"]);
    }

    #[test]
    fn a_node_list_is_bounded() {
        let listed: Vec<String> = (0..100).map(|port| format!("n:{port}")).collect();
        let mut nodes = NodeList::new("a:1".to_owned());
        assert!(!nodes.learn(&listed));
        assert_eq!(nodes.addresses().len(), MAX_NODES);
        assert_eq!(nodes.current(), "a:1");
    }
}
