//! Noughts and crosses for the search: the classic levels look 1, 3 or 5 plies ahead with a small
//! line-count evaluation, and `expert` searches to the end of the game, which makes it a perfect
//! player. The exact root keeps every equally good move, so on the empty board (where every
//! first move draws) the expert's opening is chosen at random, as in the classic programs.

use super::classic::{Request, classic};
use super::search::{Found, MATE, SearchGame};
use super::tictactoe_solver::solve;
use crate::game::Game;
use crate::games::tictactoe::{Square, TicTacToe, WIN_LINES};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// A noughts-and-crosses position under search.
pub struct TicTacToeSearch(pub TicTacToe);

impl SearchGame for TicTacToeSearch {
    type Move = Square;
    type Undo = ();

    /// Called only where [`SearchGame::terminal`] found the game going on, so every empty
    /// square is legal.
    fn generate(&mut self, out: &mut Vec<Square>) {
        out.clear();
        let mut mask = self.0.board().empty();
        while mask != 0 {
            out.push(mask.trailing_zeros() as Square);
            mask &= mask - 1;
        }
    }

    fn make(&mut self, mv: Square) {
        self.0.play_unchecked(mv);
    }

    fn unmake(&mut self, mv: Square, (): ()) {
        self.0.undo_unchecked(mv);
    }

    /// Only the side that just moved can have made a line, so only its lines are looked at.
    fn terminal(&self) -> Option<i32> {
        let board = self.0.board();
        if board.has_line(self.0.side_to_move().opponent().index()) {
            Some(-MATE)
        } else if board.empty() == 0 {
            Some(0)
        } else {
            None
        }
    }

    /// Lines still open to one side only, counted by how many stones they hold: the classic
    /// "how many ways can I still win" heuristic.
    fn evaluate(&self) -> i32 {
        let us = self.0.side_to_move().index();
        let stones = self.0.board().stones;
        let (mine, theirs) = (stones[us], stones[1 - us]);
        let weight = [0, 1, 10, 0];
        WIN_LINES
            .iter()
            .map(|&line| {
                let (m, t) = (line & mine, line & theirs);
                match (m != 0, t != 0) {
                    (true, false) => weight[m.count_ones() as usize],
                    (false, true) => -weight[t.count_ones() as usize],
                    _ => 0,
                }
            })
            .sum()
    }

    fn key(&self) -> u64 {
        let [x, o] = self.0.board().stones;
        u64::from(x) | (u64::from(o) << 9)
    }

    /// A line of two: the warm levels stray among moves a two apart.
    fn temperature_unit(&self) -> i32 {
        10
    }

    fn history_index(&self, mv: &Square) -> usize {
        usize::from(*mv)
    }
}

/// The move for a level: `expert` searches every remaining ply, the others their classic depth.
/// A search to the end of the game goes to the dedicated solver, unless plain minimax is asked
/// for (to count its nodes) or a node limit or a raised stop flag must be honoured, which the
/// generic search does.
pub fn choose(game: &TicTacToe, request: &Request<'_>, rng: &mut StdRng) -> Option<Found<Square>> {
    let remaining = game.legal_mask().count_ones();
    let depth = if request.deepens() {
        request.limits.depth.unwrap_or(remaining)
    } else {
        request.classic_depth()
    };
    let limits = request.limits;
    if depth >= remaining
        && remaining > 0
        && !request.options.minimax
        && limits.nodes.is_none()
        && !limits.stop.is_stopped()
    {
        return solved(game, depth, rng);
    }
    classic(&mut TicTacToeSearch(*game), depth.max(1), request, rng)
}

/// The solver's answer as the search's: one of the equally best moves at random.
fn solved(game: &TicTacToe, depth: u32, rng: &mut StdRng) -> Option<Found<Square>> {
    let stones = game.board().stones;
    let us = game.side_to_move().index();
    let solved = solve(stones[us], stones[1 - us]);
    let &best = solved.ties.choose(rng)?;
    Some(Found {
        best,
        score: solved.score,
        depth,
        nodes: solved.nodes,
        pv: vec![best],
        ties: solved.ties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::ai::{Limits, ThinkOptions, think, think_with};
    use crate::{AnyGame, AnyMove, Side};
    use std::collections::HashSet;

    fn expert_move(game: &TicTacToe, seed: u64) -> Square {
        let report = think(
            &AnyGame::TicTacToe(*game),
            Level::Expert,
            &Limits::default(),
            seed,
        )
        .expect("a move");
        match report.best {
            AnyMove::TicTacToe(square) => square,
            other => panic!("not a noughts-and-crosses move: {other:?}"),
        }
    }

    /// Plays every possible sequence of opponent moves against the expert playing `expert`;
    /// returns how many games were played to the end.
    fn never_loses(game: &mut TicTacToe, expert: Side) -> u32 {
        if let Some(outcome) = game.outcome() {
            assert_ne!(
                outcome.winner(),
                Some(expert.opponent()),
                "the expert lost: {game:?}"
            );
            return 1;
        }
        if game.side_to_move() == expert {
            let mv = expert_move(game, 0);
            game.play_unchecked(mv);
            let games = never_loses(game, expert);
            game.undo_unchecked(mv);
            games
        } else {
            let mut total = 0;
            for mv in game.legal_moves() {
                game.play_unchecked(mv);
                total += never_loses(game, expert);
                game.undo_unchecked(mv);
            }
            total
        }
    }

    #[test]
    fn the_expert_never_loses_from_either_side() {
        let games_as_x = never_loses(&mut TicTacToe::start(), Side::First);
        let games_as_o = never_loses(&mut TicTacToe::start(), Side::Second);
        assert!(games_as_x > 0 && games_as_o > 0);
    }

    #[test]
    fn the_experts_first_move_is_chosen_at_random_among_draws() {
        let firsts: HashSet<Square> = (0..200)
            .map(|seed| expert_move(&TicTacToe::start(), seed))
            .collect();
        // Every first move draws, so every square turns up.
        assert_eq!(firsts.len(), 9, "{firsts:?}");
    }

    #[test]
    fn the_expert_wins_when_it_can_and_blocks_when_it_must() {
        // X to move with X on 1 and 2: 3 wins at once (squares are 0-based here).
        let game = TicTacToe::from_position_text("XX-OO----").unwrap();
        assert_eq!(expert_move(&game, 1), 2);
        // O to move must block 3 (X has 1 and 2, O has one stone elsewhere).
        let game = TicTacToe::from_position_text("XX--O----").unwrap();
        assert_eq!(expert_move(&game, 1), 2);
    }

    #[test]
    fn pruning_visits_far_fewer_nodes_for_the_same_score() {
        let start = AnyGame::TicTacToe(TicTacToe::start());
        let limits = Limits::default();
        let pruned = think(&start, Level::Expert, &limits, 3).unwrap();
        let plain = think_with(
            &start,
            Level::Expert,
            &limits,
            3,
            &ThinkOptions {
                minimax: true,
                ..ThinkOptions::default()
            },
        )
        .unwrap();
        assert_eq!(pruned.score, plain.score);
        assert_eq!(pruned.score, 0, "noughts and crosses is a draw");
        // Plain minimax visits every node of the game tree below the nine first moves.
        assert_eq!(plain.nodes, 549_945);
        assert!(pruned.nodes * 10 < plain.nodes, "{} nodes", pruned.nodes);
    }
}
