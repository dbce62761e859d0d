//! The analysis: all slices with the same number of pieces are solved together by fixed-point
//! iteration over the rules (a position is won when some move reaches a position lost for the
//! opponent, lost when it has no move or every move reaches a position won for the opponent),
//! smaller piece counts first so that every capture lands in a solved slice; what is never
//! decided is a draw. Every position of every slice is visited on each pass, so the work is the
//! positions times the longest win; simple and exact, fine up to four or five pieces.

use super::index::{Counts, index_of, position_at};
use super::{DRAW, LOSS, NONE, Verdict, WIN};
use crate::games::checkers::{Move, Position, push_moves};
use std::collections::HashMap;

/// Solved slices, one code (see [`Verdict::code`]) a byte while in memory.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    pub max_pieces: u32,
    pub slices: Vec<(Counts, Vec<u8>)>,
    lookup: HashMap<Counts, usize>,
}

/// Where a build is, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The piece count being solved.
    pub pieces: u32,
    /// Passes over its slices so far.
    pub pass: u32,
    /// Positions decided in the last pass.
    pub decided: u64,
}

impl Tables {
    /// The verdict for a position of at most `max_pieces` pieces, both sides on the board.
    #[must_use]
    pub fn verdict(&self, position: &Position) -> Option<Verdict> {
        let counts = Counts::of(position);
        let slot = *self.lookup.get(&counts)?;
        let code = *self.slices[slot]
            .1
            .get(usize::try_from(index_of(position)).ok()?)?;
        Verdict::from_code(code)
    }

    /// Adds a slice (as read from a file).
    pub fn insert(&mut self, counts: Counts, codes: Vec<u8>) {
        self.lookup.insert(counts, self.slices.len());
        self.max_pieces = self.max_pieces.max(counts.total());
        self.slices.push((counts, codes));
    }

    /// The code of the position after a move: from the point of view of the side to move there.
    fn code_after(&self, after: &Position) -> u8 {
        if after.pieces(after.side_to_move()) == 0 {
            return LOSS;
        }
        let counts = Counts::of(after);
        match self.lookup.get(&counts) {
            Some(&slot) => usize::try_from(index_of(after))
                .ok()
                .and_then(|i| self.slices[slot].1.get(i).copied())
                .unwrap_or(NONE),
            None => NONE,
        }
    }
}

/// Solves every position with 2 to `max_pieces` pieces, reporting each pass.
#[must_use]
pub fn solve(max_pieces: u32, mut progress: impl FnMut(Progress)) -> Tables {
    let mut tables = Tables::default();
    for pieces in 2..=max_pieces {
        let slices = Counts::with_total(pieces);
        let first = tables.slices.len();
        for &counts in &slices {
            let codes = initial_codes(counts);
            tables.insert(counts, codes);
        }
        tables.max_pieces = max_pieces.max(pieces);
        let mut moves: Vec<Move> = Vec::new();
        let mut pass = 0;
        loop {
            pass += 1;
            let mut decided = 0;
            for slot in first..tables.slices.len() {
                let counts = tables.slices[slot].0;
                for index in 0..tables.slices[slot].1.len() {
                    if tables.slices[slot].1[index] != DRAW {
                        continue;
                    }
                    let Some(position) = position_at(counts, index as u64) else {
                        continue;
                    };
                    moves.clear();
                    push_moves(&position, &mut moves);
                    let mut all_won = true;
                    let mut found = None;
                    for mv in &moves {
                        match tables.code_after(&position.after(mv)) {
                            LOSS => {
                                found = Some(WIN);
                                break;
                            }
                            WIN => {}
                            _ => all_won = false,
                        }
                    }
                    let code = found.or(all_won.then_some(LOSS));
                    if let Some(code) = code {
                        tables.slices[slot].1[index] = code;
                        decided += 1;
                    }
                }
            }
            progress(Progress {
                pieces,
                pass,
                decided,
            });
            if decided == 0 {
                break;
            }
        }
    }
    tables
}

/// A slice before analysis: no position marked, positions without a move lost, the rest
/// undecided (stored as a draw, which is what they stay if never decided).
fn initial_codes(counts: Counts) -> Vec<u8> {
    let entries = usize::try_from(counts.entries()).unwrap_or(0);
    let mut codes = vec![NONE; entries];
    let mut moves = Vec::new();
    for (index, code) in codes.iter_mut().enumerate() {
        if let Some(position) = position_at(counts, index as u64) {
            moves.clear();
            push_moves(&position, &mut moves);
            *code = if moves.is_empty() { LOSS } else { DRAW };
        }
    }
    codes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::games::checkers::Position;
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
    }

    fn every_position(counts: Counts) -> impl Iterator<Item = Position> {
        (0..counts.entries()).filter_map(move |index| position_at(counts, index))
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
        let (mut wins, mut losses, mut draws) = (0, 0, 0);
        let mut kings_to_move = [0u32; 3];
        for position in every_position(two_kings) {
            let verdict = tables.verdict(&position);
            let win = plain.forced(position, horizon, WIN);
            let loss = plain.forced(position, horizon, LOSS);
            let expected = match (win, loss) {
                (true, _) => Verdict::Win,
                (_, true) => Verdict::Loss,
                _ => Verdict::Draw,
            };
            assert_eq!(verdict, Some(expected), "{position:?}");
            if position.side_to_move() == Side::First {
                kings_to_move[expected.code() as usize - 1] += 1;
            }
            match expected {
                Verdict::Win => wins += 1,
                Verdict::Loss => losses += 1,
                Verdict::Draw => draws += 1,
            }
        }
        // The lone king to move draws only where it can take a king at once.
        assert!(
            wins > 0 && losses > 0 && draws > 0,
            "{wins} {losses} {draws}"
        );
        assert!(draws < losses);
        // The kings to move never lose and nearly always win; the few draws (a king cramped in
        // the single corner must be given up) are confirmed by the plain search above.
        let [kings_win, kings_lose, kings_draw] = kings_to_move;
        assert_eq!(kings_lose, 0);
        assert!(kings_draw * 100 < kings_win, "{kings_to_move:?}");
    }

    #[test]
    fn every_two_piece_verdict_matches_the_plain_search() {
        let tables = solve(2, |_| {});
        let mut plain = Plain(HashMap::new());
        let mut counted = [0u32; 3];
        for counts in Counts::with_total(2) {
            for position in every_position(counts) {
                let win = plain.forced(position, 40, WIN);
                let loss = plain.forced(position, 40, LOSS);
                let expected = if win {
                    Verdict::Win
                } else if loss {
                    Verdict::Loss
                } else {
                    Verdict::Draw
                };
                assert_eq!(tables.verdict(&position), Some(expected), "{position:?}");
                counted[expected.code() as usize - 1] += 1;
            }
        }
        // A man against a man wins for one side or the other in many positions; kings draw.
        assert!(counted.iter().all(|&n| n > 0), "{counted:?}");
    }
}
