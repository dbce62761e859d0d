//! Pente patterns: what a line of stones is worth, read through five-point windows.
//!
//! Every run of five consecutive points on a line is a place where a five could still be made. A
//! window holding only one side's stones is worth more the more stones it holds: one stone a
//! little, two (a two) more, three (a three: open or split, the windows overlap and so count an
//! open three more than a closed one) much more, four (a four: one point from five) most. Summing
//! the windows of the whole board gives the position's shape; the change a stone makes to the
//! windows through its point gives that point's attacking value for one side and its blocking
//! value against the other. The evaluation built on the shape is [`super::pente_eval`].

use super::search::MATE_BOUND;
use crate::cpu::{Instructions, Kernel, call};
use crate::game::{Game, Side};
use crate::games::pente::{Board, CAPTURES_TO_WIN, Direction, Pente, Point, Window};
use std::marker::PhantomData;

/// The worth of a window holding 0..=4 stones of one side and none of the other, for ranking
/// candidates (the evaluation's own weights are data: [`super::pente_eval`]).
const WINDOW: [i32; 5] = [0, 1, 8, 60, 500];

/// A point's score when playing it wins at once.
pub const WIN_NOW: i32 = 1 << 24;

/// A point's score when the opponent would win there.
pub const BLOCK_WIN: i32 = 1 << 22;

/// The shape of the board from one side: the summed window worth (the side's minus the
/// opponent's), the windows by stones (the side's minus the opponent's), how many fours (windows
/// one stone from five) each side has, how many threes (windows two stones from five, the rest
/// empty) the side has, how many open threes each side has (three stones within four points
/// with an empty point at both ends: one stone makes them an open four), and how many pairs each
/// side could take with its next stone (capture threats, counted by pair).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shape {
    pub worth: i32,
    pub windows: [i32; 5],
    pub my_fours: u32,
    pub their_fours: u32,
    pub my_threes: u32,
    pub my_open_threes: u32,
    pub their_open_threes: u32,
    pub my_captures: u32,
    pub their_captures: u32,
}

/// The windows of the whole board seen from `side`, in the fastest build of
/// [`crate::cpu`] this processor runs.
#[must_use]
pub fn board_shape(board: &Board, side: Side) -> Shape {
    board_shape_in(Instructions::detected(), board, side)
}

/// [`board_shape`] in the build `instructions` names: every build gives the same shape (its
/// population counts, some twenty a line, are single instructions in the newer one).
#[must_use]
pub fn board_shape_in(instructions: Instructions, board: &Board, side: Side) -> Shape {
    call::<ShapeKernel<'_>>(instructions, &(board, side))
}

/// [`board_shape`] as a kernel of [`crate::cpu`].
struct ShapeKernel<'a>(PhantomData<&'a Board>);

