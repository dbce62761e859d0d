//! Pente's evaluation, for the side to move: a sum of terms ([`weights::Term`]), each a count
//! read from the board's shape ([`super::pente_patterns::board_shape`]) times a weight. The
//! terms: five-point windows by stones, open threes of either side (the side to move's makes an
//! open four next; the other's must be answered), the move itself, pairs captured by count,
//! capture threats by the pairs the taker already has (a pair to take for the side to move; one,
//! or two and more, of its own pairs exposed), and facing fours. The side to move with a four
//! (or a fifth pair to take) has won, and scores just below a proven win. The weights are data,
//! fitted to game results by `kingme tune --game pente` ([`crate::ai::texel`]); [`sample`]
//! gives the counts the fit needs from the same code as the evaluation, so the two cannot
//! disagree. The expert evaluates with the shipped weights (today the hand-set ones: the fit
//! measured no better), the levels below it with the hand-set ones (the evaluation before the
//! fit, on which the ladder measured them).

pub mod weights;

use super::pente_patterns::{EVAL_LIMIT, Shape, board_shape};
use super::search::MATE_BOUND;
use super::texel::{self, Bounds, Sample};
use crate::game::{Game, Side};
use crate::games::pente::{CAPTURES_TO_WIN, Pente};
pub use weights::{TERMS, Term, Weights, WeightsFile};

/// The score of a position the side to move has won (a four, or a fifth pair to take).
const WON: i32 = MATE_BOUND - 10;

/// The pair-count terms, by pairs captured (none for 0).
const PAIRS: [Option<Term>; 5] = [
    None,
    Some(Term::Pairs1),
    Some(Term::Pairs2),
    Some(Term::Pairs3),
    Some(Term::Pairs4),
];

/// The capture-threat terms, by the pairs the taker already has (0 to 3; with four, a pair to
/// take wins or is met by the search).
const TAKE: [Term; 4] = [Term::Take0, Term::Take1, Term::Take2, Term::Take3];
const EXPOSED: [Term; 4] = [
    Term::Exposed0,
    Term::Exposed1,
    Term::Exposed2,
    Term::Exposed3,
];
const EXPOSED_TWICE: [Term; 4] = [
    Term::ExposedTwice0,
    Term::ExposedTwice1,
    Term::ExposedTwice2,
    Term::ExposedTwice3,
];

/// The evaluation with `weights` and the board's [`Shape`] from the side to move, for callers
/// that look further where the shape says it may pay; without `capture_threats` the threats
/// against pairs are not counted (the evaluation before issue 18, for comparisons).
#[must_use]
pub fn evaluate_with_shape(game: &Pente, capture_threats: bool, weights: &Weights) -> (i32, Shape) {
    let shape = board_shape(game.board(), game.side_to_move());
    match counts(game, &shape, capture_threats) {
        None => (WON, shape),
        Some(counts) => {
            let score: i32 = Term::ALL
                .iter()
                .zip(counts)
                .map(|(&term, count)| weights.get(term) * count)
                .sum();
            (score.clamp(-EVAL_LIMIT, EVAL_LIMIT), shape)
        }
    }
}

