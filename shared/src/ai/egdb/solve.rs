//! The retrograde analysis: every position of 2 to N pieces solved, fewer pieces first so every
//! capture lands in a solved slice. Inside one piece count, a slice and its colour-swapped twin
//! (a move of Black in one lands, turned round, in the other) are solved together, fewest men
//! first, so every promotion lands in a solved pair too.
//!
//! A pair is solved the classic way: each position is looked at once, forward, to count its
//! moves that stay in the pair and to settle it if a capture or promotion already wins (or if it
//! has no move: lost); then each settled position is taken back by un-moves to the positions
//! that lead to it: one that can move into a lost position is won, and one whose last move into
//! the pair turns out won for the opponent (its count reaches zero, and no capture or promotion
//! escapes to a draw) is lost. What is never settled is a draw. The work is proportional to
//! the positions, not to the positions times the longest win.

use super::index::{Counts, SliceMap, flip, for_each_position, index_of, normalise};
use super::{DRAW, LOSS, NONE, Verdict, WIN};
use crate::game::Side;
use crate::games::checkers::{Direction, Position, for_each_move, has_capture};

/// Solved slices, packed four codes (see [`Verdict::code`]) a byte, in index order.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    max_pieces: u32,
    slices: Vec<(Counts, Vec<u8>)>,
    lookup: SliceMap<usize>,
}

/// Where a build is, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The piece count being solved.
    pub pieces: u32,
    /// The slice being solved (with its colour-swapped twin).
    pub counts: Counts,
    /// Positions looked at so far, of `total`.
    pub done: u64,
    /// Every position of the build.
    pub total: u64,
}

/// The two bits of `index` in packed codes.
#[inline]
#[must_use]
pub fn packed_code(packed: &[u8], index: u64) -> u8 {
    usize::try_from(index / 4)
        .ok()
        .and_then(|at| packed.get(at))
        .map_or(NONE, |byte| (byte >> (2 * (index % 4))) & 3)
}

/// Codes packed four a byte.
#[must_use]
pub fn pack(codes: &[u8]) -> Vec<u8> {
    codes
        .chunks(4)
        .map(|four| {
            four.iter()
                .enumerate()
                .fold(0u8, |byte, (i, &code)| byte | ((code & 3) << (2 * i)))
        })
        .collect()
}

impl Tables {
    /// The largest piece count solved.
    #[must_use]
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The slices in the order they were solved, with their packed codes.
    #[must_use]
    pub fn slices(&self) -> &[(Counts, Vec<u8>)] {
        &self.slices
    }

    /// The verdict for the side to move, when the position is in the tables.
    #[must_use]
    pub fn verdict(&self, position: &Position) -> Option<Verdict> {
        Verdict::from_code(self.code(&normalise(position)))
    }

    /// The code of a position with Black to move (`NONE` when it is not in the tables).
    fn code(&self, black_to_move: &Position) -> u8 {
        match self.lookup.get(Counts::of(black_to_move)) {
            Some(&slot) => packed_code(&self.slices[slot].1, index_of(black_to_move)),
            None => NONE,
        }
    }

    /// A CRC-32 of every verdict, slice by slice in order (packed as [`pack`] packs them): two
    /// builds gave the same verdicts when their checksums agree.
    #[must_use]
    pub fn checksum(&self) -> u32 {
        let mut hasher = crc32fast::Hasher::new();
        for (_, packed) in &self.slices {
            hasher.update(packed);
        }
        hasher.finalize()
    }

    /// Adds a solved slice (packed codes, as read from a file).
    pub fn insert(&mut self, counts: Counts, packed: Vec<u8>) {
        if self.lookup.insert(counts, self.slices.len()) {
            self.max_pieces = self.max_pieces.max(counts.total());
            self.slices.push((counts, packed));
        }
    }
}

/// Undecided positions keep the number of their moves into the pair not yet known to lose,
/// above this base; `NO_LOSS` marks an undecided position that a capture or promotion already
/// saves from losing (it can still turn out won). A position the forward look settles is marked
/// pending until the walk that takes it back reaches it.
const COUNT_BASE: u8 = 4;
const NO_LOSS: u8 = 251;
const PENDING_WIN: u8 = 252;
const PENDING_LOSS: u8 = 253;

