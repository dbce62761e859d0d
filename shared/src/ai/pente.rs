//! Pente for the search. Placing and lifting stones uses the game's own make/unmake; the moves
//! searched are candidates, not all 300-odd empty points: the points within two of a stone,
//! scored by [`point_score`] (wins, blocks, captures, the windows a stone extends or blocks) and
//! cut to the best few, so the look-ahead goes deep where the game is. The evaluation is
//! [`super::pente_eval`]'s: the expert's with the weights fitted to game results, the other
//! levels' with the hand-set ones.
//!
//! `beginner` is the priority board ([`super::pente_beginner`]); `novice` to `advanced` search
//! one to five plies over the candidates ([`super::strength`]); `strong`, `master` and `expert`
//! first look for a win by threats ([`super::pente_tss`]), then deepen iteratively with the
//! transposition table, asking the threat search again at quiet leaves where a three stands. The
//! expert's time budget is bent to the position's sharpness first ([`super::pente_sharpness`]).

use super::Limits;
use super::classic::{Request, classic, expert};
use super::clock::Deadline;
use super::level::Level;
use super::pente_beginner;
use super::pente_eval::{Weights, evaluate_with_shape};
use super::pente_patterns::{
    BLOCK_WIN, EVAL_LIMIT, WIN_NOW, faces_a_fifth_pair, faces_a_four, for_each_point, near_stones,
    point_score,
};
use super::pente_sharpness::sharpness;
use super::pente_threats::{win_in_one, winning_points};
use super::pente_tss::{ThreatLimits, ThreatSearch};
use super::search::{DEFAULT_TIME, Found, MATE, MATE_BOUND, SearchGame};
use crate::game::{Game, Outcome};
use crate::games::pente::{Pente, Point, Undo};
use rand::rngs::StdRng;
use std::time::Duration;

/// Candidates searched per node by the classic levels and by `strong` and `master` (whose node
/// budgets the ladder placed at this breadth).
const CLASSIC_BREADTH: usize = 8;

/// Candidates searched per node by the expert: wider than the levels below it, which measured
/// better against the yardstick at 0.1 s a move than 8 (docs/measurements/strength.md, "Pente:
/// a wider expert").
const EXPERT_BREADTH: usize = 12;

/// Moves the expert searches at a node one ply above its horizon, once one of them has been
/// found not to lose (late-move pruning), when its budget is short ([`PRUNE_BELOW`]): the
/// children there are leaves, and the time saved goes deeper instead.
const EXPERT_FRONTIER_BREADTH: usize = 8;

/// The expert prunes at its horizon only when a move's budget is shorter than this: against the
/// yardstick the pruning scored 66.5% where the full search scored 54.5% at 0.1 s a move, but
/// 62.5% where it scored 66.5% at 1 s (docs/measurements/strength.md, "Pente: fewer moves at the
/// horizon"). Where between the two it stops paying was not measured.
const PRUNE_BELOW: Duration = Duration::from_millis(500);

/// The expert's [`EXPERT_FRONTIER_BREADTH`] for a search under `limits` (before the sharpness
/// rule bends the budget), if it prunes at all.
fn frontier_breadth(limits: &Limits) -> Option<usize> {
    limits
        .time
        .filter(|&time| time < PRUNE_BELOW)
        .map(|_| EXPERT_FRONTIER_BREADTH)
}

/// Transposition table size for Pente: 2^17 entries.
const TABLE_BITS: u32 = 17;

/// The threat search at the deepening levels' quiet leaves: fours only (exact), a few deep, a
/// small budget, and only where the side to move has a three or is near the fifth pair.
const LEAF_THREATS: ThreatLimits = ThreatLimits {
    threats: 3,
    threes: 0,
    nodes: 16,
};

/// The threat search before `strong` and `master` search (the deepening levels below the
/// expert): fours only.
const ROOT_FOURS: ThreatLimits = ThreatLimits {
    threats: 8,
    threes: 0,
    nodes: 4_000,
};

/// The threat search before `expert` searches: fours and up to two threes.
const ROOT_THREATS: ThreatLimits = ThreatLimits {
    threats: 6,
    threes: 2,
    nodes: 20_000,
};

