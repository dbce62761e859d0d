//! The perfect noughts-and-crosses player's own solver: a plain negamax with alpha-beta over the
//! two 9-bit stone masks, the eight win masks and a fixed move order (centre, corners, edges), so
//! a full solve of the empty board allocates nothing below the root and takes microseconds. The
//! generic search (`search.rs`) pays for killers, history, principal-variation lines and limit
//! checks that a nine-square game never needs; it still serves the classic levels and the
//! `--minimax` comparison, and this solver gives the same exact scores (a test compares them).

use super::search::MATE;
use crate::games::tictactoe::{Board, Square, WIN_LINES};

/// Above every score a position can have.
const INFINITY: i32 = MATE + 1;

/// Centre first, then corners, then edges: the squares on most lines cut off soonest.
const ORDER: [Square; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// What a solve found at the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The exact score for the side to move: 0 a draw, `MATE - n` a win in `n` plies.
    pub score: i32,
    /// Every move with that score, in square order.
    pub ties: Vec<Square>,
    /// Positions visited below the root.
    pub nodes: u64,
}

/// Whether one more stone on an empty square would complete a line for `stones`.
fn wins_next(stones: u16, empty: u16) -> bool {
    WIN_LINES
        .iter()
        .any(|&line| (stones & line).count_ones() == 2 && empty & line != 0)
}

/// Solves a position (`mine` to move, `theirs` just moved, the game still going on): the exact
/// score and every move that reaches it.
#[must_use]
pub fn solve(mine: u16, theirs: u16) -> Solved {
    let mut solver = Solver { nodes: 0 };
    let empty = Board {
        stones: [mine, theirs],
    }
    .empty();
    let mut best = -INFINITY;
    let mut ties = Vec::with_capacity(9);
    for &square in &ORDER {
        let bit = 1 << square;
        if empty & bit == 0 {
            continue;
        }
        // A window just below the best so far: worse moves fail low, ties and better are exact.
        let score = -solver.negamax(theirs, mine | bit, 1, -INFINITY, -(best - 1));
        if score > best {
            best = score;
            ties.clear();
        }
        if score == best {
            ties.push(square);
        }
    }
    ties.sort_unstable();
    Solved {
        score: best,
        ties,
        nodes: solver.nodes,
    }
}

/// Counts the positions a solve visits.
struct Solver {
    nodes: u64,
}

impl Solver {
    /// The score of the position for `mine`, `ply` moves below the root, fail-soft in
    /// `alpha..beta`.
    fn negamax(&mut self, mine: u16, theirs: u16, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        // Only the side that just moved can have made a line.
        let board = Board {
            stones: [mine, theirs],
        };
        if board.has_line(1) {
            return -MATE + ply;
        }
        let empty = board.empty();
        if empty == 0 {
            return 0;
        }
        // Winning at once is the best any move can do, so it needs no search.
        if wins_next(mine, empty) {
            return MATE - ply - 1;
        }
        let mut best = -INFINITY;
        for &square in &ORDER {
            let bit = 1 << square;
            if empty & bit == 0 {
                continue;
            }
            let score = -self.negamax(theirs, mine | bit, ply + 1, -beta, -alpha);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Limits;
    use crate::ai::search::{SearchConfig, Searcher};
    use crate::ai::tictactoe::TicTacToeSearch;
    use crate::game::Game;
    use crate::games::tictactoe::TicTacToe;
    use std::time::Instant;

    /// Every position reachable from the start with the game still going on.
    fn every_position(game: &mut TicTacToe, out: &mut Vec<TicTacToe>) {
        if game.outcome().is_some() || out.contains(game) {
            return;
        }
        out.push(*game);
        for mv in game.legal_moves() {
            game.play_unchecked(mv);
            every_position(game, out);
            game.undo_unchecked(mv);
        }
    }

    /// The generic search's exact root (alpha-beta, every tie scored exactly): its score and
    /// every best move.
    fn generic(game: &TicTacToe) -> (i32, Vec<Square>) {
        let depth = game.legal_mask().count_ones();
        let mut searcher = Searcher::new(SearchConfig::CLASSIC, &Limits::default(), Instant::now());
        let found = searcher
            .exact_root(&mut TicTacToeSearch(*game), depth)
            .unwrap();
        (found.score, found.ties)
    }

    #[test]
    fn the_solver_agrees_with_the_generic_search_on_every_position() {
        let mut positions = Vec::new();
        every_position(&mut TicTacToe::start(), &mut positions);
        for game in &positions {
            let stones = game.board().stones;
            let us = game.side_to_move().index();
            let solved = solve(stones[us], stones[1 - us]);
            let (score, mut ties) = generic(game);
            ties.sort_unstable();
            assert_eq!((solved.score, &solved.ties), (score, &ties), "{game:?}");
        }
    }

    #[test]
    fn the_empty_board_is_a_draw_with_every_first_move() {
        let solved = solve(0, 0);
        assert_eq!(solved.score, 0);
        assert_eq!(solved.ties, (0..9).collect::<Vec<Square>>());
        assert!(solved.nodes > 0);
    }
}
