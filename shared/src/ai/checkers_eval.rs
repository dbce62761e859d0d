//! Checkers evaluations, from Black's point of view (the search turns them to the side to move).
//!
//! [`material`] is the classic levels' count: a man is worth 100, a king 175. [`expert_eval_in`] adds
//! what a checkers player weighs besides material: men advancing (and the tempo count that goes
//! with it once the board empties), the back-row guard that keeps the opponent from crowning,
//! control of the centre, mobility, trading down when ahead, and endgame knowledge: the stronger
//! side brings its kings close, takes the lone king's moves away and drives it out of the double
//! corner, where it could otherwise shuttle forever.

use crate::cpu::{Instructions, Kernel, call};
use crate::game::Side;
use crate::games::checkers::{Position, count_moves};

/// The classic values.
const MAN: i32 = 100;
const KING: i32 = 175;

/// The expert's king: worth less than the classic's, since a king cannot be made safe from a
/// two-for-one and men still have a crowning to come.
const EXPERT_KING: i32 = 140;

/// Black's back-row squares that stop most crownings (1 and 3), and White's (30 and 32).
const BLACK_GUARD: u32 = (1 << 0) | (1 << 2);
const WHITE_GUARD: u32 = (1 << 29) | (1 << 31);

/// The eight central squares: 10, 11, 14, 15, 18, 19, 22, 23.
const CENTRE: u32 =
    (1 << 9) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 21) | (1 << 22);

/// The two double corners: 1 and 5, 28 and 32.
const DOUBLE_CORNERS: u32 = (1 << 0) | (1 << 4) | (1 << 27) | (1 << 31);

/// The edge squares, where a king controls only two diagonals.
const EDGES: u32 = 0x0000_000F | 0xF000_0000 | 0x1010_1010 | 0x0808_0808;

/// A man's bonus by rows advanced from its own back row.
const ADVANCE: [i32; 8] = [0, 0, 1, 3, 5, 8, 12, 0];

/// Material by the classic values, Black minus White.
#[must_use]
pub fn material(position: &Position) -> i32 {
    let kings = position.kings();
    let value = |pieces: u32| {
        MAN * (pieces & !kings).count_ones() as i32 + KING * (pieces & kings).count_ones() as i32
    };
    value(position.black()) - value(position.white())
}

/// The expert's evaluation, Black minus White, in the build `instructions` names (a search asks
/// for [`Instructions::detected`] once and keeps the answer); every build scores the same.
#[must_use]
pub fn expert_eval_in(instructions: Instructions, position: &Position) -> i32 {
    call::<ExpertEval>(instructions, position)
}

/// The expert's evaluation as a kernel of [`crate::cpu`]: its population counts (a dozen, and
/// four in each of the two move counts) are single instructions in the newer build.
struct ExpertEval;

impl Kernel for ExpertEval {
    type Input = Position;
    type Output = i32;

    #[inline(always)]
    fn run<R: Fn(&Position) -> i32>(position: &Position, _: &R) -> i32 {
        evaluate(position)
    }
}