/// Each term's count for the side to move, or `None` when it has won (a four, or a fifth pair
/// to take).
fn counts(game: &Pente, shape: &Shape, capture_threats: bool) -> Option<[i32; TERMS]> {
    let us = game.side_to_move();
    let them = us.opponent();
    if shape.my_fours > 0 || (shape.my_captures > 0 && game.captured_by(us) + 2 >= CAPTURES_TO_WIN)
    {
        return None;
    }
    let mut counts = [0; TERMS];
    let mut add = |term: Term, count: i32| counts[term as usize] += count;
    add(Term::Window1, shape.windows[1]);
    add(Term::Window2, shape.windows[2]);
    add(Term::Window3, shape.windows[3]);
    add(Term::Window4, shape.windows[4]);
    add(Term::OpenThreeMover, shape.my_open_threes as i32);
    add(Term::OpenThreeWaiting, shape.their_open_threes as i32);
    add(Term::Tempo, 1);
    let pairs = |side: Side| usize::from(game.captured_by(side) / 2).min(PAIRS.len() - 1);
    if let Some(term) = PAIRS[pairs(us)] {
        add(term, 1);
    }
    if let Some(term) = PAIRS[pairs(them)] {
        add(term, -1);
    }
    if capture_threats {
        if shape.my_captures > 0
            && let Some(&term) = TAKE.get(pairs(us))
        {
            add(term, 1);
        }
        let exposed = match shape.their_captures {
            0 => None,
            1 => EXPOSED.get(pairs(them)),
            _ => EXPOSED_TWICE.get(pairs(them)),
        };
        if let Some(&term) = exposed {
            add(term, 1);
        }
    }
    match shape.their_fours {
        0 => {}
        1 => add(Term::FourAgainst, 1),
        _ => add(Term::FoursAgainst, 1),
    }
    Some(counts)
}

/// Whether a position is one the fit learns from: neither side to move has won (a four, a fifth
/// pair to take) nor faces a four (the search looks further there, the evaluation never
/// decides it).
#[must_use]
pub fn is_quiet(game: &Pente) -> bool {
    let shape = board_shape(game.board(), game.side_to_move());
    game.outcome().is_none() && shape.their_fours == 0 && counts(game, &shape, true).is_some()
}

/// The fit's sample of a quiet position ([`is_quiet`]) with `result` for the first player: its
/// terms' counts turned to the first player's side (the evaluation is the side to move's, so the
/// second player's counts change sign).
#[must_use]
pub fn sample(game: &Pente, result: f64) -> Option<Sample<TERMS>> {
    if !is_quiet(game) {
        return None;
    }
    let shape = board_shape(game.board(), game.side_to_move());
    let mut features = counts(game, &shape, true)?;
    if game.side_to_move() == Side::Second {
        for count in &mut features {
            *count = -*count;
        }
    }
    Some(Sample { features, result })
}

/// The terms the fit leaves alone: a three's window, the unit (with the sigmoid's scale free,
/// scaling every weight together would change nothing), and the terms the samples never show
/// (a four on the board, facing fours: won, or searched further), which results cannot teach.
pub const FROZEN: [Term; 4] = [
    Term::Window3,
    Term::Window4,
    Term::FourAgainst,
    Term::FoursAgainst,
];

/// The terms held at their starting weights: [`FROZEN`] and the `held` ones (by index).
fn frozen(held: &[Term]) -> Vec<usize> {
    FROZEN
        .iter()
        .chain(held)
        .map(|&term| term as usize)
        .collect()
}

/// The fit's bounds: the `frozen` terms stay, every other weight within
/// [`weights::MAX_WEIGHT`].
fn bounds(frozen: &[usize]) -> Bounds<'_> {
    Bounds {
        frozen,
        allowed: |_, value| value.abs() <= weights::MAX_WEIGHT,
    }
}

/// Fits the weights from `start` with scale `k` ([`texel::fit`]), leaving [`FROZEN`] and the
/// `held` terms alone, calling `progress` after every pass.
#[must_use]
pub fn fit(
    samples: &[Sample<TERMS>],
    start: &Weights,
    k: f64,
    held: &[Term],
    progress: impl FnMut(texel::Progress),
) -> texel::Fit<Weights> {
    texel::fit(
        samples,
        &start.values(),
        k,
        &bounds(&frozen(held)),
        progress,
    )
    .map(|values| Weights::from_values(values).unwrap_or(*start))
}

