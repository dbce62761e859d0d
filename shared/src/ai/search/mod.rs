//! The game-independent search: negamax with alpha-beta (or without, for plain minimax), the
//! classic levels' exact root with random tie-breaking, and the expert's iterative-deepening
//! principal-variation search with a transposition table, killer moves and history ordering,
//! late-move reductions and late-move pruning where the game allows them.
//!
//! Each game implements the small [`SearchGame`] trait (make/unmake, evaluation, hash, ordering
//! hints, whether a node must be searched further even at depth zero) and gets every search here.
//! Move lists live in per-ply buffers owned by the [`Searcher`], so once they have grown the inner
//! loop allocates nothing.
//!
//! Files: [`game`] (what a game implements to be searched); `classic_root`, the classic levels'
//! exact root; this file, the searcher. The scores
//! it gives are [`crate::ai::score`]'s.

mod classic_root;
mod game;

pub use super::score::{MATE, MATE_BOUND};
pub use game::{HISTORY_SIZE, SearchGame};

use super::clock::Deadline;
use super::score::mate_at;
use super::tt::{Bound, Entry, Table};
use super::{Limits, StopFlag};
use std::time::{Duration, Instant};

/// The deepest a search goes, extensions included.
pub const MAX_PLY: usize = 96;

/// Scores outside every real score, for open windows.
const INFINITY: i32 = MATE + 1;

/// Nodes between two looks at the clock and the stop flag: few enough that a stop is honoured
/// within about a millisecond even where nodes are slow (a Pente node ranks its candidates in
/// some 15 microseconds), many enough that reading the clock costs nothing. (The node budget is
/// looked at every node: until 2026-12-01 it was looked at only here, so a budget counted as
/// the next multiple of 64, and the levels' budgets were set as those multiples since.)
const CHECK_EVERY: u64 = 64;

/// Iterative deepening searches from this depth on within a window around the last
/// iteration's score ...
const ASPIRATION_FROM_DEPTH: u32 = 4;
/// ... this many of the evaluation's units ([`SearchGame::temperature_unit`], a man in
/// checkers) wide either side, and again with the failed side open when the score falls
/// outside it.
const ASPIRATION_UNITS: f64 = 0.35;

/// Late-move reductions start at this depth left ...
const REDUCE_FROM_DEPTH: i32 = 3;
/// ... with the move after this many searched at full depth (the hash move, the captures and
/// the killers come first).
const REDUCE_AFTER_MOVES: usize = 3;

/// How a search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchConfig {
    /// Alpha-beta pruning; off gives plain minimax, to compare node counts.
    pub pruning: bool,
    /// Search on at depth zero where [`SearchGame::extend`] asks for it.
    pub extensions: bool,
    /// Log2 of the transposition table's entries; `None` for no table.
    pub table_bits: Option<u32>,
    /// Late-move reductions: a quiet move ([`SearchGame::reducible`]) late in the order is
    /// first searched a ply shallower, and again at full depth only if it beats alpha.
    pub reductions: bool,
}

impl SearchConfig {
    /// The classic levels: plain depth, alpha-beta, nothing else, so scores are minimax's.
    pub const CLASSIC: SearchConfig = SearchConfig {
        pruning: true,
        extensions: false,
        table_bits: None,
        reductions: false,
    };
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Found<M> {
    /// The chosen move.
    pub best: M,
    /// Its score for the side to move.
    pub score: i32,
    /// The last depth completed (or being searched when stopped).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<M>,
    /// Every move that shares the best score (the classic levels choose among them).
    pub ties: Vec<M>,
}

/// The state of one search: buffers, tables, counters and limits.
pub struct Searcher<M> {
    config: SearchConfig,
    table: Option<Table>,
    killers: [[Option<M>; 2]; MAX_PLY],
    history: Vec<u32>,
    moves: Vec<Vec<M>>,
    /// For each ply, the order its moves are searched in: sort keys ([`rank`]) that end with
    /// each move's place in `moves`, which stays as the game generated it (the place is what
    /// the table keeps as the best move).
    ranks: Vec<Vec<u64>>,
    /// The moves as generated, where the root reorders its list ([`Searcher::order`]).
    unordered: Vec<M>,
    /// The triangular principal-variation table: `lines[ply]` is the best line found from the
    /// node at `ply`, rebuilt from the child's line whenever a move raises alpha.
    lines: Vec<Vec<M>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Deadline>,
    stop: StopFlag,
    stopped: bool,
}

impl<M: Copy + PartialEq + std::fmt::Debug> Searcher<M> {
    /// A searcher under these limits (the depth limit is the caller's business).
    #[must_use]
    pub fn new(config: SearchConfig, limits: &Limits, started: Instant) -> Self {
        Searcher {
            config,
            table: config.table_bits.map(Table::new),
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; HISTORY_SIZE],
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            ranks: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            unordered: Vec::with_capacity(64),
            lines: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits
                .time
                .map(|time| Deadline::new(started + time, limits.clock)),
            stop: limits.stop.clone(),
            stopped: limits.stop.is_stopped(),
        }
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether a limit or the stop flag ended the search.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit
            || self.stop.is_stopped()
            || self.deadline.is_some_and(Deadline::has_passed)
        {
            self.stopped = true;
        }
    }

