//! The classic levels' root: every root move scored exactly at a fixed depth (all those that
//! share the best score kept, for a random choice among them), or every move with its own exact
//! score for the levels that choose among near-best moves.

use super::{Found, INFINITY, SearchGame, Searcher};

impl<M: Copy + PartialEq + std::fmt::Debug> Searcher<M> {
    /// The classic root: every move's exact minimax score at `depth`, keeping all moves that
    /// share the best one. With pruning each move is searched with the window just below the
    /// best so far, so a move that ties is still scored exactly and one that cannot tie is cut.
    /// `None` if there is no move or the search was stopped before any move was scored.
    pub fn exact_root<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        depth: u32,
    ) -> Option<Found<M>> {
        let mut moves = std::mem::take(&mut self.moves[0]);
        game.generate(&mut moves);
        self.order(game, &mut moves, 0);
        let mut best = -INFINITY;
        let mut ties: Vec<M> = Vec::new();
        let depth = i32::try_from(depth).unwrap_or(i32::MAX);
        for &mv in &moves {
            let undo = game.make(mv);
            let score = if !self.config.pruning || best == -INFINITY {
                -self.negamax(game, depth - 1, -INFINITY, INFINITY, 1)
            } else {
                self.tie_or_better(game, depth - 1, best)
            };
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                ties.clear();
            }
            if score == best {
                ties.push(mv);
            }
        }
        self.moves[0] = moves;
        let &first = ties.first()?;
        Some(Found {
            best: first,
            score: best,
            depth: depth as u32,
            nodes: self.nodes,
            pv: vec![first],
            ties,
        })
    }

    /// Every root move with its exact score at `depth` (each searched with an open window, with
    /// alpha-beta below it), for the levels that choose among near-best moves. Moves not scored
    /// before a stop are left out.
    pub fn root_scores<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        depth: u32,
    ) -> Vec<(i32, M)> {
        let mut moves = std::mem::take(&mut self.moves[0]);
        game.generate(&mut moves);
        self.order(game, &mut moves, 0);
        let depth = i32::try_from(depth).unwrap_or(i32::MAX);
        let mut scored = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let undo = game.make(mv);
            let score = -self.negamax(game, depth - 1, -INFINITY, INFINITY, 1);
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            scored.push((score, mv));
        }
        self.moves[0] = moves;
        scored
    }

    /// The exact score of a root move (already made) if it reaches `best`, or something below
    /// `best` if it does not: two null-window probes decide "below", "equal" or "above", and only
    /// a move that beats `best` is searched with an open window.
    fn tie_or_better<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        depth: i32,
        best: i32,
    ) -> i32 {
        let reaches = -self.negamax(game, depth, -best, -best + 1, 1);
        if reaches < best || self.stopped {
            return reaches.min(best - 1);
        }
        let beats = -self.negamax(game, depth, -best - 1, -best, 1);
        if beats <= best || self.stopped {
            return best;
        }
        -self.negamax(game, depth, -INFINITY, -best, 1)
    }
}
