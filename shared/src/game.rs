//! The one trait every game implements, and the vocabulary around it (sides, outcomes, errors).
//!
//! The judge, the AI and the user interfaces are written once against [`Game`] (or the closed
//! enum [`crate::AnyGame`] over all games); everything game-specific lives behind it in
//! `games/<name>/`.

pub use crate::side::Side;

use crate::board_view::{BoardLayout, BoardPiece, Tally};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::hash::Hash;

/// Why a side won, by the rules of its game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinReason {
    /// The loser has no legal move (no pieces left, or all blocked).
    NoLegalMoves,
    /// Five or more stones in a row (Pente).
    FiveInARow,
    /// Five pairs captured (Pente).
    FiveCaptures,
    /// Three in a row (noughts and crosses).
    ThreeInARow,
}

/// Why a game was drawn, by the rules of its game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DrawReason {
    /// The same position with the same side to move occurred a third time.
    Repetition,
    /// The forty-move rule of checkers: 80 plies without a capture or a man's move.
    FortyMoveRule,
    /// The board is full and nobody has won.
    FullBoard,
}

/// How a game ended by its rules. Ends that are not a matter of rules (resignation, time,
/// agreement, abandonment) belong to the judge, not here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// A side won.
    Win {
        /// The side that won.
        winner: Side,
        /// By which rule.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// By which rule.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }
}

impl fmt::Display for WinReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinReason::NoLegalMoves => "the opponent has no legal move",
            WinReason::FiveInARow => "five in a row",
            WinReason::FiveCaptures => "five pairs captured",
            WinReason::ThreeInARow => "three in a row",
        })
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::FortyMoveRule => "the forty-move rule",
            DrawReason::FullBoard => "the board is full",
        })
    }
}

/// A move text that could not be turned into a legal move. The messages say what was expected
/// and what to do, because they go straight to a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation at all.
    #[error("expected {expected}, got {got:?}: {problem}")]
    Syntax {
        /// What the notation expects, in words.
        expected: &'static str,
        /// The text as given.
        got: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Well-formed, but not a legal move in this position.
    #[error("{got:?} is not a legal move here: {problem}; legal moves: {legal}")]
    Illegal {
        /// The text as given.
        got: String,
        /// Why the rules refuse it.
        problem: String,
        /// The legal moves, as text.
        legal: String,
    },
    /// The short form fits several legal moves; the long form picks one.
    #[error("{got:?} is ambiguous: write one of {candidates}")]
    Ambiguous {
        /// The text as given.
        got: String,
        /// The legal moves it may mean, as text.
        candidates: String,
    },
    /// Nothing can be played: the game has ended.
    #[error("the game is over")]
    GameOver,
}

/// A position text (FEN, board file, position string) that could not be read, or that
/// describes an impossible position. The message names the problem and where it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PositionError {
    /// What is wrong, for people.
    pub message: String,
}

impl PositionError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        PositionError {
            message: message.into(),
        }
    }
}

/// What a move does on the board, for a client to animate it: the squares the moving piece
/// visits in order (for a placement, just the point placed on), and the squares emptied by it.
/// Square numbers are each game's own (checkers 1..32, noughts and crosses 1..9, Pente
/// `row * 19 + column` from the bottom left, 0..361).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveEffect {
    /// Squares the moving piece visits, in order (a placement: the point placed on).
    pub path: Vec<u16>,
    /// Squares emptied by the move (captured pieces).
    pub removed: Vec<u16>,
}

/// The rules of one game: positions, legal moves, outcomes and notation.
///
/// A value of a `Game` type is a whole game state: the position plus whatever history the rules
/// need (repetition, move counters). Cloning it is how a judge keeps snapshots for takebacks.
pub trait Game: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// A move, small and `Copy`, meaningful only together with the position it was made for.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;

    /// Which game this is.
    const KIND: crate::GameKind;

    /// The standard start position.
    fn start() -> Self;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Side;

    /// Fills `out` (cleared first) with every legal move, none if the game is over. Reusing one
    /// buffer means generation allocates nothing once the buffer has grown.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a move if it is legal; an illegal move is an error and leaves `self` unchanged.
    fn play(&mut self, mv: &Self::Move) -> Result<(), MoveError>;

    /// The outcome by the rules, `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Reads a move's text against this position: any accepted form, checked for legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The standard text of a legal move in this position (the shortest unambiguous form).
    fn move_text(&self, mv: &Self::Move) -> String;

    /// What a legal move does on the board, for animation.
    fn move_effect(&self, mv: &Self::Move) -> MoveEffect;

    /// Reads this game's position text (see each game's notation), rejecting impossible ones.
    fn from_position_text(text: &str) -> Result<Self, PositionError>;

    /// This game's position text of the current position; [`Game::from_position_text`] reads it
    /// back to an equal position.
    fn position_text(&self) -> String;

    /// How this game names a side ("Black", "X", "first player", ...).
    fn side_name(side: Side) -> &'static str;

    /// The board's shape as the game's standard diagram draws it.
    fn layout() -> BoardLayout;

    /// The square number (as in [`MoveEffect`]) at a row and column of the standard diagram,
    /// row 0 at the top; `None` where no piece can stand (light squares).
    fn square_at(row: u8, column: u8) -> Option<u16>;

    /// The row and column of a square number in the standard diagram; `None` off the board.
    fn cell_of(square: u16) -> Option<(u8, u8)>;

    /// A square number as this game's notation writes it ("14", "K10", "5").
    fn square_name(square: u16) -> String;

    /// What stands on a square.
    fn piece_on(&self, square: u16) -> Option<BoardPiece>;

    /// Per-side counts worth showing beside the board (none unless the game has some).
    fn tallies(&self) -> Vec<Tally> {
        Vec::new()
    }

    /// The pieces a setup may place, in the order a setup board offers them.
    fn setup_pieces() -> &'static [BoardPiece];

    /// A position with exactly these pieces and this side to move, checked as strictly as a
    /// position text (it goes through [`Game::from_position_text`]).
    fn from_pieces(pieces: &[(u16, BoardPiece)], side_to_move: Side)
    -> Result<Self, PositionError>;

    /// Every legal move, in a fresh vector.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Whether the game is over by its rules.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The number of move sequences of `depth` plies from here (see [`perft`]); games with a
    /// faster counter override it.
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    /// The legal moves' texts, separated by commas, for error messages.
    fn legal_move_list(&self) -> String {
        let texts: Vec<String> = self
            .legal_moves()
            .iter()
            .map(|mv| self.move_text(mv))
            .collect();
        if texts.is_empty() {
            "none".to_owned()
        } else {
            texts.join(", ")
        }
    }
}

/// Counts the positions reached after exactly `depth` plies of legal moves (a game that ends
/// sooner adds nothing, as in chess perft).
/// This generic version serves every game through the trait; games may offer faster ones.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    fn walk<G: Game>(game: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return 1;
        };
        game.generate_moves(moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut nodes = 0;
        for mv in moves.iter() {
            let mut child = game.clone();
            if child.play(mv).is_ok() {
                nodes += walk(&child, depth - 1, rest);
            }
        }
        nodes
    }
    if depth == 0 {
        return 1;
    }
    let mut buffers = vec![Vec::new(); depth as usize];
    walk(game, depth, &mut buffers)
}
