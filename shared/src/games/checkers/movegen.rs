//! Move generation on the bitboards: the legal moves of a [`Position`], their number, and whether
//! there is any.
//!
//! Whole sets of pieces are shifted at once (see [`super::bitboard`]): the pieces that can jump
//! in a direction are found from the empty squares and the enemy pieces with two reverse steps,
//! and steps are counted with a population count, so counting the moves of a position (what a
//! bulk-counting perft does at the last ply, and the expert's evaluation twice a leaf) visits no
//! piece one by one unless a capture goes on past its first jump or a king captures. A man
//! cannot turn back, so where a man's jump can go on is read off the board once, and every
//! capture route of a man stops there without looking further. Moves are handed to a visitor
//! instead of being collected, so generation allocates nothing and has no capacity limit;
//! callers that want a list push into their own buffer.
//!
//! Rules implemented here: captures are compulsory, and any capture may be chosen (not
//! necessarily the longest); a capture continues while the capturing piece can jump again, and
//! the whole sequence is one move; men move and capture forward only, kings both ways, one step
//! at a time; a man reaching its crowning row is crowned and the move ends there. A captured
//! piece stays on the board until the move is over, so it cannot be jumped twice or landed on;
//! the mover's own origin square is empty during the move, so a king may pass over it or end on
//! it. Every route is a separate move, even when two routes capture the same pieces between the
//! same squares (a king going round a loop either way), as in OEIS A133046.

use super::bitboard::{Bits, Direction};
use super::moves::Move;
use super::position::{Position, crowning_row};
use super::square::Square;
use crate::game::Side;

/// The squares as the side to move sees them.
#[derive(Clone, Copy)]
struct View {
    mine: u32,
    my_kings: u32,
    theirs: u32,
    empty: u32,
}

impl View {
    #[inline(always)]
    fn of<const BLACK: bool>(position: &Position) -> View {
        let (us, them) = if BLACK {
            (Side::First, Side::Second)
        } else {
            (Side::Second, Side::First)
        };
        let mine = position.pieces(us);
        View {
            mine,
            my_kings: mine & position.kings(),
            theirs: position.pieces(them),
            empty: position.empty(),
        }
    }
}

/// The directions in which a side's men move (forward) and then the two only kings use.
#[inline(always)]
const fn directions<const BLACK: bool>() -> [Direction; 4] {
    if BLACK {
        [
            Direction::DownLeft,
            Direction::DownRight,
            Direction::UpLeft,
            Direction::UpRight,
        ]
    } else {
        [
            Direction::UpLeft,
            Direction::UpRight,
            Direction::DownLeft,
            Direction::DownRight,
        ]
    }
}

/// The pieces among `movers` that can jump an enemy piece in `direction`.
#[inline(always)]
fn jump_origins(direction: Direction, movers: u32, theirs: u32, empty: u32) -> u32 {
    let back = direction.reverse();
    back.step(back.step(empty) & theirs) & movers
}

/// Every piece of the side to move that can start a capture. The two backward directions are
/// looked at only where there are kings (most of a game has none).
#[inline(always)]
fn capture_origins<const BLACK: bool>(view: &View) -> u32 {
    let [f1, f2, b1, b2] = directions::<BLACK>();
    let forward = jump_origins(f1, view.mine, view.theirs, view.empty)
        | jump_origins(f2, view.mine, view.theirs, view.empty);
    if view.my_kings == 0 {
        return forward;
    }
    forward
        | jump_origins(b1, view.my_kings, view.theirs, view.empty)
        | jump_origins(b2, view.my_kings, view.theirs, view.empty)
}

/// Calls `visit` with every legal move of the position: captures by origin square, steps
/// direction by direction.
#[inline(always)]
pub fn for_each_move<F: FnMut(&Move)>(position: &Position, mut visit: F) {
    match position.side_to_move() {
        Side::First => generate::<true, F>(position, &mut visit),
        Side::Second => generate::<false, F>(position, &mut visit),
    }
}

/// Pushes every legal move onto `out` (not cleared first), in order of origin, destination and
/// route, the order people read lists of moves in. (Searches that do not care about order use
/// [`for_each_move`], which visits steps direction by direction.)
pub fn push_moves(position: &Position, out: &mut Vec<Move>) {
    let first = out.len();
    for_each_move(position, |mv| out.push(*mv));
    out[first..].sort_unstable_by(|a, b| {
        (a.from(), a.to())
            .cmp(&(b.from(), b.to()))
            .then_with(|| a.landings().cmp(b.landings()))
    });
}

/// The number of legal moves, without building the steps.
#[inline(always)]
#[must_use]
pub fn count_moves(position: &Position) -> u64 {
    match position.side_to_move() {
        Side::First => count::<true>(position),
        Side::Second => count::<false>(position),
    }
}

