//! A fast perft for checkers: the number of leaf nodes of the legal-move tree, counted on the
//! bitboards with bulk counting (the last ply is counted, not played).
//!
//! It walks [`Position`]s only, so it follows the movement rules and ignores the draw rules
//! (which need the game's history), like perft in other games. Positions are copied, not undone,
//! and moves are visited, not collected: nothing is allocated.

use super::movegen::{count_moves, for_each_move};
use super::position::Position;
use crate::cpu::{Instructions, Kernel, call};

/// The number of move sequences of `depth` plies from `position` (1 for depth 0). A multi-jump
/// is one move, and two routes capturing the same pieces count twice (OEIS A133046). Runs the
/// fastest build this processor has ([`Instructions::detected`]).
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_in(Instructions::detected(), position, depth)
}

/// [`perft`] in the build `instructions` names; every build counts the same.
#[must_use]
pub fn perft_in(instructions: Instructions, position: &Position, depth: u32) -> u64 {
    call::<Perft>(instructions, &(*position, depth))
}

/// Perft's body, compiled once per build of [`crate::cpu`].
struct Perft;

impl Kernel for Perft {
    type Input = (Position, u32);
    type Output = u64;

    #[inline(always)]
    fn run<R: Fn(&(Position, u32)) -> u64>(input: &(Position, u32), recurse: &R) -> u64 {
        let (position, depth) = (&input.0, input.1);
        match depth {
            0 => 1,
            1 => count_moves(position),
            _ => {
                let mut nodes = 0;
                for_each_move(position, |mv| {
                    nodes += recurse(&(position.after(mv), depth - 1))
                });
                nodes
            }
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

    #[test]
    fn every_build_counts_the_published_numbers() {
        // Up to depth 9 from the start in each build this processor runs (the baseline, and
        // popcnt+BMI2 where it has them), and from positions with kings and captures, where
        // the builds must also agree with each other.
        for instructions in Instructions::available() {
            let name = instructions.name();
            for (depth, nodes) in published().into_iter().filter(|&(depth, _)| depth <= 9) {
                let got = perft_in(instructions, &Position::start(), depth);
                assert_eq!(got, nodes, "{name}, depth {depth}");
            }
            for fen in [
                "W:WK22:B9,10,17,18",
                "B:W14,K30:B1,K22",
                "W:W21,K6,K7:BK1,K2,10,11,K27",
            ] {
                let position = crate::games::checkers::parse_fen(fen).expect(fen);
                for depth in 1..=6 {
                    assert_eq!(
                        perft_in(instructions, &position, depth),
                        perft_in(Instructions::BASELINE, &position, depth),
                        "{name}, {fen}, depth {depth}"
                    );
                }
            }
        }
    }
}