impl<'a> Kernel for ShapeKernel<'a> {
    type Input = (&'a Board, Side);
    type Output = Shape;

    #[inline(always)]
    fn run<R: Fn(&Self::Input) -> Shape>(&(board, side): &Self::Input, _: &R) -> Shape {
        shape_of(board, side)
    }
}

/// The body of [`board_shape`], inlined into each build.
#[inline(always)]
fn shape_of(board: &Board, side: Side) -> Shape {
    let mut shape = Shape::default();
    for direction in Direction::ALL {
        let masks = Board::line_masks(direction);
        let mine = board.lines(side, direction);
        let theirs = board.lines(side.opponent(), direction);
        for ((&m, &t), &on_board) in mine.iter().zip(theirs).zip(masks) {
            if m | t == 0 {
                continue;
            }
            shape.my_captures += capture_threats(on_board, m, t);
            shape.their_captures += capture_threats(on_board, t, m);
            shape.my_open_threes += open_threes(on_board, m, t);
            shape.their_open_threes += open_threes(on_board, t, m);
            add_line_windows(&mut shape, on_board, m, t);
        }
    }
    shape
}

/// Adds the five-point windows of one line to `shape`: every window wholly on the board
/// (`on_board`, one run of bits) that holds stones of one side only, by their number (a five
/// weighs as a four, but is no four), and the empty ones. All the line's windows are counted
/// at once, a bit for each window's first point: the stones of each window are summed
/// bit-parallel (two full adders), so a line costs the same few operations however many
/// windows it has.
#[inline(always)]
fn add_line_windows(shape: &mut Shape, on_board: u32, m: u32, t: u32) {
    let whole = whole_windows(on_board);
    let (only_m, only_t) = (whole & !any_in_window(t), whole & !any_in_window(m));
    let (mine, theirs) = (stones_by_window(m), stones_by_window(t));
    for stones in 0..=5 {
        // A window of theirs holds a stone: the empty windows are counted once, as the side's.
        let m_windows = (only_m & mine[stones]).count_ones();
        let t_windows = if stones == 0 {
            0
        } else {
            (only_t & theirs[stones]).count_ones()
        };
        if m_windows | t_windows == 0 {
            continue;
        }
        let weight = stones.min(4);
        shape.worth += WINDOW[weight] * (m_windows as i32 - t_windows as i32);
        shape.windows[weight] += m_windows as i32 - t_windows as i32;
        match stones {
            4 => {
                shape.my_fours += m_windows;
                shape.their_fours += t_windows;
            }
            3 => shape.my_threes += m_windows,
            _ => {}
        }
    }
}

/// The five-point windows of a line wholly on the board (`on_board`, one run of bits) that hold
/// exactly `stones` (0..=5) of `m` and none of `t`: bit `s` set for the window from bit `s`.
#[must_use]
pub fn windows_holding(on_board: u32, m: u32, t: u32, stones: usize) -> u32 {
    whole_windows(on_board) & !any_in_window(t) & stones_by_window(m)[stones]
}

/// The windows wholly on the board: bit `s` set when bits `s..s + 5` all are.
#[inline(always)]
fn whole_windows(on_board: u32) -> u32 {
    on_board & (on_board >> 1) & (on_board >> 2) & (on_board >> 3) & (on_board >> 4)
}

/// The windows holding at least one of `bits`: bit `s` set when one of bits `s..s + 5` is.
#[inline(always)]
fn any_in_window(bits: u32) -> u32 {
    bits | (bits >> 1) | (bits >> 2) | (bits >> 3) | (bits >> 4)
}

/// For each number of stones 0..=5, the windows of five points holding that many of `stones`:
/// bit `s` set when the window from bit `s` does.
#[inline(always)]
fn stones_by_window(stones: u32) -> [u32; 6] {
    let [a, b, c, d, e] = [0, 1, 2, 3, 4].map(|shift| stones >> shift);
    // Two full adders: a + b + c = ones1 + 2 twos1; d + e + ones1 = ones + 2 twos2.
    let (ones1, twos1) = (a ^ b ^ c, (a & b) | (c & (a ^ b)));
    let (ones, twos2) = (d ^ e ^ ones1, (d & e) | (ones1 & (d ^ e)));
    let (twos, fours) = (twos1 ^ twos2, twos1 & twos2);
    [
        !ones & !twos & !fours,
        ones & !twos & !fours,
        !ones & twos & !fours,
        ones & twos & !fours,
        !ones & !twos & fours,
        ones & !twos & fours,
    ]
}

/// The open threes of `mine` on a line: six points on the board, empty at both ends, with three
/// of `mine` and none of `theirs` between them (`.XXX..`, `.XX.X.`, ...): one stone makes them
/// an open four. A three with room on both sides (`..XXX..`) is counted twice.
#[inline(always)]
fn open_threes(on_board: u32, mine: u32, theirs: u32) -> u32 {
    if mine.count_ones() < 3 {
        return 0;
    }
    let empty = on_board & !(mine | theirs);
    // Bit `s` for the six points from `s`: wholly on the board, both ends empty, ...
    let six = whole_windows(on_board) & (on_board >> 5);
    let ends = empty & (empty >> 5);
    // ... none of `theirs` in the four between, and three of `mine` there: an odd count that
    // is at least two.
    let [a, b, c, d] = [1, 2, 3, 4].map(|shift| mine >> shift);
    let clear = !((theirs >> 1) | (theirs >> 2) | (theirs >> 3) | (theirs >> 4));
    let odd = a ^ b ^ c ^ d;
    let two = (a & b) | (c & d) | ((a | b) & (c | d));
    (six & ends & clear & odd & two).count_ones()
}

/// The pairs `mine` could take with one stone on a line: an empty point, two of `theirs`, one of
/// `mine` (X O O .), both ways along the line.
#[inline(always)]
fn capture_threats(on_board: u32, mine: u32, theirs: u32) -> u32 {
    let empty = on_board & !(mine | theirs);
    let up = empty & (theirs >> 1) & (theirs >> 2) & (mine >> 3);
    let down = empty & (theirs << 1) & (theirs << 2) & (mine << 3);
    up.count_ones() + down.count_ones()
}

/// The best an evaluation can say short of a win: won positions found by the threat search score
/// above it.
pub const EVAL_LIMIT: i32 = MATE_BOUND - 100;

/// Whether the side to move must answer a four (the opponent would win next move): the search
/// then looks one ply further, so it never stops just after a four is made.
#[must_use]
pub fn faces_a_four(game: &Pente) -> bool {
    let board = game.board();
    let them = game.side_to_move().opponent();
    Direction::ALL.into_iter().any(|direction| {
        let theirs = board.lines(them, direction);
        let ours = board.lines(them.opponent(), direction);
        Board::line_masks(direction)
            .iter()
            .zip(theirs.iter().zip(ours))
            .any(|(&on_board, (&t, &m))| {
                t.count_ones() >= 4 && windows_holding(on_board, t, m, 4) != 0
            })
    })
}

/// Whether the opponent of the side to move has eight stones captured and a pair it can take:
/// the fifth pair would win, so the search looks one ply further, as it does facing a four.
#[must_use]
pub fn faces_a_fifth_pair(game: &Pente) -> bool {
    let them = game.side_to_move().opponent();
    if game.captured_by(them) + 2 < CAPTURES_TO_WIN {
        return false;
    }
    let mut threatened = false;
    for_each_point(&near_stones(game.board(), 1), |point| {
        threatened |= !game.board().capture_rays(them, point).is_empty();
    });
    threatened
}

/// What placing a stone on `point` does for `side`, as counts of the windows through the point it
/// would complete or extend: `five` when it makes five, `fours` the windows it brings to four,
/// `threes` to three, and the summed gain in window worth.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gain {
    pub five: bool,
    pub fours: u32,
    pub threes: u32,
    pub worth: i32,
}