/// A single step of 1 of a weight the fit moves (all but [`FROZEN`] and `held`) that lowers
/// the error, if there is one: `None` means `weights` is a local minimum of the fit.
#[must_use]
pub fn lower_step(
    samples: &[Sample<TERMS>],
    weights: &Weights,
    k: f64,
    held: &[Term],
) -> Option<(Term, i32, f64)> {
    texel::lower_step(samples, &weights.values(), k, &bounds(&frozen(held)))
        .map(|(index, change, error)| (Term::ALL[index], change, error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::pente_patterns::faces_a_four;
    use crate::games::pente::Point;

    fn game(text: &str) -> Pente {
        Pente::from_position_text(text).unwrap()
    }

    fn evaluate(game: &Pente) -> i32 {
        evaluate_with_shape(game, true, Weights::hand()).0
    }

    /// The evaluation as it was written before its weights became data (windows 1, 8, 60, 500;
    /// pairs 40, 110, 250, 600; three quarters of the next pair for a pair to take, a sixth or a
    /// half of the other's next pair for one or more pairs exposed; -3,000 facing two fours).
    fn before(game: &Pente) -> i32 {
        const PAIRS: [i32; 5] = [0, 40, 110, 250, 600];
        let us = game.side_to_move();
        let them = us.opponent();
        let shape = board_shape(game.board(), us);
        if shape.my_fours > 0
            || (shape.my_captures > 0 && game.captured_by(us) + 2 >= CAPTURES_TO_WIN)
        {
            return WON;
        }
        let pairs = |side: Side| usize::from(game.captured_by(side) / 2).min(4);
        let next_pair = |side: Side| PAIRS[(pairs(side) + 1).min(4)] - PAIRS[pairs(side)];
        let mut score = shape.worth + PAIRS[pairs(us)] - PAIRS[pairs(them)];
        if shape.my_captures > 0 {
            score += next_pair(us) * 3 / 4;
        }
        score -= match shape.their_captures {
            0 => 0,
            1 => next_pair(them) / 6,
            _ => next_pair(them) / 2,
        };
        if shape.their_fours >= 2 {
            score -= 3_000;
        }
        score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    #[test]
    fn the_hand_weights_score_as_the_evaluation_did_before() {
        use crate::ai::pente_oracle::crowded_position;
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(35);
        let mut checked = 0;
        let mut threats = 0;
        while checked < 300 {
            let Some(mut position) = crowded_position(6 + checked % 30, &mut rng) else {
                continue;
            };
            // Pairs captured, as the crowded positions have none of their own.
            for captured in [(0, 0), (2, 4), (6, 2), (4, 8)] {
                position = game(&with_captures(&position, captured));
                assert_eq!(
                    evaluate(&position),
                    before(&position),
                    "{}",
                    position.position_text()
                );
                let shape = board_shape(position.board(), position.side_to_move());
                threats += usize::from(shape.my_captures + shape.their_captures > 0);
            }
            checked += 1;
        }
        assert!(threats > 50, "{threats}");
    }

    /// `position`'s text with these stones captured by the first and second players.
    fn with_captures(position: &Pente, (first, second): (u16, u16)) -> String {
        let text = position.position_text();
        let head = text
            .rsplit_once(':')
            .map_or(text.as_str(), |(head, _)| head);
        format!("{head}:{first},{second}")
    }

    #[test]
    fn open_threes_are_told_from_closed_ones_and_from_the_side_to_move() {
        let open = game("1:K10,L10,M10:A1,A2:0,0");
        let shape = board_shape(open.board(), Side::First);
        // ..KLM.. has room for an open four both ways: two six-point windows.
        assert_eq!((shape.my_open_threes, shape.their_open_threes), (2, 0));
        // Blocked one point away (..KLM.O): one open four is left, at J10.
        let closed = game("1:K10,L10,M10:O10,A2:0,0");
        assert_eq!(board_shape(closed.board(), Side::First).my_open_threes, 1);
        // Blocked right beside (OKLM..): only a closed four is left.
        let beside = game("1:K10,L10,M10:J10,A2:0,0");
        assert_eq!(board_shape(beside.board(), Side::First).my_open_threes, 0);
        let shut = game("1:K10,L10,M10:J10,O10:0,0");
        assert_eq!(board_shape(shut.board(), Side::First).my_open_threes, 0);
        let split = game("1:K10,L10,N10:A1,A2:0,0");
        assert_eq!(board_shape(split.board(), Side::First).my_open_threes, 1);
        let seen = board_shape(open.board(), Side::Second);
        assert_eq!((seen.my_open_threes, seen.their_open_threes), (0, 2));
    }

    #[test]
    fn samples_are_the_first_players_counts_of_quiet_positions() {
        let first = game("1:K10,L10,M10:A1,A2:0,0");
        let second = game("2:K10,L10,M10:A1,A2:0,0");
        let a = sample(&first, 1.0).expect("quiet");
        let b = sample(&second, 1.0).expect("quiet");
        // The same board with the other side to move: the symmetric terms agree, the terms of
        // the move itself change hands.
        assert_eq!(a.features[Term::Window3 as usize], 3);
        assert_eq!(b.features[Term::Window3 as usize], 3);
        assert_eq!(a.features[Term::Tempo as usize], 1);
        assert_eq!(b.features[Term::Tempo as usize], -1);
        assert_eq!(a.features[Term::OpenThreeMover as usize], 2);
        assert_eq!(b.features[Term::OpenThreeWaiting as usize], -2);
        // The sample's evaluation is the evaluation, turned to the first player.
        let weights = Weights::shipped();
        let value = |s: &Sample<TERMS>| crate::ai::texel::eval(&weights.values(), &s.features);
        assert_eq!(value(&a), evaluate_with_shape(&first, true, weights).0);
        assert_eq!(value(&b), -evaluate_with_shape(&second, true, weights).0);
        // A four for either side is no sample: won, or searched further.
        let four = game("1:K10,L10,M10,N10:A1,A2,A3:0,0");
        assert!(sample(&four, 1.0).is_none());
        assert!(sample(&game("2:K10,L10,M10,N10:A1,A2,A3:0,0"), 1.0).is_none());
    }

    #[test]
    fn capture_threats_are_counted_by_pair_and_weigh_in_the_evaluation() {
        // The second player's pair L10-M10 is flanked by K10: the first player threatens it
        // from N10. Nothing else can be taken.
        let g = game("1:K10,A3:L10,M10,S19:0,0");
        let shape = board_shape(g.board(), Side::First);
        assert_eq!((shape.my_captures, shape.their_captures), (1, 0));
        // Counted from the rules: the points where the first player's stone would capture.
        let by_rules: u32 = Point::all()
            .filter(|&p| g.board().is_empty(p))
            .map(|p| g.board().capture_rays(Side::First, p).pairs())
            .sum();
        assert_eq!(shape.my_captures, by_rules);
        // With no pairs captured, the evaluation is the window worth plus the threat's share.
        assert!(evaluate(&g) > shape.worth);
        let unflanked = game("1:A3,K12:L10,M10,S19:0,0");
        let plain = board_shape(unflanked.board(), Side::First);
        assert_eq!(plain.my_captures, 0);
        assert_eq!(evaluate(&unflanked), plain.worth);
        // Seen from the threatened side, to move, the threat costs.
        let turned = game("2:K10,A3:L10,M10,S19:0,0");
        assert_eq!(board_shape(turned.board(), Side::Second).their_captures, 1);
    }

    #[test]
    fn evaluation_is_from_the_side_to_move() {
        let a = game("1:K10,L10,M10:A1,A2:0,0");
        let b = game("2:K10,L10,M10:A1,A2:0,0");
        assert!(evaluate(&a) > 0 && evaluate(&b) < 0);
        assert_eq!(evaluate(&a), -evaluate(&b));
        // A four for the side to move is a win next move; facing one, the search looks further.
        let four = game("1:K10,L10,M10,N10:A1,A2,A3:0,0");
        assert!(evaluate(&four) >= MATE_BOUND - 10);
        let facing = game("2:K10,L10,M10,N10:A1,A2,A3:0,0");
        assert!(faces_a_four(&facing) && !faces_a_four(&four));
        assert!(a.legal_moves().len() > 300);
    }
}