/// The body of [`expert_eval_in`].
#[inline(always)]
fn evaluate(position: &Position) -> i32 {
    let kings = position.kings();
    let (black, white) = (position.black(), position.white());
    let (black_men, white_men) = (black & !kings, white & !kings);
    let (black_kings, white_kings) = (black & kings, white & kings);
    let count = |mask: u32| mask.count_ones() as i32;
    let black_material = MAN * count(black_men) + EXPERT_KING * count(black_kings);
    let white_material = MAN * count(white_men) + EXPERT_KING * count(white_kings);
    let mut score = black_material - white_material;

    // Trading down when ahead: the same lead counts more with fewer pieces left.
    let pieces = count(black | white);
    score += (black_material - white_material).signum() * (24 - pieces) * 4;

    // Advancement, and with it the tempo that decides endings of men against men.
    score += advancement(black_men, Side::First) - advancement(white_men, Side::Second);

    // The back-row guard matters while the other side still has men to crown.
    if white_men != 0 {
        score += 12 * count(black_men & BLACK_GUARD);
    }
    if black_men != 0 {
        score -= 12 * count(white_men & WHITE_GUARD);
    }

    // Centre control: men there hold the board together, kings there reach everything.
    score += 4 * (count(black_men & CENTRE) - count(white_men & CENTRE));
    score += 8 * (count(black_kings & CENTRE) - count(white_kings & CENTRE));
    score -= 4 * (count(black_kings & EDGES) - count(white_kings & EDGES));

    // Mobility: moves each side would have if it were its turn.
    let black_moves = count_moves(&position.with_side_to_move(Side::First)) as i32;
    let white_moves = count_moves(&position.with_side_to_move(Side::Second)) as i32;
    score += 2 * (black_moves - white_moves);

    score
        + endgame(
            position,
            black_material - white_material,
            black_moves,
            white_moves,
        )
}

/// A man's advancement bonus for a side: rows gone forward, weighted towards the crowning row.
#[inline(always)]
fn advancement(men: u32, side: Side) -> i32 {
    let mut bonus = 0;
    let mut bits = men;
    while bits != 0 {
        let row = (bits.trailing_zeros() / 4) as usize;
        bits &= bits - 1;
        let advanced = match side {
            Side::First => row,
            Side::Second => 7 - row,
        };
        bonus += ADVANCE[advanced];
    }
    bonus
}

/// Knowledge of won endings: when one side is ahead and the other has only kings left, the
/// stronger side gains for every step its kings come closer to the enemy pieces, for every move
/// the weaker side loses, and for every weak king pushed out of a double corner.
fn endgame(position: &Position, lead: i32, black_moves: i32, white_moves: i32) -> i32 {
    let kings = position.kings();
    let (strong, weak, weak_moves, sign) = if lead > 0 {
        (position.black(), position.white(), white_moves, 1)
    } else if lead < 0 {
        (position.white(), position.black(), black_moves, -1)
    } else {
        return 0;
    };
    if weak & !kings != 0 || (strong | weak).count_ones() > 8 {
        return 0;
    }
    let mut bonus = 0;
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
        bonus -= 6 * nearest;
    }
    bonus -= 8 * weak_moves;
    bonus += 30 * (weak & !DOUBLE_CORNERS).count_ones() as i32;
    sign * bonus
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

    fn eval(fen: &str) -> i32 {
        expert_eval_in(Instructions::detected(), &parse_fen(fen).expect(fen))
    }

    #[test]
    fn material_counts_men_and_kings() {
        let position = parse_fen("B:W21,22,K30:B1,K5").expect("a FEN");
        assert_eq!(material(&position), (100 + 175) - (200 + 175));
        assert_eq!(material(&Position::start()), 0);
    }

    #[test]
    fn the_start_is_balanced_and_colours_are_symmetric() {
        assert_eq!(eval("B:W21-32:B1-12"), 0);
        // The same position with colours and board turned round scores the opposite.
        // The board turned round with colours swapped (square n becomes 33 - n) scores the
        // opposite.
        assert_eq!(eval("B:W22,K30:B3,11"), -eval("W:W22,30:B11,K3"));
        assert_eq!(eval("B:W18,K25:B7"), -eval("W:W26:B15,K8"));
    }

    #[test]
    fn positional_terms_point_the_right_way() {
        // An advanced man is worth more than one at home.
        assert!(eval("B:W32:B18") > eval("B:W32:B6"));
        // Keeping the bridge (1 and 3) beats leaving it while White has men.
        assert!(eval("B:W29,30:B1,3") > eval("B:W29,30:B5,6"));
        // A lone king in the double corner is harder to catch than one in the open.
        assert!(eval("W:WK1:BK14,K15") < eval("W:WK10:BK14,K15"));
        // The hunters gain by coming closer.
        assert!(eval("W:WK1:BK6,K9") > eval("W:WK1:BK27,K32"));
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