    /// Iterative deepening from depth 1 to `max_depth` until a limit is reached; answers with the
    /// best move of the deepest iteration (or of the interrupted one, if it already found a
    /// better move). `None` only when there is no move.
    pub fn iterate<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        max_depth: u32,
    ) -> Option<Found<M>> {
        let mut root = Vec::new();
        game.generate(&mut root);
        self.order(game, &mut root, 0);
        let &first = root.first()?;
        let mut found = Found {
            best: first,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![first],
            ties: vec![first],
        };
        if root.len() == 1 {
            // One legal move: nothing to think about.
            found.score = game.evaluate();
            return Some(found);
        }
        let max_depth = max_depth.min(MAX_PLY as u32 - 8);
        let (mut depth, mut widened) = (1, false);
        let mut window = (-INFINITY, INFINITY);
        let aspiration = (f64::from(game.temperature_unit()) * ASPIRATION_UNITS).ceil() as i32;
        while depth <= max_depth {
            let (score, best) = self.root_search(game, &mut root, depth as i32, window);
            if let Some(best) = best {
                // Above the window's floor: better than the last iteration's move even if it
                // failed high.
                found.best = best;
                found.score = score;
                found.depth = depth;
                found.pv.clone_from(&self.lines[0]);
            }
            if self.stopped {
                break;
            }
            if score <= window.0 {
                // Failed low: the same depth again with no floor.
                window.0 = -INFINITY;
                continue;
            }
            if score >= window.1 {
                window.1 = INFINITY;
                continue;
            }
            if score <= -MATE_BOUND && !widened {
                // Every root move loses: search the ones the cut list left out, at this depth.
                widened = true;
                let before = root.len();
                game.widen(&mut root);
                if root.len() > before {
                    continue;
                }
            }
            if score.abs() > MATE_BOUND && (MATE - score.abs()) <= depth as i32 {
                // A forced result within the horizon: deeper cannot change it.
                break;
            }
            depth += 1;
            window = if depth >= ASPIRATION_FROM_DEPTH && score.abs() < MATE_BOUND {
                (score - aspiration, score + aspiration)
            } else {
                (-INFINITY, INFINITY)
            };
        }
        found.nodes = self.nodes;
        found.ties = vec![found.best];
        // A cut-off from the table can shorten the triangular line; the table's own line is the
        // other witness, and the longer of the two is shown.
        let from_table = self.principal_variation(game, found.best, found.depth.max(1));
        if from_table.len() > found.pv.len() || found.pv.first() != Some(&found.best) {
            found.pv = from_table;
        }
        Some(found)
    }

    /// One iteration at the root within the aspiration `window`: searches `root` (best first
    /// from the last iteration) and moves the best to the front. Returns the best score (at
    /// most the window's floor if every move failed low, at least its ceiling if one failed
    /// high) and the move that scored above the floor, `None` if none did or if stopped before
    /// the first move was searched.
    fn root_search<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        root: &mut [M],
        depth: i32,
        (mut alpha, beta): (i32, i32),
    ) -> (i32, Option<M>) {
        let mut best: Option<usize> = None;
        let mut best_score = -INFINITY;
        self.lines[0].clear();
        for (index, &mv) in root.iter().enumerate() {
            let undo = game.make(mv);
            let score = if index == 0 {
                -self.negamax(game, depth - 1, -beta, -alpha, 1)
            } else {
                let probe = -self.negamax(game, depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.negamax(game, depth - 1, -beta, -alpha, 1)
                } else {
                    probe
                }
            };
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            best_score = best_score.max(score);
            if score > alpha {
                alpha = score;
                best = Some(index);
                self.extend_line(0, mv);
                if alpha >= beta {
                    break;
                }
            }
        }
        let Some(index) = best else {
            return (best_score, None);
        };
        root[..=index].rotate_right(1);
        let key = game.key();
        // The table keeps the best move's place in the generated list, not in `root` (ordered).
        let generated = &mut self.unordered;
        game.generate(generated);
        let place = generated.iter().position(|&mv| mv == root[0]);
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if let Some(table) = &mut self.table {
            table.store(key, depth, best_score, bound, place, 0);
        }
        (best_score, Some(root[0]))
    }

    /// Negamax from the side to move's point of view, fail-soft.
    fn negamax<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.lines[ply].clear();
        // The node budget to the node (a level is its budget); the clock and the stop flag
        // every `CHECK_EVERY` nodes.
        if self.nodes >= self.node_limit || self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        if let Some(score) = game.terminal() {
            return mate_at(score, ply);
        }
        // A node the search extends (a capture pending in checkers) is not probed: its forced
        // moves are searched whatever the depth and each child is probed, which is what the
        // database would do for it, again (it stores no position with a capture).
        let extend = self.config.extensions && game.extend();
        if !extend && let Some(score) = game.probe(depth) {
            return score;
        }
        if (depth <= 0 && !extend) || ply >= MAX_PLY - 1 {
            return game.evaluate();
        }
        let key = game.key();
        let mut hash_place = None;
        if let Some(table) = &self.table
            && let Some(entry) = table.probe(key)
        {
            hash_place = entry.best();
            if entry.depth() >= depth {
                let score = entry.score(ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        game.generate(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return -MATE + ply as i32;
        }
        let mut ranks = std::mem::take(&mut self.ranks[ply]);
        self.rank_moves(game, &moves, hash_place, ply, &mut ranks);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_place = None;
        let (mut index, mut widened) = (0, false);
        // Late-move pruning, where the game asks for it: past its count the rest of the list
        // is left once a move is known not to lose (a node facing a loss searches on, then
        // widens), never where the search extends nor in plain minimax.
        let searched = if extend || !self.config.pruning {
            None
        } else {
            game.searched_moves(depth)
        };
        'moves: loop {
            if searched.is_some_and(|most| index >= most) && best > -MATE_BOUND && !widened {
                break;
            }
            let Some(&key) = ranks.get(index) else {
                // Every move searched loses: before the loss is believed, the moves a cut list
                // left out are searched too (once), in the order they come.
                if widened || self.stopped || best > -MATE_BOUND {
                    break;
                }
                widened = true;
                let generated = moves.len();
                game.widen(&mut moves);
                ranks.extend((generated..moves.len()).map(|place| place as u64));
                if index == ranks.len() {
                    break;
                }
                continue;
            };
            let place = key as u32 as usize;
            let mv = moves[place];
            index += 1;
            let reduced = self.config.reductions
                && depth >= REDUCE_FROM_DEPTH
                && index > REDUCE_AFTER_MOVES
                && !extend
                && game.reducible(&mv);
            let undo = game.make(mv);
            if depth > 1
                && let Some(table) = &self.table
            {
                // The child has depth left, so it will probe its slot: fetched while it makes
                // its first checks.
                table.prefetch(game.key());
            }
            let score = if !self.config.pruning || index == 1 {
                -self.negamax(game, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut probe = -INFINITY;
                if reduced {
                    probe = -self.negamax(game, depth - 2, -alpha - 1, -alpha, ply + 1);
                }
                if (!reduced || probe > alpha) && !self.stopped {
                    probe = -self.negamax(game, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if probe > alpha && probe < beta && !self.stopped {
                    -self.negamax(game, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_place = Some(place);
                if score > alpha {
                    alpha = score;
                    self.extend_line(ply, mv);
                    if alpha >= beta && self.config.pruning {
                        self.reward(game, mv, depth, ply);
                        break 'moves;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.ranks[ply] = ranks;
        if !self.stopped
            && let Some(table) = &mut self.table
        {
            let bound = if best <= original_alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            table.store(key, depth, best, bound, best_place, ply);
        }
        best
    }

    /// The line from `ply` becomes `mv` followed by the line from the child just searched.
    fn extend_line(&mut self, ply: usize, mv: M) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if let Some(child) = tail.first() {
            line.extend_from_slice(child);
        }
    }

    /// Remembers a move that caused a cut-off: a killer at this ply and in the history table.
    fn reward<G: SearchGame<Move = M>>(&mut self, game: &G, mv: M, depth: i32, ply: usize) {
        if game.order_hint(&mv) > 0 {
            return;
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = &mut self.history[game.history_index(&mv) % HISTORY_SIZE];
        *slot = slot.saturating_add((depth.max(1) * depth.max(1)) as u32);
    }

    /// Sorts moves best first (see [`Searcher::rank_moves`]): the root's list, which keeps its
    /// order from one iteration to the next.
    fn order<G: SearchGame<Move = M>>(&mut self, game: &G, moves: &mut [M], ply: usize) {
        let mut ranks = std::mem::take(&mut self.ranks[ply]);
        self.rank_moves(game, moves, None, ply, &mut ranks);
        self.unordered.clear();
        self.unordered.extend_from_slice(moves);
        for (slot, &key) in moves.iter_mut().zip(ranks.iter()) {
            *slot = self.unordered[key as u32 as usize];
        }
        self.ranks[ply] = ranks;
    }

    /// The order to search `moves` in, as `ranks`, sorted: the hash move (the one at
    /// `hash_place`: a generated list holds no move twice), then by the game's hint (captures,
    /// threats), then killers, then history. Stable, so equal moves keep the
    /// game's order: each move's key is its score (higher first) and then its place in the
    /// list, so the keys are distinct and an unstable sort of these plain integers gives the
    /// stable order.
    fn rank_moves<G: SearchGame<Move = M>>(
        &self,
        game: &G,
        moves: &[M],
        hash_place: Option<usize>,
        ply: usize,
        ranks: &mut Vec<u64>,
    ) {
        ranks.clear();
        let killers = &self.killers[ply];
        for (place, &mv) in moves.iter().enumerate() {
            let score = if Some(place) == hash_place {
                i32::MAX
            } else {
                let hint = game.order_hint(&mv);
                if hint > 0 {
                    (1 << 28) + hint.min(1 << 26)
                } else if killers[0] == Some(mv) {
                    (1 << 27) + 1
                } else if killers[1] == Some(mv) {
                    1 << 27
                } else {
                    hint + (self.history[game.history_index(&mv) % HISTORY_SIZE] >> 2).min(1 << 26)
                        as i32
                }
            };
            ranks.push(rank(score, place));
        }
        ranks.sort_unstable();
    }

    /// The expected line: the best move, then the table's moves as long as they are legal.
    fn principal_variation<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        best: M,
        depth: u32,
    ) -> Vec<M> {
        let mut line = vec![best];
        let mut undos = Vec::new();
        undos.push((best, game.make(best)));
        let mut legal = Vec::new();
        while line.len() < depth as usize && game.terminal().is_none() {
            let Some(table) = &self.table else { break };
            let Some(place) = table.probe(game.key()).and_then(Entry::best) else {
                break;
            };
            game.generate(&mut legal);
            let Some(&mv) = legal.get(place) else {
                break;
            };
            line.push(mv);
            undos.push((mv, game.make(mv)));
        }
        for (mv, undo) in undos.into_iter().rev() {
            game.unmake(mv, undo);
        }
        line
    }
}

/// The sort key of a move scoring `score` at `index` in its list: ascending keys put higher
/// scores first and, among equal scores, the earlier move first.
fn rank(score: i32, index: usize) -> u64 {
    // Flipping the sign bit maps `i32`'s order onto `u32`'s; the complement reverses it.
    let descending = !((score as u32) ^ (1 << 31));
    (u64::from(descending) << 32) | index as u64
}

/// The default time budget of a search that has neither a depth nor a time limit.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

#[cfg(test)]
mod tests {
    use super::{Limits, SearchConfig, SearchGame, Searcher, rank};
    use rand::{Rng, SeedableRng, rngs::StdRng};
    use std::time::Instant;

    /// A made-up game for the searcher's own rules: ten moves at every node, every leaf scored
    /// 0, except that at the nodes one ply below the root the first `losing` moves let the
    /// opponent win at once (the child faces a loss: extended, one move, then the game is over).
    struct Fan {
        path: Vec<u8>,
        losing: u8,
        /// Late-move pruning one ply above the horizon, if any.
        searched: Option<usize>,
        /// The moves made at the first node one ply below the root (after the root's move 0).
        made_there: std::collections::BTreeSet<u8>,
    }

    impl Fan {
        const WIDTH: u8 = 10;

        fn loses(&self) -> bool {
            self.path.len() >= 2 && self.path[1] < self.losing
        }
    }

    impl SearchGame for Fan {
        type Move = u8;
        type Undo = ();

        fn generate(&mut self, out: &mut Vec<u8>) {
            out.clear();
            if self.path.len() == 2 && self.loses() {
                out.push(0);
            } else {
                out.extend(0..Fan::WIDTH);
            }
        }

        fn make(&mut self, mv: u8) {
            if self.path == [0] {
                self.made_there.insert(mv);
            }
            self.path.push(mv);
        }

        fn unmake(&mut self, _mv: u8, (): ()) {
            self.path.pop();
        }

        fn terminal(&self) -> Option<i32> {
            (self.path.len() == 3 && self.loses()).then_some(-super::MATE)
        }

        fn evaluate(&self) -> i32 {
            0
        }

        fn key(&self) -> u64 {
            self.path
                .iter()
                .fold(7, |key, &mv| key * 31 + u64::from(mv) + 1)
        }

        fn extend(&self) -> bool {
            self.path.len() == 2 && self.loses()
        }

        fn searched_moves(&self, depth: i32) -> Option<usize> {
            self.searched.filter(|_| depth <= 1)
        }

        fn history_index(&self, _mv: &u8) -> usize {
            0
        }
    }

    #[test]
    fn late_move_pruning_leaves_the_rest_once_a_move_does_not_lose() {
        // What the first node below the root searched, in a search two plies deep, with
        // alpha-beta or as plain minimax.
        let searched_there = |losing: u8, searched: Option<usize>, pruning: bool| {
            let mut game = Fan {
                path: Vec::new(),
                losing,
                searched,
                made_there: Default::default(),
            };
            let config = SearchConfig {
                pruning,
                extensions: true,
                table_bits: None,
                reductions: false,
            };
            let mut searcher = Searcher::new(config, &Limits::default(), Instant::now());
            let found = searcher.iterate(&mut game, 2).unwrap();
            assert_eq!(found.depth, 2);
            game.made_there.len()
        };
        // Without pruning, all ten; with four, four.
        assert_eq!(searched_there(0, None, true), 10);
        assert_eq!(searched_there(0, Some(4), true), 4);
        // Six moves that lose: the search goes on to the first that does not, and stops there.
        assert_eq!(searched_there(6, Some(4), true), 7);
        // Every move loses: all are searched before the loss is believed.
        assert_eq!(searched_there(10, Some(4), true), 10);
        // Plain minimax prunes nothing.
        assert_eq!(searched_there(0, Some(4), false), 10);
    }

    #[test]
    fn the_move_at_the_hash_place_comes_first_and_the_rest_keep_their_order() {
        use crate::ai::checkers::CheckersSearch;
        use crate::games::checkers::{Checkers, parse_fen};
        // A middle game with a dozen steps, and one with captures (ordered by their hint).
        for fen in [
            "B:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15",
            "W:W5,6,K7,31:B1,2,K3,9,10,11,27",
        ] {
            let position = parse_fen(fen).expect(fen);
            let mut game = CheckersSearch::new(&Checkers::from_position(position), true);
            let searcher = Searcher::new(SearchConfig::CLASSIC, &Limits::default(), Instant::now());
            let mut moves = Vec::new();
            game.generate(&mut moves);
            assert!(moves.len() > 2, "{fen}");
            let places = |ranks: &[u64]| -> Vec<usize> {
                ranks.iter().map(|&key| key as u32 as usize).collect()
            };
            let mut plain = Vec::new();
            searcher.rank_moves(&game, &moves, None, 0, &mut plain);
            let mut ranks = Vec::new();
            for place in 0..moves.len() {
                searcher.rank_moves(&game, &moves, Some(place), 0, &mut ranks);
                let mut expected = vec![place];
                expected.extend(places(&plain).into_iter().filter(|&p| p != place));
                assert_eq!(places(&ranks), expected, "{fen}");
            }
            // A place beyond the list (a move the list does not hold) changes nothing.
            searcher.rank_moves(&game, &moves, Some(moves.len()), 0, &mut ranks);
            assert_eq!(ranks, plain, "{fen}");
        }
    }

    #[test]
    fn ranks_sort_as_a_stable_sort_by_score_best_first() {
        let mut rng = StdRng::seed_from_u64(34);
        for _ in 0..2_000 {
            // Few distinct scores, so that ties are common, and the extremes among them.
            let choices = [i32::MIN, -5, 0, 1, 1 << 27, i32::MAX];
            let scores: Vec<i32> = (0..rng.random_range(0..40))
                .map(|_| choices[rng.random_range(0..choices.len())])
                .collect();
            let mut stable: Vec<usize> = (0..scores.len()).collect();
            stable.sort_by_key(|&place| std::cmp::Reverse(scores[place]));
            let mut keys: Vec<u64> = scores
                .iter()
                .enumerate()
                .map(|(place, &score)| rank(score, place))
                .collect();
            keys.sort_unstable();
            let ranked: Vec<usize> = keys.iter().map(|&key| key as u32 as usize).collect();
            assert_eq!(ranked, stable, "{scores:?}");
        }
    }
}
