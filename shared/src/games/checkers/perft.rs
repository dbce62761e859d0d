//! A fast perft for checkers: the number of leaf nodes of the legal-move tree, counted on the
//! bitboards with bulk counting (the last ply is counted, not played).
//!
//! It walks [`Position`]s only, so it follows the movement rules and ignores the draw rules
//! (which need the game's history), like perft in other games. Positions are copied, not undone,
//! and moves are visited, not collected: nothing is allocated.

use super::movegen::{count_moves, for_each_move};
use super::position::Position;

/// The number of move sequences of `depth` plies from `position` (1 for depth 0). A multi-jump
/// is one move, and two routes capturing the same pieces count twice (OEIS A133046).
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(position),
        _ => {
            let mut nodes = 0;
            for_each_move(position, |mv| {
                nodes += perft(&position.after(mv), depth - 1)
            });
            nodes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published counts from the data file: (depth, nodes).
    fn published() -> Vec<(u32, u64)> {
        include_str!("../../../data/checkers-perft.tsv")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let mut fields = line.split('\t');
                let depth = fields.next().and_then(|f| f.parse().ok());
                let nodes = fields.next().and_then(|f| f.parse().ok());
                (
                    depth.expect("a depth in column 1"),
                    nodes.expect("a count in column 2"),
                )
            })
            .collect()
    }

    #[test]
    fn perft_from_the_start_matches_the_published_counts() {
        let table = published();
        assert!(
            table.len() >= 10,
            "the data file lists depths 1..10 at least"
        );
        for (depth, nodes) in table.into_iter().filter(|&(depth, _)| depth <= 10) {
            assert_eq!(perft(&Position::start(), depth), nodes, "depth {depth}");
        }
    }
}
