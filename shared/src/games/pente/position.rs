//! The Pente game state: placing, capturing, winning, and the cheap make/unmake pair the AI
//! searches with. Its [`Game`] implementation is `game.rs`, above this and the text form.
//!
//! The state is the board, the side to move, the stones each side has captured, the rules
//! variant, and the outcome, which is decided when a move is made (a five or a tenth captured
//! stone ends the game at once) rather than recomputed on every question.

use super::board::{Board, CaptureRays};
use super::point::Point;
use super::rules::{Opening, PenteRules};
use crate::game::{DrawReason, MoveError, Outcome, Side, WinReason};

/// Stones a side must capture to win: five pairs.
pub const CAPTURES_TO_WIN: u16 = 10;

/// A Pente position with its rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pente {
    pub(super) board: Board,
    pub(super) side_to_move: Side,
    /// Opponent stones captured by each side.
    pub(super) captured: [u16; 2],
    pub(super) rules: PenteRules,
    pub(super) outcome: Option<Outcome>,
}

/// What [`Pente::play_unchecked`] changed, so that [`Pente::undo`] can put it back: the point
/// played and the pairs it captured. Four bytes; keep it on the search stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    point: Point,
    captures: CaptureRays,
}

impl Undo {
    /// The point the stone was placed on.
    #[must_use]
    pub fn point(self) -> Point {
        self.point
    }

    /// The pairs the move captured.
    #[must_use]
    pub fn captures(self) -> CaptureRays {
        self.captures
    }

    /// The points of the stones the move captured.
    pub fn captured_points(self) -> impl Iterator<Item = Point> {
        self.captures.captured_points(self.point)
    }
}

impl Default for Pente {
    fn default() -> Self {
        Pente::with_rules(PenteRules::default())
    }
}

impl Pente {
    /// The empty board, first player to move, under these rules.
    #[must_use]
    pub fn with_rules(rules: PenteRules) -> Pente {
        Pente {
            board: Board::default(),
            side_to_move: Side::First,
            captured: [0; 2],
            rules,
            outcome: None,
        }
    }

    /// The stones on the board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules this game is played under.
    #[must_use]
    pub fn rules(&self) -> PenteRules {
        self.rules
    }

    /// Opponent stones captured by `side` (twice the pairs).
    #[must_use]
    pub fn captured_by(&self, side: Side) -> u16 {
        self.captured[side.index()]
    }

    /// Stones `side` has placed in the game: those on the board and those it lost to captures.
    #[must_use]
    pub fn stones_placed(&self, side: Side) -> u16 {
        self.board.count(side) + self.captured[side.opponent().index()]
    }

    /// A hash of the whole state the search cares about: stones, side to move and captures.
    #[must_use]
    pub fn hash(&self) -> u64 {
        let side = match self.side_to_move {
            Side::First => 0,
            Side::Second => 0x9d3a_6f21_c4e8_b157,
        };
        self.board.hash()
            ^ side
            ^ u64::from(self.captured[0]).wrapping_mul(0xa24b_aed4_963e_e407)
            ^ u64::from(self.captured[1]).wrapping_mul(0x9fb2_1c65_1e98_df25)
    }

    /// The same stones and captures with the other side to move: what a threat search asks when
    /// it wants to know what a side could do with a free move. Pente has no pass; this is for
    /// analysis only.
    #[must_use]
    pub fn with_turn_passed(&self) -> Pente {
        Pente {
            side_to_move: self.side_to_move.opponent(),
            ..self.clone()
        }
    }

    /// The opening restriction on the side to move now.
    #[must_use]
    pub fn opening(&self) -> Opening {
        Opening::of(
            self.rules,
            self.side_to_move == Side::First,
            self.stones_placed(Side::First),
        )
    }

    /// Whether placing on `point` is legal now.
    #[must_use]
    pub fn is_legal(&self, point: Point) -> bool {
        self.outcome.is_none() && self.board.is_empty(point) && self.opening().allows(point)
    }

