//! Checkers evaluations, from Black's point of view (the search turns them to the side to move).
//!
//! [`material`] is the classic levels' count: a man is worth 100, a king 175. The expert's
//! evaluation ([`expert_eval_in`]) is a sum of terms, each Black's count minus White's times a
//! weight ([`weights`]): material, trading down when ahead, advancement row by row and the tempo
//! of the ending, the back row (the bridge and the whole rank) that keeps the opponent from
//! crowning, control of the centre, mobility, men stuck in a dog hole, runaway men, trapped
//! kings, and endgame knowledge: the stronger side brings its kings close, takes the lone
//! kings' moves away and drives them out of the double corners. The weights are data, fitted to
//! game results by `kingme tune`; [`features`] gives the counts the fit needs, from the same
//! code as the evaluation ([`terms`] feeds either a weighted sum or a table of counts), so the
//! two cannot disagree.

mod masks;
pub mod texel;
pub mod weights;

use crate::cpu::{Instructions, Kernel, call};
use crate::game::Side;
use crate::games::checkers::{Direction, Position, count_moves};
use masks::{
    BLACK_BACK_ROW, BLACK_DOG_HOLE, BLACK_GUARD, CENTRE, DOUBLE_CORNERS, EDGES, WHITE_BACK_ROW,
    WHITE_DOG_HOLE, WHITE_GUARD, neighbours,
};
pub use weights::{TERMS, Term, Weights, WeightsError, WeightsFile};

/// The classic values.
const MAN: i32 = 100;
const KING: i32 = 175;

/// Who is ahead, for the terms that depend on it (trading down, the endgame), is decided by a
/// fixed count (a man 100, a king 140) rather than by the weights, so that every term's count
/// is the same whatever the weights: the evaluation is exactly linear in them.
const LEAD_KING: i32 = 140;

/// The advancement terms by rows gone forward (none for the back row, nor for the crowning row,
/// where a man is a king).
const ADVANCE: [Option<Term>; 8] = [
    None,
    Some(Term::Advance1),
    Some(Term::Advance2),
    Some(Term::Advance3),
    Some(Term::Advance4),
    Some(Term::Advance5),
    Some(Term::Advance6),
    None,
];

/// Material by the classic values, Black minus White.
#[must_use]
pub fn material(position: &Position) -> i32 {
    let kings = position.kings();
    let value = |pieces: u32| {
        MAN * (pieces & !kings).count_ones() as i32 + KING * (pieces & kings).count_ones() as i32
    };
    value(position.black()) - value(position.white())
}

/// The expert's evaluation with `weights`, Black minus White, in the build `instructions` names
/// (a search asks for [`Instructions::detected`] once and keeps the answer); every build scores
/// the same.
#[must_use]
pub fn expert_eval_in(
    instructions: Instructions,
    weights: &'static Weights,
    position: &Position,
) -> i32 {
    call::<ExpertEval>(instructions, &(*position, weights))
}

/// Each term's count in `position`, Black's minus White's: the expert's evaluation is the sum
/// of these times the weights.
#[must_use]
pub fn features(position: &Position) -> [i32; TERMS] {
    let mut counts = Counts([0; TERMS]);
    terms(position, &mut counts);
    counts.0
}

/// Where [`terms`] puts each term's count.
trait Sink {
    /// Adds `count` of `term`.
    fn add(&mut self, term: Term, count: i32);
}

/// The weighted sum: the evaluation.
struct Sum<'a> {
    weights: &'a Weights,
    total: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.total += self.weights.get(term) * count;
    }
}

/// The counts themselves: the fit's data.
struct Counts([i32; TERMS]);

impl Sink for Counts {
    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.0[term as usize] += count;
    }
}

/// The expert's evaluation as a kernel of [`crate::cpu`]: its population counts (a few dozen,
/// and four in each of the two move counts) are single instructions in the newer build.
struct ExpertEval;

