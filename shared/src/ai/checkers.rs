//! Checkers for the search: make/unmake by copying the 16-byte position, the draw rules seen
//! coming, captures first in the move order, and a capture extension so that no search stops in
//! the middle of an exchange (captures are compulsory: a forcing sequence of them is always
//! searched to its end).
//!
//! Draws: a position that repeats one first seen inside the search (after the root) is a draw,
//! as the side that steered into the cycle could repeat it; one first seen in the game before
//! the search is a draw only the third time it stands, as the rules have it, so a side that is
//! better does not take the opponent's return to an old position for a draw it must accept. The
//! forty-move rule is seen coming. The expert can score these draws with a contempt: below zero
//! for the side its root evaluation has ahead (by a percentage of that evaluation, at most
//! [`MAX_CONTEMPT`]), above zero for the other, so that the stronger side plays on rather than
//! repeat; by default it is off ([`CONTEMPT_PERCENT`]: measured no gain). An endgame database's
//! draw is exact and scores 0.
//!
//! The fixed-depth levels count material only (a man 100, a king 175, a side without a move has
//! lost); the deepening levels (`skilled` to `master` under node budgets, and `expert`) use
//! [`super::checkers_eval`], and `expert` alone an endgame database when it is given one: a
//! position in the database is scored exactly (won, lost or drawn, a little more for more
//! material) and searched no further. In a won position the expert must also make progress, so it
//! converts by a rule: positions with the root's own material that are still won are searched on
//! (the evaluation drives the lone pieces out of the corners and the search finds the capture or
//! crowning into a smaller won ending), and only one that lets the win slip is scored at once.
//! The loser does the same, so it resists as long as the evaluation can (otherwise every move
//! would score the same loss and it would give up at once).
//! In the opening the expert plays the move of the shipped [`Book`] while the position is in it.

use super::Level;
use super::book::Book;
use super::checkers_eval::{Weights, expert_eval_in, material};
use super::classic::{Request, classic, expert};
use super::egdb::index::Counts;
use super::egdb::{Egdb, Verdict};
use super::search::{Found, SearchGame};
use super::zobrist::{checkers_key, checkers_key_after};
use crate::cpu::Instructions;
use crate::game::Side;
use crate::games::checkers::{
    Checkers, FORTY_MOVE_PLIES, Move, Position, crowning_row, for_each_move, has_capture,
};
use rand::rngs::StdRng;
use std::sync::Arc;

/// Transposition table size for checkers: 2^18 entries of 16 bytes.
const TABLE_BITS: u32 = 18;

/// A checkers position under search, with the keys of the positions before it.
pub struct CheckersSearch {
    position: Position,
    expert: bool,
    /// Keys of every position from the start of the game's reversible stretch, ending with the
    /// current one.
    keys: Vec<u64>,
    /// Where in `keys` the current reversible stretch (since the last capture or man's move)
    /// starts.
    reversible_from: usize,
    /// The endgame database consulted at the nodes the search does not extend, if any.
    egdb: Option<Arc<Egdb>>,
    /// When the root is won or lost in the database: its material and the winner. Positions
    /// with that material still won for the winner are searched on rather than scored (see the
    /// file's comment).
    converting: Option<(Counts, Side)>,
    /// The build of the evaluation to run ([`crate::cpu`]), asked once per search.
    instructions: Instructions,
    /// Where in `keys` the root stands: an earlier position repeated is a draw only the third
    /// time, one seen after the root already the second.
    root: usize,
    /// What a draw is worth to the side to move at the root (0 or below when it is ahead);
    /// the other side's is the negative.
    root_draw: i32,
    /// The expert evaluation's weights (the shipped ones unless an engine tool says otherwise).
    weights: &'static Weights,
}

/// The expert's contempt for draws, in percent of its root evaluation: a side ahead by a man
/// (100) scores a draw at minus this many points. Off: matches against the yardstick of issue
/// 35 (200 games each at 0.1 s a move, docs/measurements/strength.md) measured no gain from 10,
/// 25 or 50 over none once the repetition rule above was right; `kingme match --a-contempt`
/// measures it again.
pub const CONTEMPT_PERCENT: i32 = 0;

/// The most a draw's score moves away from 0 with the contempt.
pub const MAX_CONTEMPT: i32 = 50;

/// A database win's score before the material term: far above any evaluation of a position
/// with few pieces, below [`super::search::MATE_BOUND`] (a database win is not a mate in so
/// many moves).
pub const KNOWN_WIN: i32 = 8_000;

impl CheckersSearch {
    /// The game's position and history, evaluated as a classic level or as the expert.
    #[must_use]
    pub fn new(game: &Checkers, expert: bool) -> CheckersSearch {
        let mut keys = Vec::with_capacity(256);
        keys.extend(game.history().iter().map(checkers_key));
        CheckersSearch {
            position: *game.position(),
            expert,
            root: keys.len() - 1,
            keys,
            reversible_from: 0,
            egdb: None,
            converting: None,
            instructions: Instructions::detected(),
            root_draw: 0,
            weights: Weights::shipped(),
        }
    }

    /// Scores the draws it sees with a contempt of `percent` of the root's evaluation (from
    /// the side to move's point of view), at most [`MAX_CONTEMPT`] either way: a draw is worth
    /// less than 0 to a side the evaluation has ahead, more than 0 to one behind. Only for the
    /// expert's evaluation; the classic levels' draws stay 0, as plain minimax scores them.
    #[must_use]
    pub fn with_contempt(mut self, percent: i32) -> CheckersSearch {
        if self.expert {
            let ahead = self.evaluate();
            self.root_draw =
                -(ahead.saturating_mul(percent) / 100).clamp(-MAX_CONTEMPT, MAX_CONTEMPT);
        }
        self
    }