/// Whether the side to move has any legal move.
#[must_use]
pub fn has_moves(position: &Position) -> bool {
    fn any<const BLACK: bool>(position: &Position) -> bool {
        let view = View::of::<BLACK>(position);
        capture_origins::<BLACK>(&view) != 0 || step_origins::<BLACK>(&view) != 0
    }
    match position.side_to_move() {
        Side::First => any::<true>(position),
        Side::Second => any::<false>(position),
    }
}

/// Whether the side to move has a capture (and so must capture).
#[must_use]
pub fn has_capture(position: &Position) -> bool {
    match position.side_to_move() {
        Side::First => capture_origins::<true>(&View::of::<true>(position)) != 0,
        Side::Second => capture_origins::<false>(&View::of::<false>(position)) != 0,
    }
}

/// The pieces of the side to move that can step somewhere.
#[inline(always)]
fn step_origins<const BLACK: bool>(view: &View) -> u32 {
    let [f1, f2, b1, b2] = directions::<BLACK>();
    let from_empty = |direction: Direction| direction.reverse().step(view.empty);
    ((from_empty(f1) | from_empty(f2)) & view.mine)
        | ((from_empty(b1) | from_empty(b2)) & view.my_kings)
}

#[inline(always)]
fn generate<const BLACK: bool, F: FnMut(&Move)>(position: &Position, visit: &mut F) {
    let view = View::of::<BLACK>(position);
    let origins = capture_origins::<BLACK>(&view);
    if origins != 0 {
        for_each_capture::<BLACK, Move, F>(&view, origins, visit);
        return;
    }
    let [f1, f2, b1, b2] = directions::<BLACK>();
    visit_steps(f1, view.mine, view.empty, visit);
    visit_steps(f2, view.mine, view.empty, visit);
    visit_steps(b1, view.my_kings, view.empty, visit);
    visit_steps(b2, view.my_kings, view.empty, visit);
}

/// Visits the steps of `movers` in one direction, found all at once from the target squares.
#[inline(always)]
fn visit_steps<F: FnMut(&Move)>(direction: Direction, movers: u32, empty: u32, visit: &mut F) {
    let targets = direction.step(movers) & empty;
    // A step keeps the order of squares (a later origin has a later target), so the origins,
    // found all at once, pair with the targets in turn.
    let origins = direction.reverse().step(targets);
    for (from, to) in Bits(origins).zip(Bits(targets)) {
        visit(&Move::step(
            Square::from_index(from),
            Square::from_index(to),
        ));
    }
}

/// A capture being built jump by jump: the [`Move`] itself, or nothing at all when the caller
/// only counts, so one search serves both without the counting paying for the path.
trait Route {
    /// The route so far, starting at `origin`.
    fn start(origin: u8) -> Self;
    /// One more jump, over `over` (a one-bit mask) onto `landing`.
    fn push(&mut self, landing: u8, over: u32);
    /// Takes the last jump back.
    fn pop(&mut self, over: u32);
}

impl Route for Move {
    #[inline(always)]
    fn start(origin: u8) -> Self {
        Move::capture_from(Square::from_index(origin))
    }
    #[inline(always)]
    fn push(&mut self, landing: u8, over: u32) {
        self.push_jump(landing, over);
    }
    #[inline(always)]
    fn pop(&mut self, over: u32) {
        self.pop_jump(over);
    }
}

/// Counting needs no route.
impl Route for () {
    #[inline(always)]
    fn start(_: u8) -> Self {}
    #[inline(always)]
    fn push(&mut self, _: u8, _: u32) {}
    #[inline(always)]
    fn pop(&mut self, _: u32) {}
}

#[inline(always)]
fn for_each_capture<const BLACK: bool, R: Route, F: FnMut(&R)>(
    view: &View,
    origins: u32,
    visit: &mut F,
) {
    let men_go_on = men_go_on::<BLACK>(view);
    for origin in Bits(origins) {
        let bit = 1u32 << origin;
        let mut route = R::start(origin);
        let king = view.my_kings & bit != 0;
        // The mover has left its square, so a king's loop may pass over it or end there.
        let empty = view.empty | bit;
        jumps::<BLACK, R, F>(bit, king, view.theirs, empty, men_go_on, &mut route, visit);
    }
}

/// The squares from which a man of the side to move could jump forward. A man moves only
/// forward, away from its origin and from the pieces it has taken, so this holds at every
/// landing of a man's capture: where a landing is not among these squares the capture ends
/// there, without looking further.
#[inline(always)]
fn men_go_on<const BLACK: bool>(view: &View) -> u32 {
    let [f1, f2, _, _] = directions::<BLACK>();
    jump_origins(f1, u32::MAX, view.theirs, view.empty)
        | jump_origins(f2, u32::MAX, view.theirs, view.empty)
}