/// Solves every position with 2 to `max_pieces` pieces, reporting as it goes.
#[must_use]
pub fn solve(max_pieces: u32, mut progress: impl FnMut(Progress)) -> Tables {
    let mut tables = Tables::default();
    let total: u64 = (2..=max_pieces)
        .flat_map(Counts::with_total)
        .map(Counts::entries)
        .sum();
    let mut done = 0;
    for pieces in 2..=max_pieces {
        let mut slices = Counts::with_total(pieces);
        // Fewest men first: a promotion leads to a slice with one man fewer.
        slices.sort_by_key(|counts| (counts.men(), *counts));
        for counts in slices {
            if tables.lookup.get(counts).is_some() {
                continue;
            }
            let twin = counts.flipped();
            let pair: Vec<Counts> = if twin == counts {
                vec![counts]
            } else {
                vec![counts, twin]
            };
            let mut pair_solver = Pair::new(&tables, &pair);
            pair_solver.settle_forward(|looked| {
                progress(Progress {
                    pieces,
                    counts,
                    done: done + looked,
                    total,
                });
            });
            pair_solver.propagate();
            let solved = pair_solver.finish();
            done += pair.iter().map(|c| c.entries()).sum::<u64>();
            for (counts, codes) in pair.iter().zip(solved) {
                tables.insert(*counts, pack(&codes));
            }
            progress(Progress {
                pieces,
                counts,
                done,
                total,
            });
        }
    }
    tables
}

/// One pair of slices being solved: a state byte a position.
struct Pair<'a> {
    solved: &'a Tables,
    counts: Vec<Counts>,
    states: Vec<Vec<u8>>,
}

/// Which slice of the pair holds these counts.
#[inline]
fn member(pair: &[Counts], counts: Counts) -> Option<usize> {
    pair.iter().position(|&c| c == counts)
}

