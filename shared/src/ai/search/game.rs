//! What a game implements to be searched ([`SearchGame`]): make and unmake, evaluation, hash,
//! ordering hints, and whether a node must be searched further even at depth zero.

/// What the search needs of a game. Scores are from the side to move's point of view.
pub trait SearchGame {
    /// A move: small and `Copy`.
    type Move: Copy + PartialEq + std::fmt::Debug;
    /// What [`SearchGame::make`] returns so that [`SearchGame::unmake`] can restore the position.
    type Undo: Copy;

    /// Fills `out` (cleared first) with the moves to search here. Levels that search fewer
    /// candidates than the legal moves (Pente) still only offer legal ones.
    fn generate(&mut self, out: &mut Vec<Self::Move>);
    /// Plays a generated move.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the last move made.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// The score if the game is over here (a loss is `-MATE`, a draw 0), before the ply
    /// adjustment; `None` while it goes on. No legal move is scored by the search itself.
    fn terminal(&self) -> Option<i32>;
    /// The static evaluation, within `-MATE_BOUND..MATE_BOUND`.
    fn evaluate(&self) -> i32;
    /// A hash of everything that decides the score (pieces, side to move).
    fn key(&self) -> u64;
    /// The exact value of the position when something outside the search knows it (an endgame
    /// database): searched no further. Not a mate score, so within `-MATE_BOUND..MATE_BOUND`.
    /// Not asked where [`SearchGame::extend`] holds and the search extends.
    /// `depth` is the depth left (zero or less at the horizon), for a game whose probes cost
    /// too much to make at every leaf.
    fn probe(&self, depth: i32) -> Option<i32> {
        let _ = depth;
        None
    }
    /// Whether a node at depth zero must still be searched (a capture pending in checkers), so
    /// the search never stops in the middle of an exchange.
    fn extend(&self) -> bool {
        false
    }
    /// Appends to `moves` the legal moves that [`SearchGame::generate`] left out, for a node
    /// where every generated move loses: a forced loss is only believed once they lose too.
    /// Games that generate every move add nothing.
    fn widen(&mut self, _moves: &mut Vec<Self::Move>) {}
    /// The evaluation's natural unit (a man in checkers), which the warm levels' temperature is
    /// counted in.
    fn temperature_unit(&self) -> i32 {
        100
    }
    /// Whether `mv` (a move of this position) is quiet enough to be searched a ply shallower
    /// when it comes late in the order (late-move reductions): one that wins or changes nothing
    /// at once (in checkers, neither a capture nor a crowning). Games that say no (the default)
    /// are searched at full depth.
    fn reducible(&self, _mv: &Self::Move) -> bool {
        false
    }
    /// At a node with `depth` left, how many moves are searched at most once one of them has
    /// been found not to lose (late-move pruning); `None` (the default) searches them all.
    fn searched_moves(&self, _depth: i32) -> Option<usize> {
        None
    }
    /// A static ordering hint: higher is searched first (captures, threats).
    fn order_hint(&self, _mv: &Self::Move) -> i32 {
        0
    }
    /// An index below [`HISTORY_SIZE`] for the history heuristic (for example from and to).
    fn history_index(&self, mv: &Self::Move) -> usize;
}

/// Slots of the history table; [`SearchGame::history_index`] stays below this.
pub const HISTORY_SIZE: usize = 1024;