impl Kernel for ExpertEval {
    type Input = (Position, &'static Weights);
    type Output = i32;

    #[inline(always)]
    fn run<R: Fn(&Self::Input) -> i32>(input: &Self::Input, _: &R) -> i32 {
        let mut sum = Sum {
            weights: input.1,
            total: 0,
        };
        terms(&input.0, &mut sum);
        sum.total
    }
}

/// Counts every term of `position` into `sink`, Black's minus White's.
#[inline(always)]
fn terms<S: Sink>(position: &Position, sink: &mut S) {
    let kings = position.kings();
    let (black, white) = (position.black(), position.white());
    let (black_men, white_men) = (black & !kings, white & !kings);
    let (black_kings, white_kings) = (black & kings, white & kings);
    let count = |mask: u32| mask.count_ones() as i32;
    let difference = |black: u32, white: u32| count(black) - count(white);

    sink.add(Term::Man, difference(black_men, white_men));
    sink.add(Term::King, difference(black_kings, white_kings));

    // Trading down when ahead: the same lead counts more with fewer pieces left.
    let lead =
        MAN * difference(black_men, white_men) + LEAD_KING * difference(black_kings, white_kings);
    let pieces = count(black | white);
    sink.add(Term::TradeDown, lead.signum() * (24 - pieces));

    // Advancement row by row, and with it the tempo that decides endings of men against men.
    // A Black man `advanced` rows from its back row stands on row `advanced`, a White one on
    // row `7 - advanced`: each term's count is taken for both at once, and so is the tempo
    // (the rows Black's men have gone forward, together, less White's).
    let on_row = |men: u32, row: usize| count(men >> (4 * row) & 0xF);
    let mut tempo = 0;
    for (advanced, term) in ADVANCE.iter().enumerate().skip(1) {
        let ahead = on_row(black_men, advanced) - on_row(white_men, 7 - advanced);
        if let Some(term) = term {
            sink.add(*term, ahead);
        }
        tempo += advanced as i32 * ahead;
    }
    sink.add(Term::TempoLate, tempo * (24 - pieces) / 8);

    // The back row matters while the other side still has men to crown.
    let black_guards = if white_men == 0 { 0 } else { black_men };
    let white_guards = if black_men == 0 { 0 } else { white_men };
    sink.add(
        Term::BackGuard,
        difference(black_guards & BLACK_GUARD, white_guards & WHITE_GUARD),
    );
    sink.add(
        Term::BackRank,
        difference(black_guards & BLACK_BACK_ROW, white_guards & WHITE_BACK_ROW),
    );

    // Centre control: men there hold the board together.
    sink.add(
        Term::CentreMen,
        difference(black_men & CENTRE, white_men & CENTRE),
    );

    // Mobility: moves each side would have if it were its turn.
    let black_moves = count_moves(&position.with_side_to_move(Side::First)) as i32;
    let white_moves = count_moves(&position.with_side_to_move(Side::Second)) as i32;
    sink.add(Term::Mobility, black_moves - white_moves);

    // A man in a dog hole cannot move while the enemy man behind it stays.
    let in_hole = |men: u32, enemy_men: u32, (hole, jailer): (u32, u32)| {
        i32::from(men & hole != 0 && enemy_men & jailer != 0)
    };
    sink.add(
        Term::DogHoles,
        in_hole(black_men, white_men, BLACK_DOG_HOLE)
            - in_hole(white_men, black_men, WHITE_DOG_HOLE),
    );

    // Runaway men: nothing of the enemy's in the cone ahead.
    sink.add(
        Term::Runaways,
        runaways(black_men, white, [Direction::UpLeft, Direction::UpRight])
            - runaways(
                white_men,
                black,
                [Direction::DownLeft, Direction::DownRight],
            ),
    );

    // The kings' terms, none while there are no kings (most of a game): kings in the centre
    // reach everything, on the edge they control only two diagonals, and a trapped king has
    // every square next to it taken.
    if kings != 0 {
        sink.add(
            Term::CentreKings,
            difference(black_kings & CENTRE, white_kings & CENTRE),
        );
        sink.add(
            Term::EdgeKings,
            difference(black_kings & EDGES, white_kings & EDGES),
        );
        let free = neighbours(!(black | white));
        sink.add(
            Term::TrappedKings,
            difference(black_kings & !free, white_kings & !free),
        );
    }

    endgame(position, lead, black_moves, white_moves, sink);
}

/// How many of `men` have no enemy piece in the cone ahead of them (the squares a man could
/// ever reach going forward, widening a square each way a row). An enemy is in a man's cone
/// exactly when the man is in the enemy's cone the other way (`back`, the men's backward
/// directions), so the squares watched by some enemy are found for all enemies at once, a row
/// a step, instead of man by man.
#[inline(always)]
fn runaways(men: u32, enemies: u32, back: [Direction; 2]) -> i32 {
    let mut frontier = enemies;
    let mut watched = 0;
    while frontier != 0 {
        frontier = back[0].step(frontier) | back[1].step(frontier);
        watched |= frontier;
    }
    (men & !watched).count_ones() as i32
}

/// Knowledge of won endings: when one side is ahead and the other has only kings left, the
/// stronger side gains for every step its kings come closer to the enemy pieces, for every move
/// the weaker side loses, and for every weak king pushed out of a double corner.
#[inline(always)]
fn endgame<S: Sink>(
    position: &Position,
    lead: i32,
    black_moves: i32,
    white_moves: i32,
    sink: &mut S,
) {
    let kings = position.kings();
    let (strong, weak, weak_moves, sign) = if lead > 0 {
        (position.black(), position.white(), white_moves, 1)
    } else if lead < 0 {
        (position.white(), position.black(), black_moves, -1)
    } else {
        return;
    };
    if weak & !kings != 0 || (strong | weak).count_ones() > 8 {
        return;
    }
    let mut distance_sum = 0;
    let mut hunters = strong & kings;
    while hunters != 0 {
        let hunter = hunters.trailing_zeros();
        hunters &= hunters - 1;
        let mut nearest = 7;
        let mut prey = weak;
        while prey != 0 {
            nearest = nearest.min(distance(hunter, prey.trailing_zeros()));
            prey &= prey - 1;
        }
        distance_sum += nearest;
    }
    sink.add(Term::HunterDistance, sign * distance_sum);
    sink.add(Term::WeakKingMoves, sign * weak_moves);
    sink.add(
        Term::WeakKingsOut,
        sign * (weak & !DOUBLE_CORNERS).count_ones() as i32,
    );
}

/// The number of king steps between two squares (by bit index), ignoring pieces in the way.
fn distance(a: u32, b: u32) -> i32 {
    let (row_a, col_a) = coordinates(a);
    let (row_b, col_b) = coordinates(b);
    row_a.abs_diff(row_b).max(col_a.abs_diff(col_b)) as i32
}

/// Row (0 at Black's back row) and column (0 at the left) of a square's bit index.
fn coordinates(index: u32) -> (u32, u32) {
    let row = index / 4;
    let column = 2 * (index % 4) + u32::from(row.is_multiple_of(2));
    (row, column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::parse_fen;

    fn eval_with(weights: &'static Weights, fen: &str) -> i32 {
        expert_eval_in(
            Instructions::detected(),
            weights,
            &parse_fen(fen).expect(fen),
        )
    }

    #[test]
    fn material_counts_men_and_kings() {
        let position = parse_fen("B:W21,22,K30:B1,K5").expect("a FEN");
        assert_eq!(material(&position), (100 + 175) - (200 + 175));
        assert_eq!(material(&Position::start()), 0);
    }

    #[test]
    fn the_start_is_balanced_and_colours_are_symmetric() {
        for weights in [Weights::shipped(), Weights::hand()] {
            assert_eq!(eval_with(weights, "B:W21-32:B1-12"), 0);
            // The board turned round with colours swapped (square n becomes 33 - n) scores the
            // opposite.
            assert_eq!(
                eval_with(weights, "B:W22,K30:B3,11"),
                -eval_with(weights, "W:W22,30:B11,K3")
            );
            assert_eq!(
                eval_with(weights, "B:W18,K25:B7"),
                -eval_with(weights, "W:W26:B15,K8")
            );
            assert_eq!(
                eval_with(weights, "B:W5,19,K30:B1,24,28"),
                -eval_with(weights, "W:W5,9,32:B14,28,K3")
            );
        }
    }

    #[test]
    fn the_evaluation_is_the_weighted_sum_of_the_features() {
        let positions = [
            "B:W21-32:B1-12",
            "B:W22,K30:B3,11",
            "W:W5,19,K30:B1,24,28",
            "W:WK1:BK14,K15",
            "B:W18,19,20,27,28,K32:B1,2,3,5,6,K14",
        ];
        for fen in positions {
            let counts = features(&parse_fen(fen).expect(fen));
            for weights in [Weights::shipped(), Weights::hand()] {
                let sum: i32 = counts
                    .iter()
                    .zip(weights.values())
                    .map(|(count, weight)| count * weight)
                    .sum();
                assert_eq!(eval_with(weights, fen), sum, "{fen}");
            }
        }
    }

    #[test]
    fn the_hand_weights_score_as_the_evaluation_did_before_the_tuning() {
        // Scores of the hand-set evaluation before its weights became data (commit 18b6591).
        let before = [
            ("B:W5,K14,16,24,32:B28", -558),
            (
                "W:WK2,18,21,22,23,26,27,28,30,31,32:B1,3,4,5,6,8,10,12,17",
                -251,
            ),
            ("W:WK8,10,12,21,29,31:B3,7", -525),
            ("B:W12,13,23,25,26,29,30,32:B1,3,4,5,6,8,14,15,21,28", 246),
            ("W:W:B1,3,4,10,13,21,28,K30", 910),
        ];
        for (fen, score) in before {
            assert_eq!(eval_with(Weights::hand(), fen), score, "{fen}");
        }
    }

    #[test]
    fn the_new_terms_count_what_they_say() {
        let count = |fen: &str, term: Term| features(&parse_fen(fen).expect(fen))[term as usize];
        // A White man on 5 held by Black's man on 1; not once Black's man has left.
        // (White's trouble: the count is Black's minus White's.)
        assert_eq!(count("B:W5,30:B1,14", Term::DogHoles), -1);
        assert_eq!(count("B:W5,30:B2,14", Term::DogHoles), 0);
        assert_eq!(count("B:W32,5:B28,1", Term::DogHoles), 1 - 1);
        // Black's man on 22 and White's on 27 have nothing of the enemy ahead; White's man on 26
        // stops Black's, and Black's stops it in turn.
        assert_eq!(count("B:W27:B22", Term::Runaways), 1 - 1);
        assert_eq!(count("B:W26,27:B22", Term::Runaways), 0 - 1);
        // A Black king on 1 boxed in by White's men on 5 and 6 is trapped.
        assert_eq!(count("B:W5,6,20:BK1,12", Term::TrappedKings), 1);
        assert_eq!(count("B:W5,20:BK1,12", Term::TrappedKings), 0);
        // Men on the back row count while the other side has men.
        assert_eq!(count("B:W30,31:B1,2,3", Term::BackRank), 3 - 2);
        assert_eq!(count("B:WK30:B1,2,3", Term::BackRank), 0);
    }

    #[test]
    fn positional_terms_point_the_right_way() {
        for weights in [Weights::shipped(), Weights::hand()] {
            let eval = |fen| eval_with(weights, fen);
            // An advanced man is worth more than one at home.
            assert!(eval("B:W32:B18") > eval("B:W32:B6"));
            // Keeping the bridge (1 and 3) beats leaving it while White has men.
            assert!(eval("B:W29,30:B1,3") > eval("B:W29,30:B5,6"));
            // A lone king in the double corner is harder to catch than one in the open.
            assert!(eval("W:WK1:BK14,K15") < eval("W:WK10:BK14,K15"));
            // The hunters gain by coming closer.
            assert!(eval("W:WK1:BK6,K9") > eval("W:WK1:BK27,K32"));
        }
    }

    /// The advancement, tempo and runaway counts as they were first written, man by man with
    /// the cone tables: the reference for the counts by rows and by spreading from the enemies.
    fn man_by_man(position: &Position) -> (i32, i32, [i32; 6]) {
        use masks::{BLACK_CONES, WHITE_CONES};
        let kings = position.kings();
        let sides = [
            (position.black() & !kings, position.white(), &BLACK_CONES, 1),
            (
                position.white() & !kings,
                position.black(),
                &WHITE_CONES,
                -1,
            ),
        ];
        let (mut tempo, mut runaways, mut rows) = ([0; 2], 0, [0; 6]);
        for (side, (men, enemies, cones, sign)) in sides.into_iter().enumerate() {
            for (square, cone) in cones.iter().enumerate() {
                if men & (1 << square) == 0 {
                    continue;
                }
                let row = square / 4;
                let advanced = if sign == 1 { row } else { 7 - row };
                if (1..=6).contains(&advanced) {
                    rows[advanced - 1] += sign;
                }
                tempo[side] += advanced as i32;
                runaways += sign * i32::from(cone & enemies == 0);
            }
        }
        let pieces = (position.black() | position.white()).count_ones() as i32;
        ((tempo[0] - tempo[1]) * (24 - pieces) / 8, runaways, rows)
    }

    #[test]
    fn counts_by_rows_and_by_spreading_are_the_counts_man_by_man() {
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(34);
        let advance = [
            Term::Advance1,
            Term::Advance2,
            Term::Advance3,
            Term::Advance4,
            Term::Advance5,
            Term::Advance6,
        ];
        for _ in 0..5_000 {
            // Random boards, sparse to full, up to 12 pieces a side, men on every row but
            // their crowning row.
            let density = rng.random_range(0.05..0.9);
            let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
            for square in 0..32 {
                let bit = 1 << square;
                let (side, crowning) = if rng.random_bool(0.5) {
                    (&mut black, 0xF000_0000)
                } else {
                    (&mut white, 0x0000_000F)
                };
                if rng.random_bool(density) && side.count_ones() < 12 {
                    *side |= bit;
                    if bit & crowning != 0 || rng.random_bool(0.2) {
                        kings |= bit;
                    }
                }
            }
            let position =
                Position::from_parts(black, white, kings, Side::First).expect("a legal board");
            let counts = features(&position);
            let (tempo, runaways, rows) = man_by_man(&position);
            assert_eq!(counts[Term::TempoLate as usize], tempo, "{position:?}");
            assert_eq!(counts[Term::Runaways as usize], runaways, "{position:?}");
            for (term, count) in advance.into_iter().zip(rows) {
                assert_eq!(counts[term as usize], count, "{term:?}, {position:?}");
            }
        }
    }

    #[test]
    fn coordinates_follow_the_board() {
        // Square 1 is the 2nd column of the top row, 5 the 1st of the next, 32 the 7th of the last.
        assert_eq!(coordinates(0), (0, 1));
        assert_eq!(coordinates(4), (1, 0));
        assert_eq!(coordinates(31), (7, 6));
        assert_eq!(distance(0, 31), 7);
        assert_eq!(distance(0, 4), 1);
    }
}
