//! Checkers for the search: make/unmake by copying the 16-byte position, the draw rules seen
//! coming (a position repeated since the last irreversible move scores as a draw, as does the
//! forty-move rule), captures first in the move order, and a capture extension so that no search
//! stops in the middle of an exchange.
//!
//! The classic levels count material only (a man 100, a king 175, a side without a move has lost);
//! `expert` uses [`super::checkers_eval`].

use super::checkers_eval::{expert_eval, material};
use super::classic::{Request, classic, expert};
use super::level::Level;
use super::search::{Found, SearchGame};
use super::zobrist::checkers_key;
use crate::game::Side;
use crate::games::checkers::{
    Checkers, FORTY_MOVE_PLIES, Move, Position, for_each_move, has_capture,
};
use rand::rngs::StdRng;

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
}

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
        }
    }
}

impl SearchGame for CheckersSearch {
    type Move = Move;
    type Undo = (Position, usize);

    fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        for_each_move(&self.position, |mv| out.push(*mv));
    }

    fn make(&mut self, mv: Move) -> (Position, usize) {
        let undo = (self.position, self.reversible_from);
        let irreversible = mv.is_capture() || self.position.moves_a_man(&mv);
        self.position.play_unchecked(&mv);
        self.keys.push(checkers_key(&self.position));
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
            expert_eval(&self.position)
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

/// The move for a level.
pub fn choose(game: &Checkers, request: &Request<'_>, rng: &mut StdRng) -> Option<Found<Move>> {
    let mut search = CheckersSearch::new(game, request.level == Level::Expert);
    if request.level == Level::Expert {
        expert(&mut search, TABLE_BITS, request, rng)
    } else {
        classic(&mut search, request.classic_depth(), request, rng)
    }
}
