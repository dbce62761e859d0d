//! Checkers for the search: make/unmake by copying the 16-byte position, the draw rules seen
//! coming (a position repeated since the last irreversible move scores as a draw, as does the
//! forty-move rule), captures first in the move order, and a capture extension so that no search
//! stops in the middle of an exchange.
//!
//! The classic levels count material only (a man 100, a king 175, a side without a move has lost);
//! `expert` uses [`super::checkers_eval`], and an endgame database when it is given one: a
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
    Checkers, FORTY_MOVE_PLIES, Move, Position, for_each_move, has_capture,
};
use rand::rngs::StdRng;
use std::sync::Arc;

/// Transposition table size for checkers: 2^18 entries of about 48 bytes.
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
    /// The expert evaluation's weights (the shipped ones unless an engine tool says otherwise).
    weights: &'static Weights,
}

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
            keys,
            reversible_from: 0,
            egdb: None,
            converting: None,
            instructions: Instructions::detected(),
            weights: Weights::shipped(),
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
        let key = checkers_key_after(self.key(), &undo.0, &self.position);
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
            return Some(0);
        }
        // A position seen before with the same side to move (two, four, ... plies back) can be
        // repeated again by the side that steered into it: count it a draw at once.
        let key = self.keys[now];
        let repeated = (self.reversible_from..now)
            .rev()
            .skip(1)
            .step_by(2)
            .any(|index| self.keys[index] == key);
        repeated.then_some(0)
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

    fn order_hint(&self, mv: &Move) -> i32 {
        // Captures are compulsory, so they are all or nothing in a list; the bigger first.
        (mv.capture_count() * 100) as i32
    }

    fn history_index(&self, mv: &Move) -> usize {
        usize::from(mv.from().index()) * 32 + usize::from(mv.to().index())
    }
}

/// The nodes a move `strong` searches in checkers.
const STRONG_NODES: u64 = 5_000;

/// The move for a level.
pub fn choose(game: &Checkers, request: &Request<'_>, rng: &mut StdRng) -> Option<Found<Move>> {
    if request.level == Level::Expert
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
    let mut search =
        CheckersSearch::new(game, request.deepens()).with_weights(request.options.checkers_weights);
    if request.level == Level::Expert {
        search = search.with_egdb(request.limits.egdb.clone());
    }
    if request.deepens() {
        expert(&mut search, TABLE_BITS, STRONG_NODES, request, rng)
    } else {
        classic(&mut search, request.classic_depth(), request, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::ai::search::MATE_BOUND;
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

    #[test]
    fn the_expert_finds_forced_wins() {
        // Each with Black to move and no more material than White.
        check_forced_win("B:W14,30:B1,22", 5, "1-6");
        check_forced_win("B:W14,32:B6,26", 7, "26-31");
        check_forced_win("B:W20,32:B10,11", 7, "10-15");
        check_forced_win("B:WK3,10:B1,K9", 7, "9-6");
        check_forced_win("B:WK26,31:B25,27", 7, "25-30");
        check_forced_win("B:WK4,23:B2,3", 7, "2-7");
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
            expert(&mut search, TABLE_BITS, STRONG_NODES, &request, &mut rng).unwrap()
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

    #[test]
    fn repetitions_in_the_game_history_count_as_draws_in_the_search() {
        // Shuffle kings so the start position stands twice; a search sees the repeat coming.
        let mut game = Checkers::from_position_text("B:WK32:BK1").unwrap();
        for text in ["1-5", "32-28", "5-1", "28-32"] {
            let mv = game.parse_move(text).unwrap();
            game.play(&mv).unwrap();
        }
        let mut search = CheckersSearch::new(&game, true);
        assert_eq!(
            search.terminal(),
            Some(0),
            "the start is on the board again"
        );
        let mv = game.parse_move("1-6").unwrap();
        let undo = search.make(mv);
        assert_eq!(search.terminal(), None);
        search.unmake(mv, undo);
        assert_eq!(search.key(), checkers_key(game.position()));
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