/// Captured stones from which a leaf looks for threats even without a three: a stone flanking a
/// pair may threaten the fifth.
const LEAF_CAPTURE_RACE: u16 = 6;

/// A Pente game under search.
pub struct PenteSearch {
    game: Pente,
    breadth: usize,
    /// Moves searched at most one ply above the horizon ([`SearchGame::searched_moves`]), if
    /// fewer than the candidates.
    frontier_breadth: Option<usize>,
    /// Scored candidates, reused by every node (generation finishes before the next node starts).
    scored: Vec<(i32, Point)>,
    /// The opponent's winning points, reused by [`SearchGame::widen`].
    threats: Vec<Point>,
    /// Whether quiet leaves look for a win by fours ([`LEAF_THREATS`]).
    leaf_threats: bool,
    /// Whether the evaluation counts capture threats (off only for comparisons).
    capture_threats: bool,
    /// The evaluation's weights.
    weights: &'static Weights,
}

impl PenteSearch {
    /// A search over `breadth` candidates per node.
    #[must_use]
    pub fn new(game: &Pente, breadth: usize) -> PenteSearch {
        PenteSearch {
            game: game.clone(),
            breadth,
            frontier_breadth: None,
            scored: Vec::with_capacity(128),
            threats: Vec::new(),
            leaf_threats: false,
            capture_threats: true,
            weights: Weights::hand(),
        }
    }

    /// The same, with the threat search at quiet leaves.
    #[must_use]
    pub fn with_leaf_threats(mut self) -> PenteSearch {
        self.leaf_threats = true;
        self
    }
}

impl SearchGame for PenteSearch {
    type Move = Point;
    type Undo = Undo;

    /// The best `breadth` points near the stones by [`point_score`], best first, and every capture
    /// beyond them; when one of them wins at once, only that one (nothing else needs searching);
    /// when the opponent threatens to win, every block and every capture, however they rank.
    /// When no point near the stones is legal (the opening rules), every legal point is a
    /// candidate.
    fn generate(&mut self, out: &mut Vec<Point>) {
        out.clear();
        if self.game.outcome().is_some() {
            return;
        }
        let mut scored = std::mem::take(&mut self.scored);
        scored.clear();
        for_each_point(&near_stones(self.game.board(), 2), |point| {
            if self.game.is_legal(point) {
                scored.push((point_score(&self.game, point), point));
            }
        });
        if scored.is_empty() {
            self.game.generate_moves(out);
            for &point in out.iter() {
                scored.push((point_score(&self.game, point), point));
            }
            out.clear();
        }
        // Every point once, so the keys are distinct and an unstable sort gives the one order.
        scored.sort_unstable_by_key(|&(score, point)| (std::cmp::Reverse(score), point));
        let board = self.game.board();
        let us = self.game.side_to_move();
        let captures = |point: Point| !board.capture_rays(us, point).is_empty();
        match scored.first() {
            Some(&(score, point)) if score >= WIN_NOW => out.push(point),
            // Facing a win: a block on every winning point of the opponent's and every capture
            // (it may take a stone out of the line or the threatened pair) is searched, and
            // nothing else, for any other move loses at once.
            Some(&(score, _)) if score >= BLOCK_WIN => out.extend(
                scored
                    .iter()
                    .filter(|&&(score, point)| score >= BLOCK_WIN || captures(point))
                    .map(|&(_, point)| point),
            ),
            // Otherwise the best few, and every capture beyond them: a win claimed over a
            // capture that breaks the line was never searched is no win.
            _ => {
                out.extend(scored.iter().take(self.breadth).map(|&(_, point)| point));
                out.extend(
                    scored
                        .iter()
                        .skip(self.breadth)
                        .filter(|&&(_, point)| captures(point))
                        .map(|&(_, point)| point),
                );
            }
        }
        self.scored = scored;
    }