/// Extends the capture `route`, whose piece stands on `at`, by every possible jump; visits it
/// when no jump is left. `theirs` holds the enemy pieces not yet captured; captured ones are
/// still not `empty`; `men_go_on` is [`men_go_on`] of the position. Called only where at least
/// one jump exists, so a route is never empty.
fn jumps<const BLACK: bool, R: Route, F: FnMut(&R)>(
    at: u32,
    king: bool,
    theirs: u32,
    empty: u32,
    men_go_on: u32,
    route: &mut R,
    visit: &mut F,
) -> bool {
    let all = directions::<BLACK>();
    let reach = if king { 4 } else { 2 };
    let crowning = crowning_row(if BLACK { Side::First } else { Side::Second });
    let mut extended = false;
    for direction in &all[..reach] {
        let over = direction.step(at) & theirs;
        if over == 0 {
            continue;
        }
        let landing = direction.step(over) & empty;
        if landing == 0 {
            continue;
        }
        extended = true;
        route.push(landing.trailing_zeros() as u8, over);
        // Crowning ends the move, even if the new king could jump on; a man ends it where it
        // cannot jump on.
        let ends = !king && (landing & crowning != 0 || landing & men_go_on == 0);
        if ends
            || !jumps::<BLACK, R, F>(
                landing,
                king,
                theirs & !over,
                empty,
                men_go_on,
                route,
                visit,
            )
        {
            visit(route);
        }
        route.pop(over);
    }
    extended
}

#[inline(always)]
fn count<const BLACK: bool>(position: &Position) -> u64 {
    let view = View::of::<BLACK>(position);
    let [f1, f2, b1, b2] = directions::<BLACK>();
    let men = view.mine & !view.my_kings;
    // One step of every man forward: onto an empty square it is a move, onto an enemy piece
    // the first half of a jump, whose landing is one more step.
    let ahead = [f1.step(men), f2.step(men)];
    let landings = [
        f1.step(ahead[0] & view.theirs) & view.empty,
        f2.step(ahead[1] & view.theirs) & view.empty,
    ];
    let mut steps = (ahead[0] & view.empty).count_ones() + (ahead[1] & view.empty).count_ones();
    let mut kings_jump = false;
    if view.my_kings != 0 {
        for direction in [f1, f2, b1, b2] {
            let ahead = direction.step(view.my_kings);
            steps += (ahead & view.empty).count_ones();
            kings_jump |= direction.step(ahead & view.theirs) & view.empty != 0;
        }
    }
    if landings[0] | landings[1] != 0 || kings_jump {
        return count_captures::<BLACK>(&view, landings);
    }
    u64::from(steps)
}

/// The number of captures, given where men land with their first jump in each forward
/// direction (`men_landings`). A man's jump that cannot go on is a whole move, and those are
/// counted for all men at once, direction by direction, with a population count (see
/// [`men_go_on`]); the men's jumps that go on, and every king's, are followed route by route.
#[inline(always)]
fn count_captures<const BLACK: bool>(view: &View, men_landings: [u32; 2]) -> u64 {
    let [f1, f2, _, _] = directions::<BLACK>();
    let goes_on = men_go_on::<BLACK>(view);
    let mut single_jumps = 0u64;
    let mut routes = 0u64;
    let mut count = |_: &()| routes += 1;
    for (direction, landings) in [f1, f2].into_iter().zip(men_landings) {
        let back = direction.reverse();
        single_jumps += u64::from((landings & !goes_on).count_ones());
        for landing in Bits(landings & goes_on) {
            let landing = 1u32 << landing;
            let over = back.step(landing);
            let origin = back.step(over);
            let (theirs, empty) = (view.theirs & !over, view.empty | origin);
            jumps::<BLACK, (), _>(landing, false, theirs, empty, goes_on, &mut (), &mut count);
        }
    }
    let kings = capture_origins::<BLACK>(view) & view.my_kings;
    for_each_capture::<BLACK, (), _>(view, kings, &mut count);
    single_jumps + routes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::parse_fen;

    /// Counting must agree with the moves visited where men's captures end at once, go on,
    /// end on the crowning row, and mix with kings' captures (the counting takes men's single
    /// jumps all at once and follows the rest).
    #[test]
    fn counted_captures_are_the_captures_visited() {
        for (fen, men_multi_jumps) in [
            ("B:W6,15:B1", 1),
            ("B:W6,7,15,16:B1,2", 3),
            ("W:W27:B23,15,24,16", 2),
            ("B:W22,23,30:B18", 0),
            ("W:W5,6,K7,31:B1,2,K3,9,10,11,27", 0),
            ("B:W6,14,15,22,23,30:BK1,2,3", 2),
        ] {
            let position = parse_fen(fen).expect(fen);
            let mut moves = Vec::new();
            for_each_move(&position, |mv| moves.push(*mv));
            assert!(moves.iter().all(Move::is_capture), "{fen}");
            assert_eq!(count_moves(&position), moves.len() as u64, "{fen}");
            let kings = position.kings();
            let multi = moves
                .iter()
                .filter(|mv| kings & (1 << mv.from().index()) == 0 && mv.landings().len() > 1)
                .count();
            assert_eq!(multi, men_multi_jumps, "{fen}");
        }
    }
}