impl<'a> Pair<'a> {
    fn new(solved: &'a Tables, counts: &[Counts]) -> Pair<'a> {
        Pair {
            solved,
            counts: counts.to_vec(),
            states: counts
                .iter()
                .map(|c| vec![NONE; usize::try_from(c.entries()).unwrap_or(0)])
                .collect(),
        }
    }

    /// Looks at every position once, in index order: counts its moves into the pair, settles it
    /// (pending) when it has no move or a capture or promotion decides it.
    fn settle_forward(&mut self, mut looked: impl FnMut(u64)) {
        let mut before = 0u64;
        let (solved, pair) = (self.solved, self.counts.as_slice());
        for (&counts, states) in pair.iter().zip(&mut self.states) {
            let mut reported = 0;
            for_each_position(counts, |index, position| {
                if index >> 20 != reported {
                    reported = index >> 20;
                    looked(before + index);
                }
                states[index as usize] = match first_look(solved, pair, position) {
                    WIN => PENDING_WIN,
                    LOSS => PENDING_LOSS,
                    state => state,
                };
            });
            before += counts.entries();
        }
    }

    /// Walks the pair in index order and takes back every position the forward look settled,
    /// and (depth first) every position that settles in turn, until nothing more settles.
    fn propagate(&mut self) {
        let mut before = Vec::with_capacity(32);
        let mut stack: Vec<(usize, u32, Position)> = Vec::new();
        let pair = self.counts.as_slice();
        let states = &mut self.states;
        for (slice, &counts) in pair.iter().enumerate() {
            for_each_position(counts, |index, position| {
                let state = &mut states[slice][index as usize];
                let code = match *state {
                    PENDING_WIN => WIN,
                    PENDING_LOSS => LOSS,
                    _ => return,
                };
                *state = code;
                take_back(pair, states, position, code, &mut before, &mut stack);
                while let Some((slice, index, position)) = stack.pop() {
                    let code = states[slice][index as usize];
                    take_back(pair, states, &position, code, &mut before, &mut stack);
                }
            });
        }
    }

    /// The codes: what never settled is a draw.
    fn finish(self) -> Vec<Vec<u8>> {
        self.states
            .into_iter()
            .map(|mut states| {
                for state in &mut states {
                    if *state >= COUNT_BASE {
                        *state = DRAW;
                    }
                }
                states
            })
            .collect()
    }
}

/// The state of a position from its own moves.
fn first_look(solved: &Tables, pair: &[Counts], position: &Position) -> u8 {
    let (mut inside, mut moves, mut wins, mut escapes) = (0u8, 0, false, false);
    for_each_move(position, |mv| {
        moves += 1;
        let child = position.after(mv);
        // A quiet move that crowns nothing stays in the pair (in the twin, turned round).
        if !mv.is_capture() && child.kings().count_ones() == position.kings().count_ones() {
            inside = inside.saturating_add(1);
            return;
        }
        if child.white() == 0 {
            wins = true;
            return;
        }
        let turned = flip(&child);
        if member(pair, Counts::of(&turned)).is_some() {
            inside = inside.saturating_add(1);
            return;
        }
        match solved.code(&turned) {
            LOSS => wins = true,
            WIN => {}
            _ => escapes = true,
        }
    });
    if wins {
        WIN
    } else if moves == 0 || (inside == 0 && !escapes) {
        LOSS
    } else if escapes {
        NO_LOSS
    } else {
        COUNT_BASE + inside.min(NO_LOSS - COUNT_BASE - 1)
    }
}

/// Tells the predecessors of a settled position (`code` WIN or LOSS) in the pair; those that
/// settle by it go on `stack`, with their positions (so none is unranked).
fn take_back(
    pair: &[Counts],
    states: &mut [Vec<u8>],
    position: &Position,
    code: u8,
    before: &mut Vec<Position>,
    stack: &mut Vec<(usize, u32, Position)>,
) {
    before.clear();
    predecessors(position, before);
    for earlier in before.iter() {
        let Some(at) = member(pair, Counts::of(earlier)) else {
            continue;
        };
        let Ok(earlier_index) = usize::try_from(index_of(earlier)) else {
            continue;
        };
        let state = &mut states[at][earlier_index];
        if *state < COUNT_BASE || *state > NO_LOSS {
            continue;
        }
        if code == LOSS {
            *state = WIN;
        } else if *state == NO_LOSS {
            continue;
        } else if *state == COUNT_BASE + 1 {
            *state = LOSS;
        } else {
            *state -= 1;
            continue;
        }
        stack.push((at, earlier_index as u32, *earlier));
    }
}

/// The positions with Black to move from which a quiet move of Black (no capture, no
/// promotion) leads to `position` turned round (so that White is to move there). A quiet move
/// is only legal where Black has no capture, so positions with one are left out.
pub fn predecessors(position: &Position, out: &mut Vec<Position>) {
    // The position as it stands after Black's move, White to move.
    let after = flip(position);
    let kings = after.kings();
    let black = after.black();
    let empty = after.empty();
    for direction in Direction::ALL {
        // Where each Black piece could have come from: one step back along `direction`.
        let back = direction.reverse();
        let men_may = matches!(direction, Direction::DownLeft | Direction::DownRight);
        let movers = if men_may { black } else { black & kings };
        let mut origins = back.step(movers) & empty;
        while origins != 0 {
            let from = origins & origins.wrapping_neg();
            origins &= origins - 1;
            let to = direction.step(from);
            let was_king = kings & to != 0;
            let new_kings = if was_king {
                (kings & !to) | from
            } else {
                kings
            };
            if let Ok(earlier) =
                Position::from_parts((black & !to) | from, after.white(), new_kings, Side::First)
                && !has_capture(&earlier)
            {
                out.push(earlier);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::index::position_at;
    use super::*;
    use crate::games::checkers::push_moves;
    use std::collections::HashMap;

    /// A plain depth-limited search with the rules alone, remembered by position and depth:
    /// whether the side to move wins within `plies` (`want` = WIN) or loses within them
    /// (`want` = LOSS). Shares nothing with the analysis but the move generator.
    struct Plain(HashMap<(Position, u32, u8), bool>);

    impl Plain {
        fn forced(&mut self, position: Position, plies: u32, want: u8) -> bool {
            if let Some(&known) = self.0.get(&(position, plies, want)) {
                return known;
            }
            let mut moves = Vec::new();
            push_moves(&position, &mut moves);
            let answer = if moves.is_empty() {
                want == LOSS
            } else if plies == 0 {
                false
            } else if want == WIN {
                moves
                    .iter()
                    .any(|mv| self.forced(position.after(mv), plies - 1, LOSS))
            } else {
                moves
                    .iter()
                    .all(|mv| self.forced(position.after(mv), plies - 1, WIN))
            };
            self.0.insert((position, plies, want), answer);
            answer
        }

        fn verdict(&mut self, position: Position, horizon: u32) -> Verdict {
            if self.forced(position, horizon, WIN) {
                Verdict::Win
            } else if self.forced(position, horizon, LOSS) {
                Verdict::Loss
            } else {
                Verdict::Draw
            }
        }
    }

    /// Every position of a slice, with Black to move and turned round with White to move.
    fn both_sides(counts: Counts) -> impl Iterator<Item = Position> {
        (0..counts.entries())
            .filter_map(move |index| position_at(counts, index))
            .flat_map(|position| [position, flip(&position)])
    }

    #[test]
    fn two_kings_against_one_agree_with_the_plain_search_and_the_kings_to_move_never_lose() {
        let tables = solve(3, |_| {});
        let two_kings = Counts {
            black_men: 0,
            black_kings: 2,
            white_men: 0,
            white_kings: 1,
        };
        let mut plain = Plain(HashMap::new());
        // Long enough for the slowest two-kings win (the lone king in a double corner).
        let horizon = 40;
        let mut tally = [[0u32; 3]; 2];
        for slice in [two_kings, two_kings.flipped()] {
            for position in both_sides(slice) {
                let expected = plain.verdict(position, horizon);
                assert_eq!(tables.verdict(&position), Some(expected), "{position:?}");
                let kings = position.pieces(position.side_to_move()).count_ones() == 2;
                tally[usize::from(kings)][expected.code() as usize - 1] += 1;
            }
        }
        let [
            [lone_wins, lone_losses, lone_draws],
            [kings_win, kings_lose, kings_draw],
        ] = tally;
        // The lone king to move wins only by taking both kings in one move and draws by taking
        // one: it mostly loses.
        assert!(lone_wins > 0 && lone_draws > 0, "{tally:?}");
        assert!(lone_wins + lone_draws < lone_losses, "{tally:?}");
        // The kings to move never lose and nearly always win; the few draws (a king cramped in
        // the single corner must be given up) are confirmed by the plain search above.
        assert_eq!(kings_lose, 0);
        assert!(kings_draw * 100 < kings_win, "{tally:?}");
        assert_eq!(kings_win + kings_draw, 2 * 32 * 465, "{tally:?}");
    }

    #[test]
    fn every_two_piece_verdict_matches_the_plain_search() {
        let tables = solve(2, |_| {});
        let mut plain = Plain(HashMap::new());
        let mut counted = [0u32; 3];
        for counts in Counts::with_total(2) {
            for position in both_sides(counts) {
                let expected = plain.verdict(position, 40);
                assert_eq!(tables.verdict(&position), Some(expected), "{position:?}");
                counted[expected.code() as usize - 1] += 1;
            }
        }
        // A man against a man wins for one side or the other in many positions; kings draw.
        assert!(counted.iter().all(|&n| n > 0), "{counted:?}");
    }

    #[test]
    fn predecessors_lead_back_by_a_legal_quiet_move() {
        let position = crate::games::checkers::parse_fen("B:W10,K19:B14,K27").expect("a FEN");
        let mut before = Vec::new();
        predecessors(&position, &mut before);
        assert!(!before.is_empty());
        for earlier in &before {
            let mut moves = Vec::new();
            push_moves(earlier, &mut moves);
            let reached = moves
                .iter()
                .filter(|mv| flip(&earlier.after(mv)) == position)
                .count();
            assert_eq!(reached, 1, "{earlier:?}");
        }
    }
}