    /// Why `point` cannot be played now, or `Ok` if it can.
    pub(super) fn check_legal(&self, point: Point) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        let problem = if !self.board.is_empty(point) {
            format!("{point} is taken")
        } else if !self.opening().allows(point) {
            self.opening().reason().to_owned()
        } else {
            return Ok(());
        };
        // Listing up to 361 points would drown the message; the rule says it in a few words.
        let legal = match self.opening() {
            Opening::FirstStone => Point::CENTRE.to_string(),
            Opening::TournamentSecondStone => {
                "any empty point at least 3 rows or columns from K10".to_owned()
            }
            Opening::Free => "any empty point".to_owned(),
        };
        Err(MoveError::Illegal {
            got: point.to_string(),
            problem,
            legal,
        })
    }

    /// Places the side to move's stone on `point`, captures, decides the outcome and passes the
    /// turn, without checking legality: for searches that generated the move themselves. The
    /// returned [`Undo`] takes it back. No allocation: eight line words and the captured stones.
    pub fn play_unchecked(&mut self, point: Point) -> Undo {
        debug_assert!(self.is_legal(point), "{point} is not legal in {self:?}");
        let side = self.side_to_move;
        let opponent = side.opponent();
        self.board.place(point, side);
        let captures = self.board.capture_rays(side, point);
        for taken in captures.captured_points(point) {
            self.board.remove(taken, opponent);
        }
        self.captured[side.index()] += 2 * captures.pairs() as u16;
        self.outcome = self.outcome_after(side, point);
        self.side_to_move = opponent;
        Undo { point, captures }
    }

    /// Takes back the last [`Pente::play_unchecked`], given what it returned.
    pub fn undo(&mut self, undo: Undo) {
        let side = self.side_to_move.opponent();
        let opponent = self.side_to_move;
        for taken in undo.captured_points() {
            self.board.place(taken, opponent);
        }
        self.captured[side.index()] -= 2 * undo.captures.pairs() as u16;
        self.board.remove(undo.point, side);
        self.outcome = None;
        self.side_to_move = side;
    }

    /// The outcome once `side` has placed on `point` (and captured): a five through that point or
    /// a tenth captured stone wins; a full board draws. Five in a row is named when a move does
    /// both.
    fn outcome_after(&self, side: Side, point: Point) -> Option<Outcome> {
        if self.board.has_five_through(side, point) {
            Some(Outcome::Win {
                winner: side,
                reason: WinReason::FiveInARow,
            })
        } else {
            self.outcome_by_count(side)
        }
    }

    /// The outcome that does not depend on where the last stone went: five pairs captured by
    /// `last_mover`, or a full board.
    pub(super) fn outcome_by_count(&self, last_mover: Side) -> Option<Outcome> {
        if self.captured[last_mover.index()] >= CAPTURES_TO_WIN {
            Some(Outcome::Win {
                winner: last_mover,
                reason: WinReason::FiveCaptures,
            })
        } else if self.board.is_full() {
            Some(Outcome::Draw {
                reason: DrawReason::FullBoard,
            })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use rand::seq::IndexedRandom;

    /// A random game from the start, as the positions it passed through and the moves played.
    fn random_game(seed: u64, rules: PenteRules) -> (Vec<Pente>, Vec<Point>) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Pente::with_rules(rules);
        let (mut positions, mut moves) = (vec![game.clone()], Vec::new());
        let mut buffer = Vec::new();
        loop {
            game.generate_moves(&mut buffer);
            let Some(&point) = buffer.choose(&mut rng) else {
                break;
            };
            game.play_unchecked(point);
            positions.push(game.clone());
            moves.push(point);
        }
        (positions, moves)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

        /// Undoing every move of a random game, last first, walks back through exactly the
        /// positions it came through, hash included.
        #[test]
        fn undo_restores_every_position(seed in any::<u64>(), tournament in any::<bool>()) {
            let (positions, moves) = random_game(seed, PenteRules { tournament });
            let mut game = positions.last().expect("the start at least").clone();
            let mut undos: Vec<Undo> = Vec::new();
            // Replay from the start to collect the undo records, then take them back.
            let mut replay = positions[0].clone();
            for &point in &moves {
                undos.push(replay.play_unchecked(point));
            }
            prop_assert_eq!(&replay, &game);
            for (undo, before) in undos.iter().rev().zip(positions.iter().rev().skip(1)) {
                game.undo(*undo);
                prop_assert_eq!(&game, before);
                prop_assert_eq!(game.hash(), before.hash());
            }
        }

        /// The incrementally kept board, captures and outcome equal those of the same position
        /// read from its text, and play agrees with play_unchecked.
        #[test]
        fn incremental_state_matches_a_fresh_read(seed in any::<u64>()) {
            let (positions, moves) = random_game(seed, PenteRules::default());
            for (position, point) in positions.iter().zip(&moves) {
                let text = position.position_text();
                let fresh = Pente::from_position_text(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&fresh, position, "{}", text);
                let mut checked = position.clone();
                prop_assert!(checked.play(point).is_ok());
                let mut unchecked = position.clone();
                let undo = unchecked.play_unchecked(*point);
                prop_assert_eq!(&checked, &unchecked);
                let effect = position.move_effect(point);
                let removed: Vec<u16> = undo.captured_points().map(|p| p.index() as u16).collect();
                prop_assert_eq!(effect.removed, removed);
            }
        }
    }

    #[test]
    fn random_games_end_by_the_rules() {
        let mut reasons = std::collections::HashSet::new();
        for seed in 0..40 {
            let (positions, _) = random_game(seed, PenteRules::default());
            let last = positions.last().expect("the start at least");
            let outcome = last.outcome().expect("a random game ends");
            if let Outcome::Win { winner, reason } = outcome {
                assert_eq!(
                    winner,
                    last.side_to_move().opponent(),
                    "the last mover wins"
                );
                reasons.insert(reason);
            }
        }
        // Random play on this board ends both ways; seeing both shows neither check is dead.
        assert!(reasons.contains(&WinReason::FiveCaptures), "{reasons:?}");
        assert!(reasons.contains(&WinReason::FiveInARow), "{reasons:?}");
    }
}