/// The windows through `point` for a stone of `side` there (the point itself empty).
#[must_use]
pub fn gain(board: &Board, side: Side, point: Point) -> Gain {
    gains(board, side, point).0
}

/// The gains of a stone on `point` for `side` and for its opponent at once: each line window is
/// read once and seen from both sides, which halves the work of ranking candidates.
#[must_use]
pub fn gains(board: &Board, side: Side, point: Point) -> (Gain, Gain) {
    let (mut mine, mut theirs) = (Gain::default(), Gain::default());
    for direction in Direction::ALL {
        let window = board.window(side, direction, point);
        add_window_gain(&mut mine, window);
        let turned = Window {
            mine: window.theirs,
            theirs: window.mine,
            off_board: window.off_board,
        };
        add_window_gain(&mut theirs, turned);
    }
    (mine, theirs)
}

/// Adds what a stone on the centre of `window` brings through its five-point windows: read from
/// [`WINDOW_GAINS`] when the centre is empty (every ranking of a candidate), computed otherwise.
fn add_window_gain(gain: &mut Gain, window: Window) {
    let blocked = window.theirs | window.off_board;
    let found = if (window.mine | blocked) & (1 << Window::CENTRE) == 0 {
        let index = TERNARY[around_centre(window.mine)] + 2 * TERNARY[around_centre(blocked)];
        unpack_gain(WINDOW_GAINS[usize::from(index)])
    } else {
        window_gain(window.mine, blocked)
    };
    gain.five |= found.five;
    gain.fours += found.fours;
    gain.threes += found.threes;
    gain.worth += found.worth;
}