    /// A draw's score for the side to move.
    fn draw_score(&self) -> i32 {
        if (self.keys.len() - 1 - self.root).is_multiple_of(2) {
            self.root_draw
        } else {
            -self.root_draw
        }
    }

    /// Evaluates with `weights` instead of the shipped ones, if given.
    #[must_use]
    pub fn with_weights(mut self, weights: Option<&'static Weights>) -> CheckersSearch {
        self.weights = weights.unwrap_or(self.weights);
        self
    }

    /// Evaluates in the build `instructions` names instead of the fastest one; every build
    /// scores the same, so the search visits the same nodes (the tests compare them).
    #[cfg(test)]
    #[must_use]
    pub fn with_instructions(mut self, instructions: Instructions) -> CheckersSearch {
        self.instructions = instructions;
        self
    }

    /// Consults `egdb` in the search; when the root is won or lost there, searches on in
    /// positions of the root's material that keep that result (converting, or resisting).
    #[must_use]
    pub fn with_egdb(mut self, egdb: Option<Arc<Egdb>>) -> CheckersSearch {
        self.converting = egdb.as_deref().and_then(|db| {
            let mover = self.position.side_to_move();
            let winner = match db.verdict(&self.position)? {
                Verdict::Win => mover,
                Verdict::Loss => mover.opponent(),
                Verdict::Draw => return None,
            };
            Some((Counts::of(&self.position), winner))
        });
        self.egdb = egdb;
        self
    }

    /// The database's score for the side to move, from a verdict.
    fn known_score(&self, verdict: Verdict) -> i32 {
        let ahead = match self.position.side_to_move() {
            Side::First => material(&self.position),
            Side::Second => -material(&self.position),
        } / 2;
        match verdict {
            Verdict::Win => KNOWN_WIN + ahead,
            Verdict::Loss => -KNOWN_WIN + ahead,
            Verdict::Draw => 0,
        }
    }
}

impl SearchGame for CheckersSearch {
    type Move = Move;
    type Undo = (Position, usize);

    fn generate(&mut self, out: &mut Vec<Move>) {
        out.clear();
        for_each_move(&self.position, |mv| out.push(*mv));
    }

    fn make(&mut self, mv: Move) -> (Position, usize) {
        let undo = (self.position, self.reversible_from);
        let irreversible = mv.is_capture() || self.position.moves_a_man(&mv);
        self.position.play_unchecked(&mv);
        let key = checkers_key_after(self.key(), &undo.0, &mv, &self.position);
        self.keys.push(key);
        if irreversible {
            self.reversible_from = self.keys.len() - 1;
        }
        undo
    }

    fn unmake(&mut self, _mv: Move, (position, reversible_from): (Position, usize)) {
        self.position = position;
        self.reversible_from = reversible_from;
        self.keys.pop();
    }

    fn terminal(&self) -> Option<i32> {
        let now = self.keys.len() - 1;
        if now - self.reversible_from >= FORTY_MOVE_PLIES {
            return Some(self.draw_score());
        }
        // The same position with the same side to move, two, four, ... plies back, latest
        // first. Seen after the root, the side that steered into the cycle can repeat it: a
        // draw at once. Seen only before the root, it is a draw the third time it stands.
        // The earlier keys in pairs from the latest, `[now - 2k, now - 2k + 1]`: each pair's
        // first is a position with this side to move.
        let key = self.keys[now];
        let earlier = &self.keys[self.reversible_from..now];
        let mut seen_before_root = false;
        for (pairs, pair) in earlier.rchunks_exact(2).enumerate() {
            if pair[0] == key {
                if now - 2 * (pairs + 1) > self.root || seen_before_root {
                    return Some(self.draw_score());
                }
                seen_before_root = true;
            }
        }
        None
    }

    fn evaluate(&self) -> i32 {
        let black = if self.expert {
            expert_eval_in(self.instructions, self.weights, &self.position)
        } else {
            material(&self.position)
        };
        match self.position.side_to_move() {
            Side::First => black,
            Side::Second => -black,
        }
    }

    fn key(&self) -> u64 {
        self.keys[self.keys.len() - 1]
    }

    fn probe(&self, depth: i32) -> Option<i32> {
        let db = self.egdb.as_deref()?;
        let at_horizon = depth <= 0;
        // At the horizon a position with the file's largest piece count is left to the
        // evaluation: those are most of a search's probes and most of the file, each a read of
        // memory the processor's caches rarely hold (or a block decoded), and a position of
        // them met at the horizon is probed, with depth left, by the next iteration. Smaller
        // endings are probed everywhere.
        if at_horizon && db.at_largest_count(&self.position) {
            return None;
        }
        let converting = self
            .converting
            .filter(|(material, _)| Counts::of(&self.position) == *material);
        // So is a position of the root's material when the root is won or lost: its probe
        // would mostly answer "still won", which is searched on and so, at the horizon,
        // evaluated anyway; a conversion's every node is such a position. A move that lets the
        // win slip is still seen wherever there is depth left, at the root's children always.
        if at_horizon && converting.is_some() {
            return None;
        }
        let verdict = db.verdict(&self.position)?;
        if let Some((_, winner)) = converting {
            let mover = self.position.side_to_move();
            let still_won = match verdict {
                Verdict::Win => mover == winner,
                Verdict::Loss => mover != winner,
                Verdict::Draw => false,
            };
            if still_won {
                return None;
            }
        }
        Some(self.known_score(verdict))
    }