    /// Every legal point near the stones not generated yet: a stone farther away changes no
    /// window, no capture and no threat, so it saves nothing a nearer one could not.
    /// Facing a win, the list was already exact (every block and capture): nothing is added.
    fn widen(&mut self, moves: &mut Vec<Point>) {
        let mut threats = std::mem::take(&mut self.threats);
        winning_points(
            &self.game,
            self.game.side_to_move().opponent(),
            &mut threats,
        );
        let exact = !threats.is_empty();
        self.threats = threats;
        if exact || self.game.outcome().is_some() {
            return;
        }
        for_each_point(&near_stones(self.game.board(), 2), |point| {
            if self.game.is_legal(point) && !moves.contains(&point) {
                moves.push(point);
            }
        });
    }

    /// A three's window: the warm levels stray among moves a three apart.
    fn temperature_unit(&self) -> i32 {
        60
    }

    fn make(&mut self, mv: Point) -> Undo {
        self.game.play_unchecked(mv)
    }

    fn unmake(&mut self, _mv: Point, undo: Undo) {
        self.game.undo(undo);
    }

    fn terminal(&self) -> Option<i32> {
        match self.game.outcome()? {
            // Wins are decided by the move just made: the side to move has lost.
            Outcome::Win { .. } => Some(-MATE),
            Outcome::Draw { .. } => Some(0),
        }
    }

    /// The pattern evaluation; at the deepening levels, a quiet leaf where the side to move has
    /// a three (or is near the fifth pair) first asks the threat search for a win by fours,
    /// scored just below the wins the search proves itself.
    fn evaluate(&self) -> i32 {
        let (score, shape) = evaluate_with_shape(&self.game, self.capture_threats, self.weights);
        let us = self.game.side_to_move();
        if self.leaf_threats
            && score.abs() <= EVAL_LIMIT
            && (shape.my_threes > 0 || self.game.captured_by(us) >= LEAF_CAPTURE_RACE)
            && let Some(win) = ThreatSearch::new(LEAF_THREATS, None).find(&self.game)
        {
            return MATE_BOUND - 20 - win.plies as i32;
        }
        score
    }

    fn key(&self) -> u64 {
        self.game.hash()
    }

    /// Facing a four, or a fifth pair the opponent can take: one ply more, so the search
    /// never stops just before a win it could see.
    fn extend(&self) -> bool {
        faces_a_four(&self.game) || faces_a_fifth_pair(&self.game)
    }

    /// The expert's [`EXPERT_FRONTIER_BREADTH`] one ply above the horizon on a short budget;
    /// every candidate elsewhere, and at every node of the levels below it.
    fn searched_moves(&self, depth: i32) -> Option<usize> {
        self.frontier_breadth.filter(|_| depth <= 1)
    }

    fn order_hint(&self, mv: &Point) -> i32 {
        // Captures first; the rest keep the candidate order, which already ranks threats.
        let pairs = self
            .game
            .board()
            .capture_rays(self.game.side_to_move(), *mv)
            .pairs();
        (pairs * 1000) as i32
    }

    /// One slot for every point: history only breaks ties among equally hinted moves, and the
    /// candidate order is better than history at that.
    fn history_index(&self, _mv: &Point) -> usize {
        0
    }
}

/// The move for a level.
pub fn choose(game: &Pente, request: &Request<'_>, rng: &mut StdRng) -> Option<Found<Point>> {
    if request.level == Level::Beginner {
        let (best, score) = pente_beginner::choose(game, rng)?;
        return Some(Found {
            best,
            score: i32::try_from(score >> 24).unwrap_or(i32::MAX),
            depth: 1,
            nodes: game.legal_moves().len() as u64,
            pv: vec![best],
            ties: vec![best],
        });
    }
    if !request.deepens() {
        let mut search = PenteSearch::new(game, CLASSIC_BREADTH);
        return classic(&mut search, request.classic_depth(), request, rng);
    }
    let frontier = frontier_breadth(request.limits);
    // The expert's time: more where the position is sharp, less where it is quiet and a clock
    // keeps what the move leaves.
    let budgeted;
    let request = if request.level == Level::Expert && !request.options.fixed_depth {
        budgeted = request.limits.for_sharpness(sharpness(game), DEFAULT_TIME);
        &Request {
            limits: &budgeted,
            ..*request
        }
    } else {
        request
    };
    if !request.options.minimax
        && !request.options.fixed_depth
        && !request.limits.stop.is_stopped()
        && let Some(found) = threat_win(game, request)
    {
        return Some(found);
    }
    let breadth = if request.level == Level::Expert {
        EXPERT_BREADTH
    } else {
        CLASSIC_BREADTH
    };
    let mut search = PenteSearch::new(game, breadth);
    if request.level == Level::Expert {
        search.weights = request.options.pente_weights.unwrap_or(Weights::shipped());
        search.frontier_breadth = frontier;
    }
    if request.options.without_threats {
        search.capture_threats = false;
    } else {
        search = search.with_leaf_threats();
    }
    expert(&mut search, TABLE_BITS, request, rng)
}