/// What a stone on the centre brings through the five-point windows of a window holding the
/// side's stones `mine` and the points `blocked` (the opponent's stones and the points off the
/// board).
const fn window_gain(mine: u16, blocked: u16) -> Gain {
    let mut gain = Gain {
        five: false,
        fours: 0,
        threes: 0,
        worth: 0,
    };
    // The five-point windows containing the centre (bit 4) start at bits 0..=4.
    let mut start = 0;
    while start <= 4 {
        let mask = 0b11111u16 << start;
        if blocked & mask == 0 {
            let stones = (mine & mask).count_ones() as usize;
            match stones {
                4 => gain.five = true,
                3 => gain.fours += 1,
                2 => gain.threes += 1,
                _ => {}
            }
            let after = if stones + 1 < WINDOW.len() {
                stones + 1
            } else {
                WINDOW.len() - 1
            };
            gain.worth += WINDOW[after] - WINDOW[stones];
        }
        start += 1;
    }
    gain
}

/// A window's eight points around its centre, the centre's bit taken out.
const fn around_centre(bits: u16) -> usize {
    ((bits & 0xf) | ((bits >> (Window::CENTRE + 1)) << Window::CENTRE)) as usize
}

/// A window's eight points around the centre as the digits of a base-3 number: each point of
/// `bits` a 1 (so `TERNARY[mine] + 2 * TERNARY[blocked]` numbers every window whose centre is
/// empty: each point empty, the side's, or blocked).
const TERNARY: [u16; 256] = {
    let mut table = [0; 256];
    let mut bits = 0;
    while bits < 256 {
        let (mut value, mut power, mut point) = (0, 1, 0);
        while point < 8 {
            if (bits >> point) & 1 == 1 {
                value += power;
            }
            power *= 3;
            point += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
};

/// [`window_gain`] of every window whose centre is empty, numbered as [`TERNARY`] says and
/// packed by [`pack_gain`]: ranking a candidate reads four windows a side, and a look-up is
/// several times cheaper than counting the stones of five windows each (36 KB, built by the
/// compiler).
static WINDOW_GAINS: [u32; 6561] = {
    let mut table = [0; 6561];
    let mut index = 0;
    while index < 6561 {
        let (mut mine, mut blocked, mut rest, mut point) = (0u16, 0u16, index, 0);
        while point < 8 {
            // The eight points around the centre sit on bits 0..=3 and 5..=8.
            let bit = if point < 4 { point } else { point + 1 };
            match rest % 3 {
                1 => mine |= 1 << bit,
                2 => blocked |= 1 << bit,
                _ => {}
            }
            rest /= 3;
            point += 1;
        }
        table[index] = pack_gain(window_gain(mine, blocked));
        index += 1;
    }
    table
};

/// A window's gain in one word: the worth (at most five windows' 440) in bits 0..=15, the fours
/// and threes (at most five each) in 16..=18 and 19..=21, five in bit 22.
const fn pack_gain(gain: Gain) -> u32 {
    gain.worth as u32 | (gain.fours << 16) | (gain.threes << 19) | ((gain.five as u32) << 22)
}

const fn unpack_gain(packed: u32) -> Gain {
    Gain {
        five: (packed >> 22) & 1 == 1,
        fours: (packed >> 16) & 0b111,
        threes: (packed >> 19) & 0b111,
        worth: (packed & 0xffff) as i32,
    }
}

/// Whether `side` wins by placing on `point`: a five through it, or the pairs it captures
/// bringing `side` to ten captured stones.
#[must_use]
pub fn wins_at(game: &Pente, side: Side, point: Point) -> bool {
    let board = game.board();
    if !board.is_empty(point) {
        return false;
    }
    let captured = game.captured_by(side) + 2 * board.capture_rays(side, point).pairs() as u16;
    captured >= CAPTURES_TO_WIN || gain(board, side, point).five
}

/// How good `point` is for the side to move, for ordering moves and choosing candidates: wins
/// first, then stopping the opponent's win, then captures and the attacking and blocking worth of
/// the windows through the point.
#[must_use]
pub fn point_score(game: &Pente, point: Point) -> i32 {
    let board = game.board();
    let us = game.side_to_move();
    let them = us.opponent();
    let (attack, defence) = gains(board, us, point);
    let took = board.capture_rays(us, point).pairs() as u16;
    let would_take = board.capture_rays(them, point).pairs() as u16;
    if attack.five || game.captured_by(us) + 2 * took >= CAPTURES_TO_WIN {
        return WIN_NOW;
    }
    let mut score = attack.worth + defence.worth * 9 / 10;
    if defence.five || game.captured_by(them) + 2 * would_take >= CAPTURES_TO_WIN {
        score += BLOCK_WIN;
    }
    // A capture gains a pair and breaks the opponent's lines; a point the opponent would capture
    // from is worth taking first.
    score += i32::from(took) * (300 + 100 * i32::from(game.captured_by(us) / 2));
    score += i32::from(would_take) * (200 + 100 * i32::from(game.captured_by(them) / 2));
    // Two fours at once, or a four and an open three, are as good as won.
    if attack.fours >= 2 || (attack.fours >= 1 && attack.threes >= 2) {
        score += 5_000;
    }
    score
}

/// The empty points within `radius` (Chebyshev distance) of any stone, as a bit row per board
/// row (bit = column).
#[must_use]
pub fn near_stones(board: &Board, radius: u32) -> [u32; 19] {
    const FULL: u32 = (1 << 19) - 1;
    let mut occupied = [0u32; 19];
    for (row, word) in occupied.iter_mut().enumerate() {
        *word = FULL & !board.empty_in_row(row as u8);
    }
    let mut spread = [0u32; 19];
    for (row, word) in occupied.iter().enumerate() {
        let mut wide = *word;
        for shift in 1..=radius {
            wide |= (word << shift) | (word >> shift);
        }
        let low = row.saturating_sub(radius as usize);
        let high = (row + radius as usize).min(18);
        for target in &mut spread[low..=high] {
            *target |= wide & FULL;
        }
    }
    for (row, word) in spread.iter_mut().enumerate() {
        *word &= !occupied[row];
    }
    spread
}

/// Calls `visit` with every point set in a per-row mask.
pub fn for_each_point(rows: &[u32; 19], mut visit: impl FnMut(Point)) {
    for (row, &word) in rows.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let column = bits.trailing_zeros();
            bits &= bits - 1;
            if let Some(point) = Point::new(row as u8, column as u8) {
                visit(point);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Pente {
        Pente::from_position_text(text).unwrap()
    }

    fn point(text: &str) -> Point {
        crate::games::pente::parse_point(text).unwrap()
    }

    #[test]
    fn more_stones_in_open_lines_score_higher() {
        let two = game("2:K10,L10:A1:0,0");
        let three = game("2:K10,L10,M10:A1,A2:0,0");
        assert!(
            board_shape(three.board(), Side::First).worth
                > board_shape(two.board(), Side::First).worth
        );
        // A three blocked at one end is worth less than an open one.
        let closed = game("2:K10,L10,M10:J10,A2:0,0");
        assert!(
            board_shape(closed.board(), Side::First).worth
                < board_shape(three.board(), Side::First).worth
        );
    }

    #[test]
    fn gains_see_fives_and_fours() {
        let g = game("1:K10,L10,M10,N10:A1,A3,A5:0,0");
        assert!(gain(g.board(), Side::First, point("O10")).five);
        assert!(gain(g.board(), Side::First, point("J10")).five);
        assert!(!gain(g.board(), Side::First, point("P10")).five);
        assert!(wins_at(&g, Side::First, point("O10")));
        assert_eq!(point_score(&g, point("O10")), WIN_NOW);
        let three = game("1:K10,L10,M10:A1,A3:0,0");
        assert_eq!(gain(three.board(), Side::First, point("N10")).fours, 2);
    }

    #[test]
    fn both_gains_at_once_equal_each_sides_own() {
        let g = game("1:K10,L10,M10,L12,N9:K11,L11,M11,J9:0,0");
        for point in Point::all().filter(|&p| g.board().is_empty(p)) {
            let (first, second) = gains(g.board(), Side::First, point);
            assert_eq!(second, gains(g.board(), Side::Second, point).0, "{point}");
            assert_eq!(first, gains(g.board(), Side::Second, point).1, "{point}");
        }
    }

    #[test]
    fn the_window_table_holds_every_gain_as_counted() {
        // Every window with an empty centre: each of the eight other points empty, the side's,
        // or blocked (the opponent's or off the board, taken in turn).
        for index in 0..6561u32 {
            let (mut mine, mut theirs, mut off_board, mut rest) = (0u16, 0u16, 0u16, index);
            for point in 0..8 {
                let bit = if point < 4 { point } else { point + 1 };
                match rest % 3 {
                    1 => mine |= 1 << bit,
                    2 if index % 2 == 0 => theirs |= 1 << bit,
                    2 => off_board |= 1 << bit,
                    _ => {}
                }
                rest /= 3;
            }
            let mut looked_up = Gain::default();
            add_window_gain(
                &mut looked_up,
                Window {
                    mine,
                    theirs,
                    off_board,
                },
            );
            assert_eq!(
                looked_up,
                window_gain(mine, theirs | off_board),
                "mine {mine:09b}, theirs {theirs:09b}, off {off_board:09b}"
            );
        }
        // Four of the side's stones beside the centre make five; three make two fours (the
        // windows from bit 0 and bit 1), or one when the point past them is blocked.
        let four = 0b1111;
        assert!(unpack_gain(WINDOW_GAINS[usize::from(TERNARY[around_centre(four)])]).five);
        assert_eq!(window_gain(0b1110, 0).fours, 2);
        assert_eq!(window_gain(0b1110, 0b1).fours, 1);
        // Past the blocked ends: 440 (three to four), 52 (two to three), 7 (one to two).
        assert_eq!(window_gain(0b1110, 0b1_0000_0001).worth, 440 + 52 + 7);
    }

    /// The open threes of a line six points at a time, as they were first counted.
    fn open_threes_one_by_one(on_board: u32, mine: u32, theirs: u32) -> u32 {
        let empty = on_board & !(mine | theirs);
        let mut count = 0;
        let mut start = on_board.trailing_zeros();
        while start + 6 <= 32 && (on_board >> start) & 0b11_1111 == 0b11_1111 {
            let (m4, t4) = (
                (mine >> (start + 1)) & 0b1111,
                (theirs >> (start + 1)) & 0b1111,
            );
            let ends = (empty >> start) & 0b10_0001;
            count += u32::from(t4 == 0 && m4.count_ones() == 3 && ends == 0b10_0001);
            start += 1;
        }
        count
    }

    /// The windows of a line one by one, as the shape was first computed.
    fn line_windows_one_by_one(shape: &mut Shape, on_board: u32, m: u32, t: u32) {
        let mut start = on_board.trailing_zeros();
        while start + 5 <= 32 && (on_board >> start) & 0b11111 == 0b11111 {
            let (m5, t5) = ((m >> start) & 0b11111, (t >> start) & 0b11111);
            if t5 == 0 {
                let stones = m5.count_ones() as usize;
                shape.worth += WINDOW[stones.min(4)];
                shape.windows[stones.min(4)] += 1;
                shape.my_fours += u32::from(stones == 4);
                shape.my_threes += u32::from(stones == 3);
            } else if m5 == 0 {
                let stones = t5.count_ones() as usize;
                shape.worth -= WINDOW[stones.min(4)];
                shape.windows[stones.min(4)] -= 1;
                shape.their_fours += u32::from(stones == 4);
            }
            start += 1;
        }
    }

    #[test]
    fn a_line_s_windows_counted_at_once_are_those_counted_one_by_one() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(35);
        let masks = Direction::ALL.map(Board::line_masks);
        for round in 0..20_000 {
            let on_board = masks[round % 4][rng.random_range(0..masks[round % 4].len())];
            // Crowded lines, with fives and fours, as well as sparse ones.
            let fill = [0.1, 0.3, 0.6, 0.9][round % 4];
            let (mut m, mut t) = (0, 0);
            for bit in 0..32 {
                if on_board & (1 << bit) != 0 && rng.random_bool(fill) {
                    if rng.random_bool(0.5) {
                        m |= 1 << bit;
                    } else {
                        t |= 1 << bit;
                    }
                }
            }
            let (mut at_once, mut one_by_one) = (Shape::default(), Shape::default());
            add_line_windows(&mut at_once, on_board, m, t);
            line_windows_one_by_one(&mut one_by_one, on_board, m, t);
            assert_eq!(
                at_once, one_by_one,
                "line {on_board:b}, mine {m:b}, theirs {t:b}"
            );
            for (a, b) in [(m, t), (t, m)] {
                assert_eq!(
                    open_threes(on_board, a, b),
                    open_threes_one_by_one(on_board, a, b),
                    "line {on_board:b}, mine {a:b}, theirs {b:b}"
                );
                let holding = |stones| {
                    let mut starts = 0;
                    let mut start = on_board.trailing_zeros();
                    while start + 5 <= 32 && (on_board >> start) & 0b11111 == 0b11111 {
                        let (a5, b5) = ((a >> start) & 0b11111, (b >> start) & 0b11111);
                        if b5 == 0 && a5.count_ones() as usize == stones {
                            starts |= 1 << start;
                        }
                        start += 1;
                    }
                    starts
                };
                for stones in 0..=5 {
                    assert_eq!(windows_holding(on_board, a, b, stones), holding(stones));
                }
            }
        }
    }

    /// A board of `least` to `most` stones (fewer where a point comes twice), each at a random
    /// point for a random side.
    fn random_board(rng: &mut rand::rngs::StdRng, least: u32, most: u32) -> Board {
        use rand::Rng;
        let mut board = Board::default();
        for _ in 0..rng.random_range(least..most) {
            let point = Point::new(rng.random_range(0..19), rng.random_range(0..19)).unwrap();
            if board.is_empty(point) {
                let side = [Side::First, Side::Second][rng.random_range(0..2)];
                board.place(point, side);
            }
        }
        board
    }

    #[test]
    fn every_build_reads_the_same_shape() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(34);
        for _ in 0..300 {
            let board = random_board(&mut rng, 5, 120);
            for side in [Side::First, Side::Second] {
                let baseline = board_shape_in(Instructions::BASELINE, &board, side);
                for instructions in Instructions::available() {
                    assert_eq!(board_shape_in(instructions, &board, side), baseline);
                }
            }
        }
    }

    #[test]
    fn the_fifth_pair_wins() {
        // First player has captured eight stones and can take the pair L10-M10 from N10.
        let g = game("1:K10:L10,M10,A1:8,0");
        assert!(wins_at(&g, Side::First, point("N10")));
        assert!(!wins_at(&g, Side::First, point("N11")));
    }

    #[test]
    fn near_points_surround_the_stones() {
        let g = game("2:K10:A1,T19:0,0");
        let mut near = Vec::new();
        for_each_point(&near_stones(g.board(), 1), |p| near.push(p));
        // Eight round K10, three at A1's corner, three at T19's.
        assert_eq!(near.len(), 14);
        assert!(near.contains(&point("L11")) && near.contains(&point("B2")));
        assert!(near.iter().all(|&p| g.board().is_empty(p)));
    }

    #[test]
    fn capture_threats_match_the_rules_on_random_boards() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..40 {
            let board = random_board(&mut rng, 10, 80);
            for side in [Side::First, Side::Second] {
                let by_rules: u32 = Point::all()
                    .filter(|&p| board.is_empty(p))
                    .map(|p| board.capture_rays(side, p).pairs())
                    .sum();
                assert_eq!(board_shape(&board, side).my_captures, by_rules);
                assert_eq!(
                    board_shape(&board, side.opponent()).their_captures,
                    by_rules
                );
            }
        }
    }
}