    fn extend(&self) -> bool {
        has_capture(&self.position)
    }

    fn reducible(&self, mv: &Move) -> bool {
        let crowns = self.position.moves_a_man(mv)
            && mv.to().bit() & crowning_row(self.position.side_to_move()) != 0;
        !mv.is_capture() && !crowns
    }

    fn order_hint(&self, mv: &Move) -> i32 {
        // Captures are compulsory, so they are all or nothing in a list; the bigger first.
        (mv.capture_count() * 100) as i32
    }

    fn history_index(&self, mv: &Move) -> usize {
        usize::from(mv.from().index()) * 32 + usize::from(mv.to().index())
    }
}

/// The move for a level.
pub fn choose(game: &Checkers, request: &Request<'_>, rng: &mut StdRng) -> Option<Found<Move>> {
    if request.plan().book
        && !request.limits.no_book
        && !request.options.minimax
        && !request.options.fixed_depth
        && let Some(line) = Book::shipped().and_then(|book| book.lookup(game.position()))
    {
        return Some(Found {
            best: line.mv,
            score: line.score,
            depth: line.depth,
            nodes: 0,
            pv: vec![line.mv],
            ties: vec![line.mv],
        });
    }
    let contempt = request.options.contempt.unwrap_or(CONTEMPT_PERCENT);
    let mut search = CheckersSearch::new(game, request.deepens())
        .with_weights(request.options.checkers_weights)
        .with_contempt(contempt);
    if request.level == Level::Expert {
        search = search.with_egdb(request.limits.egdb.clone());
    }
    if request.deepens() {
        expert(&mut search, TABLE_BITS, request, rng)
    } else {
        classic(&mut search, request.classic_depth(), request, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::ai::search::{MATE_BOUND, SearchConfig, Searcher};
    use crate::ai::{Limits, think};
    use crate::game::Game;
    use crate::{AnyGame, GameKind};

    /// Whether the side to move can force a win within `plies`, by the rules alone (the
    /// [`Game`] trait, none of the search's code): the independent check of every case below.
    fn can_force_win(game: &Checkers, plies: u32) -> bool {
        if let Some(outcome) = game.outcome() {
            return outcome.winner() == Some(game.side_to_move());
        }
        plies > 0
            && game.legal_moves().iter().any(|mv| {
                let mut next = game.clone();
                next.play(mv).unwrap();
                must_lose(&next, plies - 1)
            })
    }

    /// Whether the side to move loses within `plies` whatever it does.
    fn must_lose(game: &Checkers, plies: u32) -> bool {
        if let Some(outcome) = game.outcome() {
            return outcome.winner() == Some(game.side_to_move().opponent());
        }
        plies > 0
            && game.legal_moves().iter().all(|mv| {
                let mut next = game.clone();
                next.play(mv).unwrap();
                can_force_win(&next, plies - 1)
            })
    }

    /// A forced win: `fen`, the plies within which it is won, and the only winning move. The
    /// rules confirm that the move wins and that no other does; the expert must find it.
    fn check_forced_win(fen: &str, plies: u32, expected: &str) {
        let game = Checkers::from_position_text(fen).unwrap();
        let winning: Vec<String> = game
            .legal_moves()
            .iter()
            .filter(|mv| {
                let mut next = game.clone();
                next.play(mv).unwrap();
                must_lose(&next, plies - 1)
            })
            .map(|mv| game.move_text(mv))
            .collect();
        assert_eq!(winning, [expected], "{fen}: the winning moves by the rules");
        let limits = Limits {
            depth: Some(plies + 2),
            ..Limits::default()
        };
        let report = think(&AnyGame::Checkers(game), Level::Expert, &limits, 0).unwrap();
        assert_eq!(report.text, expected, "{fen}: {report:?}");
        assert!(
            report.score > MATE_BOUND,
            "{fen}: a win is announced: {report:?}"
        );
    }

    /// Forced wins, each with Black to move and no more material than White: the position,
    /// the plies within which it is won, the only winning move.
    const FORCED_WINS: [(&str, u32, &str); 6] = [
        ("B:W14,30:B1,22", 5, "1-6"),
        ("B:W14,32:B6,26", 7, "26-31"),
        ("B:W20,32:B10,11", 7, "10-15"),
        ("B:WK3,10:B1,K9", 7, "9-6"),
        ("B:WK26,31:B25,27", 7, "25-30"),
        ("B:WK4,23:B2,3", 7, "2-7"),
    ];

    /// Middle games and endings with quiet moves to spare (the start, early middle games, kings
    /// against men, kings with a choice of captures), and two forced wins with the loser's side
    /// of them, whose scores jump out of the aspiration window from one depth to the next, above
    /// it for the winner and below it for the loser.
    const SEARCH_POSITIONS: [&str; 11] = [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15",
        "W:W18,20,22,24,25,26,28,29,31:B2,5,6,8,10,11,13,15,16",
        "B:W17,20,21,23,25,26,27,29,30,31:B1,3,5,6,8,10,11,12,14,15",
        "B:WK3,22,25,27,30:B6,9,K14,20",
        "W:WK3,K10,K26:B1,K9,K20,25,27",
        "W:WK3,K10,K26,K32:BK9,K20,K22,25,27",
        "B:W14,32:B6,26",
        "W:W14,32:B6,K31",
        "B:W20,32:B10,11",
        "W:W20,32:B11,15",
    ];

    /// The expert's search with a table of `2^table_bits` entries or none (so that every
    /// search's score is exact, whatever order the moves were tried in), with or without
    /// late-move reductions.
    fn searcher(table_bits: Option<u32>, reductions: bool) -> Searcher<Move> {
        let config = SearchConfig {
            pruning: true,
            extensions: true,
            table_bits,
            reductions,
        };
        let limits = Limits::default();
        Searcher::new(config, &limits, limits.clock.now())
    }

    #[test]
    fn aspiration_windows_give_the_exact_score() {
        // Iterative deepening searches from depth 4 on in a narrow window around the last
        // score and again where the score falls outside it; every root move scored with an
        // open window at the same depth must give the same best score.
        for fen in SEARCH_POSITIONS {
            let game = Checkers::from_position_text(fen).unwrap();
            assert!(game.legal_moves().len() > 1, "{fen}: a choice to search");
            for depth in 1..=7 {
                let mut search = CheckersSearch::new(&game, true);
                let deepened = searcher(None, false).iterate(&mut search, depth).unwrap();
                let exact = searcher(None, false)
                    .exact_root(&mut search, depth)
                    .unwrap();
                assert_eq!(deepened.depth, depth, "{fen}");
                assert_eq!(deepened.score, exact.score, "{fen} at depth {depth}");
                assert!(
                    exact.ties.contains(&deepened.best),
                    "{fen} at depth {depth}: {deepened:?} is not among {exact:?}"
                );
            }
        }
    }

    #[test]
    fn late_move_reductions_search_fewer_nodes() {
        // Not in every position (a small ending may have no quiet move late enough), but overall.
        let nodes = |reductions| -> u64 {
            SEARCH_POSITIONS
                .iter()
                .map(|fen| {
                    let game = Checkers::from_position_text(fen).unwrap();
                    let mut search = CheckersSearch::new(&game, true);
                    searcher(None, reductions)
                        .iterate(&mut search, 8)
                        .unwrap()
                        .nodes
                })
                .sum()
        };
        let (full, reduced) = (nodes(false), nodes(true));
        assert!(reduced < full, "{reduced} nodes reduced, {full} not");
    }

    #[test]
    fn the_expert_finds_forced_wins() {
        for (fen, plies, expected) in FORCED_WINS {
            check_forced_win(fen, plies, expected);
        }
    }

    #[test]
    fn late_move_reductions_keep_the_forced_wins() {
        // The expert's search (table and all) at the depth the wins need, with its late-move
        // reductions and without: both find the win, and the reductions did cut some nodes.
        let (mut reduced_nodes, mut full_nodes) = (0, 0);
        for (fen, plies, expected) in FORCED_WINS {
            let game = Checkers::from_position_text(fen).unwrap();
            for reductions in [true, false] {
                let found = searcher(Some(TABLE_BITS), reductions)
                    .iterate(&mut CheckersSearch::new(&game, true), plies + 1)
                    .unwrap();
                assert_eq!(game.move_text(&found.best), expected, "{fen}: {found:?}");
                assert!(found.score > MATE_BOUND, "{fen}: {found:?}");
                *if reductions {
                    &mut reduced_nodes
                } else {
                    &mut full_nodes
                } += found.nodes;
            }
        }
        assert!(
            reduced_nodes < full_nodes,
            "{reduced_nodes} against {full_nodes}"
        );
    }

    #[test]
    fn only_quiet_moves_are_reduced() {
        let reducible = |fen: &str, text: &str| {
            let game = Checkers::from_position_text(fen).unwrap();
            let mv = game.parse_move(text).unwrap();
            CheckersSearch::new(&game, true).reducible(&mv)
        };
        assert!(reducible("B:W14,30:B1,22", "1-6"), "a man's step");
        assert!(reducible("B:WK3,10:B1,K9", "9-6"), "a king's step");
        assert!(!reducible("B:W14,32:B6,26", "26-31"), "a crowning");
        assert!(!reducible("W:W14,30:B10,22", "14x7"), "a capture");
        assert!(!reducible("W:W6,30:B1,22", "6-2"), "White's crowning");
    }

    /// Plays expert against expert from `fen` and returns the plies until the end and the winner.
    fn play_out(fen: &str, nodes: u64, max_plies: u32) -> (u32, Option<Side>) {
        let mut game = AnyGame::from_position_text(GameKind::Checkers, fen).unwrap();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut plies = 0;
        while game.outcome().is_none() && plies < max_plies {
            let report = think(&game, Level::Expert, &limits, u64::from(plies)).unwrap();
            game.play(&report.best).unwrap();
            plies += 1;
        }
        (plies, game.outcome().and_then(|outcome| outcome.winner()))
    }

    #[test]
    fn every_build_of_the_evaluation_searches_the_same_tree() {
        use crate::ai::classic::expert;
        use crate::ai::{ThinkOptions, search::Found};
        use crate::cpu::Instructions;
        use rand::SeedableRng;
        // The start (out of the book's reach here: the search is called directly), a middle
        // game, kings against men, and kings with a choice of captures.
        let cases = [
            (
                "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                9,
            ),
            (
                "B:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15",
                9,
            ),
            ("W:WK3,K10,K26:B1,K9,K20,25,27", 9),
            ("W:WK3,K10,K26,K32:BK9,K20,K22,25,27", 9),
        ];
        let search = |fen: &str, depth: u32, instructions: Instructions| -> Found<Move> {
            let game = Checkers::from_position_text(fen).unwrap();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let request = Request {
                kind: GameKind::Checkers,
                level: Level::Expert,
                limits: &limits,
                options: ThinkOptions::default(),
                started: limits.clock.now(),
            };
            let mut search = CheckersSearch::new(&game, true).with_instructions(instructions);
            let mut rng = StdRng::seed_from_u64(0);
            expert(&mut search, TABLE_BITS, &request, &mut rng).unwrap()
        };
        for (fen, depth) in cases {
            let baseline = search(fen, depth, Instructions::BASELINE);
            assert!(baseline.nodes > 1_000, "{fen}: {baseline:?}");
            for instructions in Instructions::available() {
                let found = search(fen, depth, instructions);
                let name = instructions.name();
                assert_eq!(found.nodes, baseline.nodes, "{name}, {fen}");
                assert_eq!(
                    (found.best, found.score, found.depth, &found.pv),
                    (baseline.best, baseline.score, baseline.depth, &baseline.pv),
                    "{name}, {fen}"
                );
            }
        }
    }

    #[test]
    fn two_kings_beat_one_even_from_the_double_corner() {
        // The lone White king starts in or next to a double corner and defends as well as the
        // expert can; Black's two kings must still win within 30 moves each.
        for fen in ["B:WK1:BK14,K23", "W:WK28:BK1,K2", "W:WK5:BK18,K19"] {
            let (plies, winner) = play_out(fen, 20_000, 60);
            assert_eq!(winner, Some(Side::First), "{fen}: {plies} plies");
        }
    }

    /// A game from `fen` with `moves` played.
    fn after_moves(fen: &str, moves: &[&str]) -> Checkers {
        let mut game = Checkers::from_position_text(fen).unwrap();
        for text in moves {
            let mv = game.parse_move(text).unwrap();
            game.play(&mv).unwrap();
        }
        game
    }

    /// Makes the moves `texts` in the search, in order.
    fn make_all(search: &mut CheckersSearch, game: &Checkers, texts: &[&str]) {
        let mut replay = game.clone();
        for text in texts {
            let mv = replay.parse_move(text).unwrap();
            replay.play(&mv).unwrap();
            search.make(mv);
        }
    }

    #[test]
    fn a_repetition_of_the_game_before_the_search_is_a_draw_only_the_third_time() {
        // Kings shuffle so that the start stands again: the second time, not a draw yet.
        let shuffle = ["1-5", "32-28", "5-1", "28-32"];
        let twice = after_moves("B:WK32:BK1", &shuffle);
        assert_eq!(twice.repetitions(), 2);
        let mut search = CheckersSearch::new(&twice, true);
        assert_eq!(search.terminal(), None, "the root stands the second time");
        // Going round again inside the search reaches the start a third time: the rules' draw.
        make_all(&mut search, &twice, &shuffle);
        assert_eq!(search.terminal(), Some(0));
        // One step of the cycle reaches a position that stood once before the root: play goes
        // on, the side ahead does not take it for a draw.
        let mut search = CheckersSearch::new(&twice, true);
        make_all(&mut search, &twice, &["1-5"]);
        assert_eq!(search.terminal(), None);
        // A position first seen inside the search is a draw the second time: the side that
        // steered into the cycle can repeat it.
        let once = Checkers::from_position_text("B:WK32:BK1").unwrap();
        let mut search = CheckersSearch::new(&once, true);
        make_all(&mut search, &once, &["1-6", "32-28", "6-1", "28-32"]);
        assert_eq!(search.terminal(), None, "the root itself, the second time");
        make_all(&mut search, &once, &["1-6"]);
        assert_eq!(search.terminal(), Some(0), "first seen inside the search");
        search.unmake(once.parse_move("1-6").unwrap(), (*once.position(), 0));
        assert_eq!(search.key(), checkers_key(once.position()));
    }

    #[test]
    fn a_draw_is_worth_less_than_zero_to_the_side_ahead_and_more_to_the_other() {
        // Black a king and a man up, to move; a cycle inside the search is a draw.
        let game = Checkers::from_position_text("B:WK32:BK1,K10,12").unwrap();
        let cycle = ["1-5", "32-28", "5-1", "28-32", "1-5"];
        let draw_after = |plies: usize, search: &mut CheckersSearch| {
            make_all(search, &game, &cycle[..plies]);
            search.terminal()
        };
        const PERCENT: i32 = 25;
        let ahead = CheckersSearch::new(&game, true).evaluate();
        assert!(ahead * PERCENT / 100 > MAX_CONTEMPT, "{ahead}");
        let mut search = CheckersSearch::new(&game, true).with_contempt(PERCENT);
        // White to move after the fifth ply: the draw is White's gain.
        assert_eq!(draw_after(5, &mut search), Some(MAX_CONTEMPT));
        let mut search = CheckersSearch::new(&game, true).with_contempt(10);
        assert_eq!(
            draw_after(5, &mut search),
            Some((ahead / 10).min(MAX_CONTEMPT))
        );
        // White to move at the root, behind: a draw is worth more than 0 to it, and less than
        // 0 to Black after a ply.
        let white = Checkers::from_position_text("W:WK32:BK1,K10,12").unwrap();
        let mut search = CheckersSearch::new(&white, true).with_contempt(PERCENT);
        assert_eq!(search.draw_score(), MAX_CONTEMPT);
        make_all(&mut search, &white, &["32-28"]);
        assert_eq!(search.draw_score(), -MAX_CONTEMPT);
        // The classic levels keep plain minimax's draws.
        let mut classic = CheckersSearch::new(&game, false).with_contempt(PERCENT);
        assert_eq!(draw_after(5, &mut classic), Some(0));
    }

    #[test]
    fn ahead_where_it_repeated_before_the_expert_now_plays_on() {
        // From a game of the expert against itself (ACF ballot 28, 40,000 nodes a move): White,
        // three kings and two men against two kings and three men, to move where the position
        // had stood before. The expert before this change scored every line a draw (0 at depth
        // 8 and 12: any return to a position of the game counted as one) and repeated; now only
        // a third time is, so it sees its lead and plays on.
        let moves = "22-17 13x22 25x18 10-14 18x9 6x13 29-25 16-20 25-22 2-6 22-17 13x22 26x17 \
            7-11 17-14 11-16 28-24 6-10 14x7 3x10 23-18 16x23 18-14 10x17 21x14 12-16 27x18 \
            20x27 31x24 1-6 30-26 8-11 26-23 16-20 32-27 4-8 23-19 8-12 19-15 11-16 15-11 6-9 \
            11-7 9-13 7-2 13-17 14-10 17-22 10-7 22-25 18-14 25-30 7-3 30-25 3-7 25-22 7-11 \
            22-26 14-10 5-9 2-6 9-14 6-9 14-17 10-6 17-21 6-1 21-25 9-14 25-29 1-6 29-25 11-7 \
            25-22 7-10 26-30 6-9 30-26";
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let ballot = "W:W19,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,12,13,16";
        let game = after_moves(ballot, &moves);
        assert_eq!(
            game.position_text(),
            "W:WK9,K10,K14,24,27:B12,16,20,K22,K26"
        );
        assert!(game.history().len() > 8, "a history of king moves");
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        // The hand-set weights the position was found with: the rule, not the weights, is
        // what this test is about (the fitted weights see White's lead as smaller).
        let options = crate::ai::ThinkOptions {
            checkers_weights: Some(crate::ai::checkers_eval::Weights::hand()),
            ..crate::ai::ThinkOptions::default()
        };
        let report = crate::ai::think_with(
            &AnyGame::Checkers(game.clone()),
            Level::Expert,
            &limits,
            0,
            &options,
        )
        .unwrap();
        assert!(report.score > MAX_CONTEMPT, "{report:?}");
        let mut next = AnyGame::Checkers(game);
        next.play(&report.best).unwrap();
        assert_eq!(next.outcome(), None, "{report:?}");
    }

    #[test]
    fn a_node_budget_is_kept_to_the_node() {
        // The levels below the expert are node budgets; at a few dozen nodes one more or less
        // is a different level, so the search stops at the budget, not at the next look at
        // the clock.
        let game = AnyGame::from_position_text(
            GameKind::Checkers,
            "B:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15",
        )
        .unwrap();
        for nodes in [10, 55, 65, 100, 300, 1_000, 2_001] {
            let limits = Limits {
                nodes: Some(nodes),
                no_book: true,
                ..Limits::default()
            };
            let report = think(&game, Level::Expert, &limits, 0).unwrap();
            assert_eq!(report.nodes, nodes, "{report:?}");
        }
    }

    #[test]
    fn the_expert_and_the_two_levels_below_it_play_the_book_and_the_others_search() {
        let start = Checkers::start();
        let book = Book::shipped().unwrap().lookup(start.position()).unwrap();
        for level in Level::ALL.into_iter().filter(|&l| l != Level::Random) {
            let report = think(
                &AnyGame::Checkers(start.clone()),
                level,
                &Limits::default(),
                0,
            )
            .unwrap();
            let from_book = report.nodes == 0;
            let expected = matches!(level, Level::Strong | Level::Master | Level::Expert);
            assert_eq!(from_book, expected, "{level}: {report:?}");
            if from_book {
                assert_eq!(report.best, crate::AnyMove::Checkers(book.mv), "{level}");
            }
        }
    }

    #[test]
    fn without_a_repetition_in_reach_the_contempt_changes_no_search() {
        // Men only: no move can be taken back, so no position can come again, and the search
        // is the same with the contempt and without (nodes, move, score and line).
        use crate::ai::ThinkOptions;
        for fen in [
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15",
            "W:W18,22,24,25,27,28,30:B2,3,6,7,9,11,13",
        ] {
            let game = AnyGame::from_position_text(GameKind::Checkers, fen).unwrap();
            let limits = Limits {
                depth: Some(9),
                no_book: true,
                ..Limits::default()
            };
            let search = |contempt| {
                let options = ThinkOptions {
                    contempt: Some(contempt),
                    ..ThinkOptions::default()
                };
                crate::ai::think_with(&game, Level::Expert, &limits, 0, &options).unwrap()
            };
            let (without, with) = (search(0), search(50));
            assert!(without.nodes > 1_000, "{fen}: {without:?}");
            assert_eq!(
                (without.nodes, &without.text, without.score, &without.pv),
                (with.nodes, &with.text, with.score, &with.pv),
                "{fen}"
            );
        }
    }

    #[test]
    fn with_a_database_the_expert_scores_endings_exactly() {
        use crate::ai::egdb::index::position_at;
        use crate::ai::egdb::{encode, solve};
        let db = Arc::new(Egdb::parse(encode(&solve(3, |_| {}))).unwrap());
        let with_db = |depth| Limits {
            depth: Some(depth),
            egdb: Some(db.clone()),
            ..Limits::default()
        };
        // Two kings to move against one: in a won one the expert converts (its move keeps the
        // win), a drawn one (a king cramped in the single corner) scores 0 though a king up. The
        // lone king to move resists.
        let slice = Counts {
            black_men: 0,
            black_kings: 2,
            white_men: 0,
            white_kings: 1,
        };
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for index in (0..slice.entries()).step_by(37) {
            let Some(position) = position_at(slice, index) else {
                continue;
            };
            for position in [position, position.with_side_to_move(Side::Second)] {
                let game = AnyGame::Checkers(Checkers::from_position(position));
                if game.legal_moves().len() < 2 {
                    continue;
                }
                let report = think(&game, Level::Expert, &with_db(2), 0).unwrap();
                let crate::AnyMove::Checkers(mv) = report.best else {
                    panic!("a checkers move");
                };
                let after = position.after(&mv);
                match db.verdict(&position).unwrap() {
                    Verdict::Win => {
                        assert!(report.score > 0, "{position:?}: {report:?}");
                        assert_eq!(db.verdict(&after), Some(Verdict::Loss), "{position:?}");
                        wins += 1;
                    }
                    Verdict::Draw => {
                        assert_eq!(report.score, 0, "{position:?}: {report:?}");
                        draws += 1;
                    }
                    Verdict::Loss => {
                        // Resisting: searched on like a conversion, so scored by the
                        // evaluation, a king down.
                        assert!(report.score < 0, "{position:?}: {report:?}");
                        losses += 1;
                    }
                }
            }
        }
        assert!(losses > 50, "{wins} {draws} {losses}");
        assert!(wins > 50, "{wins} {draws}");
        // Without the database a drawn position a king up scores as a king up.
        let cramped = (0..slice.entries())
            .filter_map(|index| position_at(slice, index))
            .find(|p| db.verdict(p) == Some(Verdict::Draw))
            .unwrap();
        let game = AnyGame::Checkers(Checkers::from_position(cramped));
        let plain = think(
            &game,
            Level::Expert,
            &Limits {
                depth: Some(2),
                ..Limits::default()
            },
            0,
        )
        .unwrap();
        let known = think(&game, Level::Expert, &with_db(2), 0).unwrap();
        assert_eq!(known.score, 0);
        assert!(
            plain.score != 0 || game.legal_moves().len() == 1,
            "{plain:?}"
        );
    }

    /// From three-piece roots where the root captures or every move of it leaves the opponent
    /// a capture (every seventh index), a search of `depth` plies given the file of `pieces`
    /// pieces: each root's verdict in `truth` and the search's score.
    fn capture_roots(
        truth: &crate::ai::egdb::Tables,
        pieces: u32,
        depth: u32,
    ) -> Vec<(Verdict, i32)> {
        use crate::ai::egdb::index::position_at;
        use crate::ai::egdb::{encode, solve};
        let db = Arc::new(Egdb::parse(encode(&solve(pieces, |_| {}))).unwrap());
        let limits = Limits {
            depth: Some(depth),
            egdb: Some(db),
            ..Limits::default()
        };
        let mut scored = Vec::new();
        for (counts, _) in truth.slices() {
            if counts.total() != 3 {
                continue;
            }
            for index in (0..counts.entries()).step_by(7) {
                let Some(position) = position_at(*counts, index) else {
                    continue;
                };
                let game = Checkers::from_position(position);
                let moves = game.legal_moves();
                // Either the root captures (into the two-piece endings), or every move of it
                // leaves the opponent a capture, which the search must resolve below the root.
                let forced = has_capture(&position)
                    || moves.iter().all(|mv| has_capture(&position.after(mv)));
                if moves.len() < 2 || !forced {
                    continue;
                }
                let report = think(&AnyGame::Checkers(game), Level::Expert, &limits, 0).unwrap();
                scored.push((truth.verdict(&position).unwrap(), report.score));
            }
        }
        scored
    }

    /// The verdict a database score stands for, if it is one.
    fn verdict_of(score: i32) -> Option<Verdict> {
        match score {
            score if score >= KNOWN_WIN / 2 => Some(Verdict::Win),
            score if score <= -KNOWN_WIN / 2 => Some(Verdict::Loss),
            0 => Some(Verdict::Draw),
            _ => None,
        }
    }

    /// Checks that every root is scored exactly as `truth` has it, and that there are wins,
    /// losses and draws among them.
    fn all_exact(scored: &[(Verdict, i32)]) {
        let mut seen = [0u32; 3];
        for &(truth, score) in scored {
            assert_eq!(verdict_of(score), Some(truth), "score {score}");
            seen[truth.code() as usize - 1] += 1;
        }
        assert!(seen.iter().all(|&n| n > 5), "wins, losses, draws: {seen:?}");
    }

    #[test]
    fn a_conversion_probes_its_own_material_only_with_depth_left() {
        use crate::ai::egdb::index::position_at;
        use crate::ai::egdb::{encode, solve};
        // The four-piece file, so that three-piece positions are not its largest count and
        // only the conversion's rule decides whether they are probed at the horizon.
        let db = Arc::new(Egdb::parse(encode(&solve(4, |_| {}))).unwrap());
        let (mut kept, mut slipped) = (0, 0);
        for counts in Counts::with_total(3) {
            for index in (0..counts.entries()).step_by(5) {
                let Some(root) = position_at(counts, index) else {
                    continue;
                };
                if db.verdict(&root) != Some(Verdict::Win) || has_capture(&root) {
                    continue;
                }
                let game = Checkers::from_position(root);
                let mut search = CheckersSearch::new(&game, true).with_egdb(Some(db.clone()));
                assert_eq!(search.converting, Some((counts, Side::First)));
                assert_eq!(search.probe(1), None, "the won root is searched on");
                assert_eq!(search.probe(0), None);
                let mut moves = Vec::new();
                search.generate(&mut moves);
                for mv in moves {
                    let undo = search.make(mv);
                    let child = search.position;
                    if Counts::of(&child) == counts && !has_capture(&child) {
                        // White to move: still won for Black is a loss for White.
                        let verdict = db.verdict(&child).unwrap();
                        if verdict == Verdict::Loss {
                            assert_eq!(search.probe(1), None, "{child:?}");
                            kept += 1;
                        } else {
                            assert_eq!(
                                search.probe(1),
                                Some(search.known_score(verdict)),
                                "{child:?}"
                            );
                            slipped += 1;
                        }
                        // At the horizon, left to the evaluation either way.
                        assert_eq!(search.probe(0), None, "{child:?}");
                    }
                    search.unmake(mv, undo);
                }
            }
        }
        assert!(kept > 50 && slipped > 50, "kept {kept}, slipped {slipped}");
        // In a conversion, a smaller ending than the root's is still probed at the horizon.
        let root = Checkers::from_position_text("B:WK1:BK31,K32").unwrap();
        let mut search = CheckersSearch::new(&root, true).with_egdb(Some(db.clone()));
        assert!(search.converting.is_some(), "two kings against one: won");
        search.position = *Checkers::from_position_text("W:WK1:BK32")
            .unwrap()
            .position();
        assert_eq!(search.probe(0), Some(0), "a king against a king: drawn");
    }

    #[test]
    fn positions_with_a_capture_are_searched_not_probed_and_score_exactly() {
        // The truth: every verdict of up to three pieces (checked against the reference rules
        // elsewhere). Given only the two-piece file, a three-piece root is not in it; the
        // search never probes capture positions (it extends them) and must still score the
        // root exactly through the captures into the two-piece file (or to a side left
        // without pieces), once those are probed: with depth left (the file's largest count
        // is not probed at the horizon), so three plies.
        let truth = crate::ai::egdb::solve(3, |_| {});
        all_exact(&capture_roots(&truth, 2, 3));
    }

    #[test]
    fn the_files_largest_endings_are_scored_exactly_with_one_ply_left() {
        use crate::ai::egdb::index::position_at;
        use crate::ai::egdb::{encode, solve};
        // Probing the largest count only from two plies (as some chess engines do with their
        // tables) was measured and gave no speed (docs/measurements/egdb.md, ninth session):
        // one ply left is enough for an exact score, the horizon alone is left out.
        let db = Arc::new(Egdb::parse(encode(&solve(3, |_| {}))).unwrap());
        // A root outside the file, so that no conversion's rule applies.
        let root = Checkers::from_position_text("B:W21,22,23:B9,10").unwrap();
        let mut search = CheckersSearch::new(&root, true).with_egdb(Some(db.clone()));
        assert_eq!(search.converting, None);
        let mut scored = [0u32; 3];
        for counts in Counts::with_total(3) {
            for index in (0..counts.entries()).step_by(11) {
                let Some(position) = position_at(counts, index) else {
                    continue;
                };
                for position in [position, position.with_side_to_move(Side::Second)] {
                    if has_capture(&position) {
                        continue;
                    }
                    search.position = position;
                    let verdict = db.verdict(&position).unwrap();
                    assert_eq!(search.probe(0), None, "{position:?}: the horizon");
                    assert_eq!(
                        search.probe(1),
                        Some(search.known_score(verdict)),
                        "{position:?}"
                    );
                    scored[verdict.code() as usize - 1] += 1;
                }
            }
        }
        assert!(
            scored.iter().all(|&n| n > 50),
            "wins, losses, draws: {scored:?}"
        );
        // A smaller ending is probed at the horizon too.
        search.position = *Checkers::from_position_text("W:WK1:BK32")
            .unwrap()
            .position();
        assert_eq!(search.probe(0), Some(0), "a king against a king: drawn");
    }

    #[test]
    fn the_files_largest_endings_are_not_probed_at_the_horizon_and_smaller_ones_are() {
        let truth = crate::ai::egdb::solve(3, |_| {});
        // One ply: the two-piece positions the captures lead to are at the horizon. With the
        // two-piece file they are its largest and left to the evaluation, so some roots get an
        // evaluation's score ...
        let evaluated = capture_roots(&truth, 2, 1)
            .iter()
            .filter(|(_, score)| verdict_of(*score).is_none())
            .count();
        assert!(evaluated > 5, "{evaluated}");
        // ... and with the three-piece file they are smaller endings, probed: every root exact.
        all_exact(&capture_roots(&truth, 3, 1));
    }
}