/// A forced win before the search: a win at once, or a win by threats (fours for `master`, fours
/// and threes for `expert`) within its budget and a quarter of the time limit.
fn threat_win(game: &Pente, request: &Request<'_>) -> Option<Found<Point>> {
    let (best, plies, nodes) = match win_in_one(game) {
        Some(best) => (best, 1, 0),
        None => {
            let limits = if request.options.without_threats {
                // A win in two (an open four, a double four), as before issue 18.
                ThreatLimits {
                    threats: 1,
                    ..ROOT_FOURS
                }
            } else if request.level == Level::Expert {
                ROOT_THREATS
            } else {
                ROOT_FOURS
            };
            let deadline = request
                .limits
                .time
                .map(|time| Deadline::new(request.started + time / 4, request.limits.clock));
            let mut threats = ThreatSearch::new(limits, deadline);
            let win = threats.find(game)?;
            (win.first, win.plies, threats.nodes())
        }
    };
    Some(Found {
        best,
        score: MATE - plies as i32,
        depth: plies,
        nodes,
        pv: vec![best],
        ties: vec![best],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::budget::{Sharpness, TimeUse};
    use crate::ai::pente_oracle as oracle;
    use crate::ai::{Limits, think};
    use crate::{AnyGame, Side};
    use std::time::Duration;

    #[test]
    fn the_expert_prunes_at_its_horizon_only_on_a_short_budget() {
        let with_time = |millis| Limits {
            time: Some(Duration::from_millis(millis)),
            ..Limits::default()
        };
        assert_eq!(
            frontier_breadth(&with_time(100)),
            Some(EXPERT_FRONTIER_BREADTH)
        );
        assert_eq!(
            frontier_breadth(&with_time(499)),
            Some(EXPERT_FRONTIER_BREADTH)
        );
        assert_eq!(frontier_breadth(&with_time(500)), None);
        assert_eq!(frontier_breadth(&with_time(1_000)), None);
        // A search limited by depth or nodes only, as the engine tools run it: no pruning.
        let by_depth = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        assert_eq!(frontier_breadth(&by_depth), None);
        // The searcher is told: one ply above the horizon, and nowhere else.
        let game = Pente::from_position_text("1:K10,L11,J9:K11,L10,M12:0,0").unwrap();
        let mut search = PenteSearch::new(&game, EXPERT_BREADTH);
        assert_eq!(search.searched_moves(1), None);
        search.frontier_breadth = frontier_breadth(&with_time(100));
        assert_eq!(search.searched_moves(1), Some(EXPERT_FRONTIER_BREADTH));
        assert_eq!(search.searched_moves(0), Some(EXPERT_FRONTIER_BREADTH));
        assert_eq!(search.searched_moves(2), None);
    }

    fn expert_move(text: &str, limits: &Limits) -> String {
        let game = AnyGame::Pente(Pente::from_position_text(text).unwrap());
        think(&game, Level::Expert, limits, 0).unwrap().text
    }

    fn quick() -> Limits {
        Limits {
            depth: Some(4),
            time: Some(Duration::from_secs(30)),
            ..Limits::default()
        }
    }

    #[test]
    fn the_expert_wins_in_one() {
        let played = expert_move("1:K10,L10,M10,N10,A3:K11,L11,M11,S19:0,0", &quick());
        assert!(played == "J10" || played == "O10", "{played}");
        // The fifth pair wins too, even with a four of the opponent's on the board.
        let played = expert_move("1:K10,F5,A3,B3:G6,H7,C12,D12,E12,F12:8,0", &quick());
        assert_eq!(played, "J8");
    }

    #[test]
    fn the_expert_blocks_a_four() {
        // The second player's four C3-F3 is closed at B3 (first player's stone): G3 must be
        // taken, and there is no capture to break the four instead.
        let played = expert_move("1:K10,B3,K12:C3,D3,E3,F3:0,0", &quick());
        assert_eq!(played, "G3");
    }

    #[test]
    fn the_expert_finds_a_win_in_two() {
        // An open three on row 10 becomes an open four, which cannot be stopped.
        let played = expert_move("1:K10,L10,M10,A3:A1,S19,S1:0,0", &quick());
        assert!(played == "J10" || played == "N10", "{played}");
    }

    #[test]
    fn the_expert_and_the_beginner_answer_a_capture_threat() {
        // The second player threatens the pair K10-L10 from M10 (J10 is theirs). Nothing else is
        // going on: the pair must be saved (M10 blocks; nothing else stops the capture).
        let text = "1:K10,L10,A3:J10,A1,S1:0,0";
        let game = Pente::from_position_text(text).unwrap();
        for level in [Level::Beginner, Level::Expert] {
            let report = think(&AnyGame::Pente(game.clone()), level, &quick(), 0).unwrap();
            let mut after = game.clone();
            after.play(&after_point(&report.text)).unwrap();
            let threats = Point::all()
                .filter(|&p| after.is_legal(p))
                .filter(|&p| !after.board().capture_rays(Side::Second, p).is_empty())
                .count();
            assert_eq!(threats, 0, "{level} played {}", report.text);
        }
    }

    fn after_point(text: &str) -> Point {
        crate::games::pente::parse_point(text).unwrap()
    }

    #[test]
    fn candidates_are_legal_and_a_win_is_searched_alone() {
        let game = Pente::from_position_text("1:K10,L10,M10,N10,A3:K11,L11,M11,S19:0,0").unwrap();
        let mut search = PenteSearch::new(&game, 8);
        let mut moves = Vec::new();
        search.generate(&mut moves);
        assert_eq!(moves.len(), 1);
        // The first player's second stone under the tournament rule: nothing near the stones
        // is legal, so the candidates come from the whole board.
        let opening = Pente::from_position_text("1:K10:L11:0,0").unwrap();
        let mut search = PenteSearch::new(&opening, 8);
        search.generate(&mut moves);
        assert_eq!(moves.len(), 8);
        assert!(moves.iter().all(|&p| opening.is_legal(p)));
    }

    /// The example: the second player's K11 makes a four (K9 to K13, open at K10) and an
    /// open three, but the first player's L13 takes K12 and J11 and breaks both.
    const BROKEN_FOUR: &str = "2:H8,J8,K8,H9,H10,F11,K14:L8,K9,J11,L11,K12,K13:2,2";

    #[test]
    fn a_capture_that_breaks_a_four_is_searched() {
        let mut game = Pente::from_position_text(BROKEN_FOUR).unwrap();
        game.play(&after_point("K11")).unwrap();
        // From the rules alone: K10 is the threat, and both K10 and L13 save the first player.
        assert_eq!(oracle::threats(&game), vec![after_point("K10")]);
        let saving = oracle::saving_moves(&game);
        assert!(saving.contains(&after_point("L13")), "{saving:?}");
        assert!(!oracle::wins_within_three(
            &Pente::from_position_text(BROKEN_FOUR).unwrap(),
            after_point("K11")
        ));
        let mut search = PenteSearch::new(&game, EXPERT_BREADTH);
        let mut moves = Vec::new();
        search.generate(&mut moves);
        for point in &saving {
            assert!(moves.contains(point), "{point} missing from {moves:?}");
        }
    }

    #[test]
    fn the_expert_claims_no_win_that_a_capture_breaks() {
        let game = Pente::from_position_text(BROKEN_FOUR).unwrap();
        for limits in [
            quick(),
            Limits {
                depth: Some(7),
                ..quick()
            },
        ] {
            let report = think(&AnyGame::Pente(game.clone()), Level::Expert, &limits, 0).unwrap();
            let point = after_point(&report.text);
            if report.score >= MATE - 3 {
                assert!(oracle::wins_within_three(&game, point), "{report:?}");
            }
            assert!(
                !(report.text == "K11" && report.score > crate::ai::search::MATE_BOUND),
                "{report:?}"
            );
        }
    }

    #[test]
    fn the_expert_claims_no_win_through_threes_that_a_capture_refutes() {
        use crate::ai::pente_tss::tests::{THREES_A_CAPTURE_BREAKS, THREES_AND_A_FIFTH_PAIR};
        // M9 would take a stone out of each of K10's threes: K10 may be played, but not as a
        // proven win.
        let report = think(
            &AnyGame::Pente(Pente::from_position_text(THREES_A_CAPTURE_BREAKS).unwrap()),
            Level::Expert,
            &quick(),
            0,
        )
        .unwrap();
        assert!(
            !(report.text == "K10" && report.score > MATE_BOUND),
            "{report:?}"
        );
        // J9 would take the fifth pair after K10: the expert's move leaves no win at once.
        let game = Pente::from_position_text(THREES_AND_A_FIFTH_PAIR).unwrap();
        let report = think(&AnyGame::Pente(game.clone()), Level::Expert, &quick(), 0).unwrap();
        let mut played = game.clone();
        played.play(&after_point(&report.text)).unwrap();
        assert!(oracle::winning_moves(&played).is_empty(), "{report:?}");
        if report.score >= MATE - 3 {
            assert!(oracle::wins_within_three(&game, after_point(&report.text)));
        }
    }

    #[test]
    fn facing_a_win_every_saving_move_is_a_candidate() {
        // Positions from random play in a crowded square, kept when the side to move faces a
        // win; the moves that save it come from the rules, not from the engine.
        let mut rng = <StdRng as rand::SeedableRng>::seed_from_u64(18);
        let (mut checked, mut with_captures) = (0, 0);
        while checked < 40 {
            let plies = 12 + checked % 16;
            let Some(game) = oracle::crowded_position(plies, &mut rng) else {
                continue;
            };
            let threats = oracle::threats(&game);
            if threats.is_empty() || !oracle::winning_moves(&game).is_empty() {
                continue;
            }
            let saving = oracle::saving_moves(&game);
            let mut moves = Vec::new();
            PenteSearch::new(&game, EXPERT_BREADTH).generate(&mut moves);
            for point in &saving {
                assert!(
                    moves.contains(point),
                    "{}: {point} saves but is not searched ({moves:?})",
                    game.position_text()
                );
            }
            with_captures += usize::from(saving.iter().any(|p| !threats.contains(p)));
            checked += 1;
        }
        // Some of the saving moves were captures away from the threatened points.
        assert!(with_captures > 0);
    }

    #[test]
    fn wins_the_expert_claims_within_three_plies_hold_against_every_reply() {
        let mut rng = <StdRng as rand::SeedableRng>::seed_from_u64(7);
        let (mut claims, mut positions) = (0, 0);
        while positions < 30 {
            let Some(game) = oracle::crowded_position(10 + positions % 14, &mut rng) else {
                continue;
            };
            positions += 1;
            let limits = Limits {
                depth: Some(3),
                ..quick()
            };
            let report = think(&AnyGame::Pente(game.clone()), Level::Expert, &limits, 0).unwrap();
            let point = after_point(&report.text);
            let wins_now = oracle::winning_moves(&game);
            if !wins_now.is_empty() {
                assert!(wins_now.contains(&point), "{}", game.position_text());
            }
            if report.score >= MATE - 3 {
                claims += 1;
                assert!(
                    oracle::wins_within_three(&game, point),
                    "{}: {report:?}",
                    game.position_text()
                );
            }
        }
        assert!(claims > 0, "no position had a win to check");
    }

    /// A clock for the tests below: every reading is one millisecond after the last, so a
    /// search's time is a count of its looks at the clock (one every 64 nodes) and its
    /// decisions do not depend on the machine's speed or load. Per thread, so tests running side
    /// by side do not move each other's time.
    fn stepping_now() -> std::time::Instant {
        use std::cell::Cell;
        use std::sync::OnceLock;
        static BASE: OnceLock<std::time::Instant> = OnceLock::new();
        thread_local!(static READINGS: Cell<u32> = const { Cell::new(0) });
        let base = *BASE.get_or_init(std::time::Instant::now);
        let readings = READINGS.with(|r| {
            r.set(r.get() + 1);
            r.get()
        });
        base + Duration::from_millis(u64::from(readings))
    }

    fn on_the_stepping_clock(text: &str, time: Duration, time_use: TimeUse) -> crate::ai::Report {
        let limits = Limits {
            time: Some(time),
            clock: crate::ai::clock::Clock::new(stepping_now),
            time_use,
            ..Limits::default()
        };
        let game = AnyGame::Pente(Pente::from_position_text(text).unwrap());
        think(&game, Level::Expert, &limits, 0).unwrap()
    }

    /// A quiet middle game: no four, no three, no pair to take.
    const QUIET: &str = "1:K10,N13,L9:L11,M11,K12:0,0";

    /// The same with a pair to take for each side (the first takes L11-M11 from K11, the second
    /// K10-L9 from M8): sharp, but nothing forced.
    const TWO_PAIRS: &str = "1:K10,N13,L9,N11:L11,M11,K12,J11:0,0";

    #[test]
    fn the_expert_spends_its_time_on_a_quiet_position_and_none_on_a_forced_one() {
        // A quiet middle game (no four, no win by threats): with the flat rule the expert
        // deepens until the budget is spent, well past the first iterations, and never past it.
        let budget = Duration::from_millis(500);
        let quiet = on_the_stepping_clock(QUIET, budget, TimeUse::Flat);
        assert!(quiet.score.abs() < MATE_BOUND, "{quiet:?}");
        assert!(quiet.elapsed >= budget * 9 / 10, "{quiet:?}");
        assert!(
            quiet.elapsed <= budget + Duration::from_millis(5),
            "{quiet:?}"
        );
        assert!(quiet.depth >= 5, "{quiet:?}");
        // A win in one, and a four that only one point blocks: played at once.
        for forced in [
            "1:K10,L10,M10,N10,A3:K11,L11,M11,S19:0,0",
            "1:K10,B3,K12:C3,D3,E3,F3:0,0",
        ] {
            let report = on_the_stepping_clock(forced, budget, TimeUse::default());
            assert!(report.elapsed <= budget / 10, "{forced}: {report:?}");
        }
    }

    #[test]
    fn the_expert_spends_more_on_a_sharp_position_than_a_quiet_one_within_the_cap() {
        let budget = Duration::from_millis(400);
        let game = |text: &str| Pente::from_position_text(text).unwrap();
        assert_eq!(sharpness(&game(QUIET)), Sharpness::Quiet);
        assert_eq!(sharpness(&game(TWO_PAIRS)), Sharpness::Sharp);
        let spent = |text: &str, time_use: TimeUse| {
            let report = on_the_stepping_clock(text, budget, time_use);
            assert!(report.score.abs() < MATE_BOUND, "{text}: {report:?}");
            report.elapsed
        };
        let near = |elapsed: Duration, planned: Duration| {
            elapsed >= planned * 9 / 10 && elapsed <= planned + Duration::from_millis(5)
        };
        // By sharpness, with a clock that keeps unused time: a share of the budget when quiet,
        // more than the budget when sharp.
        let clock = TimeUse::BySharpness {
            cap: None,
            keeps_unused: true,
        };
        let quiet = spent(QUIET, clock);
        let sharp = spent(TWO_PAIRS, clock);
        assert!(
            near(quiet, clock.budget(budget, Sharpness::Quiet)),
            "{quiet:?}"
        );
        assert!(
            near(sharp, clock.budget(budget, Sharpness::Sharp)),
            "{sharp:?}"
        );
        assert!(quiet < budget && sharp > budget, "{quiet:?} {sharp:?}");
        // With a budget a move (no clock keeps what is left), the quiet position spends it all.
        assert!(near(spent(QUIET, TimeUse::default()), budget));
        // A cap at the budget holds the sharp position to it; the flat rule spends the budget.
        let capped = spent(
            TWO_PAIRS,
            TimeUse::BySharpness {
                cap: Some(budget),
                keeps_unused: false,
            },
        );
        assert!(near(capped, budget), "{capped:?}");
        assert!(near(spent(TWO_PAIRS, TimeUse::Flat), budget));
    }
}
