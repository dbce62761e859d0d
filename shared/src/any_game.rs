//! The closed enum over every game, so the judge, the protocol and the UI hold "a game" without
//! generics. Each method forwards to the [`Game`] implementation of the game inside; a move of one
//! game offered to another is refused, never misread.

use crate::board_view::{BoardLayout, BoardPiece, Tally};
use crate::game::{Game, MoveEffect, MoveError, Outcome, PositionError, Side};
pub use crate::game_kind::{GameKind, UnknownGame};
use crate::games::checkers::Checkers;
use crate::games::pente::Pente;
use crate::games::tictactoe::TicTacToe;

/// A game state of any kind.
// Pente's line bitboards make its variant about a kilobyte; a server holds one per table and
// searches clone the game type itself, so boxing would only add an allocation per snapshot.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum AnyGame {
    /// A game of English checkers.
    Checkers(Checkers),
    /// A game of Pente.
    Pente(Pente),
    /// A game of noughts and crosses.
    TicTacToe(TicTacToe),
}

/// A move of any game; it only makes sense with the [`AnyGame`] of the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A checkers move.
    Checkers(<Checkers as Game>::Move),
    /// A Pente move (a point).
    Pente(<Pente as Game>::Move),
    /// A noughts-and-crosses move (a square).
    TicTacToe(<TicTacToe as Game>::Move),
}

/// Runs `$body` with `$g` bound to the game inside `$game` and `$Move` naming the matching
/// [`AnyMove`] variant, for every game: the single place where the list of games is spelled out.
macro_rules! dispatch {
    ($game:expr, |$g:ident, $Move:ident| $body:expr) => {
        match $game {
            AnyGame::Checkers($g) => {
                #[allow(unused_imports)]
                use AnyMove::Checkers as $Move;
                $body
            }
            AnyGame::Pente($g) => {
                #[allow(unused_imports)]
                use AnyMove::Pente as $Move;
                $body
            }
            AnyGame::TicTacToe($g) => {
                #[allow(unused_imports)]
                use AnyMove::TicTacToe as $Move;
                $body
            }
        }
    };
}

/// Runs `$body` with the game type bound to `$G` and `$Variant` naming the matching [`AnyGame`]
/// variant, for a [`GameKind`].
macro_rules! dispatch_kind {
    ($kind:expr, |$G:ident, $Variant:ident| $body:expr) => {
        match $kind {
            GameKind::Checkers => {
                type $G = Checkers;
                #[allow(unused_imports)]
                use AnyGame::Checkers as $Variant;
                $body
            }
            GameKind::Pente => {
                type $G = Pente;
                #[allow(unused_imports)]
                use AnyGame::Pente as $Variant;
                $body
            }
            GameKind::TicTacToe => {
                type $G = TicTacToe;
                #[allow(unused_imports)]
                use AnyGame::TicTacToe as $Variant;
                $body
            }
        }
    };
}

fn wrong_game(kind: GameKind) -> MoveError {
    MoveError::Illegal {
        got: "a move of another game".to_owned(),
        problem: format!("this table plays {kind}"),
        legal: String::new(),
    }
}

impl AnyGame {
    /// The start position of a game.
    #[must_use]
    pub fn start(kind: GameKind) -> AnyGame {
        dispatch_kind!(kind, |G, Variant| Variant(G::start()))
    }

    /// Reads a position in the game's own position text.
    pub fn from_position_text(kind: GameKind, text: &str) -> Result<AnyGame, PositionError> {
        dispatch_kind!(kind, |G, Variant| G::from_position_text(text).map(Variant))
    }

    /// Which game this is.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Checkers(_) => GameKind::Checkers,
            AnyGame::Pente(_) => GameKind::Pente,
            AnyGame::TicTacToe(_) => GameKind::TicTacToe,
        }
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        dispatch!(self, |g, _M| g.side_to_move())
    }

    /// The outcome by the rules, `None` while the game goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, |g, _M| g.outcome())
    }

    /// Every legal move.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        dispatch!(self, |g, M| g.legal_moves().into_iter().map(M).collect())
    }

    /// The texts of every legal move, in generation order.
    #[must_use]
    pub fn legal_move_texts(&self) -> Vec<String> {
        dispatch!(self, |g, _M| g
            .legal_moves()
            .iter()
            .map(|mv| g.move_text(mv))
            .collect())
    }

    /// Reads a move's text against this position.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        dispatch!(self, |g, M| g.parse_move(text).map(M))
    }

    /// Plays a move if it is legal; otherwise nothing changes.
    pub fn play(&mut self, mv: &AnyMove) -> Result<(), MoveError> {
        let kind = self.kind();
        dispatch!(self, |g, M| match mv {
            M(inner) => g.play(inner),
            #[allow(unreachable_patterns)]
            _ => Err(wrong_game(kind)),
        })
    }

    /// The standard text of a legal move.
    #[must_use]
    pub fn move_text(&self, mv: &AnyMove) -> String {
        dispatch!(self, |g, M| match mv {
            M(inner) => g.move_text(inner),
            #[allow(unreachable_patterns)]
            _ => String::from("?"),
        })
    }

    /// What a legal move does on the board.
    #[must_use]
    pub fn move_effect(&self, mv: &AnyMove) -> MoveEffect {
        dispatch!(self, |g, M| match mv {
            M(inner) => g.move_effect(inner),
            #[allow(unreachable_patterns)]
            _ => MoveEffect::default(),
        })
    }

    /// The number of move sequences of `depth` plies from here, by the game's fastest perft.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, |g, _M| g.perft(depth))
    }

    /// The position text of the current position.
    #[must_use]
    pub fn position_text(&self) -> String {
        dispatch!(self, |g, _M| g.position_text())
    }

    /// How this game names a side.
    #[must_use]
    pub fn side_name(&self, side: Side) -> &'static str {
        Self::kind_side_name(self.kind(), side)
    }

    /// How a game names a side.
    #[must_use]
    pub fn kind_side_name(kind: GameKind, side: Side) -> &'static str {
        dispatch_kind!(kind, |G, _V| G::side_name(side))
    }

    /// The board's shape as a game's standard diagram draws it.
    #[must_use]
    pub fn layout(kind: GameKind) -> BoardLayout {
        dispatch_kind!(kind, |G, _V| G::layout())
    }

    /// The square at a row and column of a game's standard diagram.
    #[must_use]
    pub fn square_at(kind: GameKind, row: u8, column: u8) -> Option<u16> {
        dispatch_kind!(kind, |G, _V| G::square_at(row, column))
    }

    /// The row and column of a square in a game's standard diagram.
    #[must_use]
    pub fn cell_of(kind: GameKind, square: u16) -> Option<(u8, u8)> {
        dispatch_kind!(kind, |G, _V| G::cell_of(square))
    }

    /// A square as a game's notation writes it.
    #[must_use]
    pub fn square_name(kind: GameKind, square: u16) -> String {
        dispatch_kind!(kind, |G, _V| G::square_name(square))
    }

    /// The pieces a setup of a game may place.
    #[must_use]
    pub fn setup_pieces(kind: GameKind) -> &'static [BoardPiece] {
        dispatch_kind!(kind, |G, _V| G::setup_pieces())
    }

    /// A position of a game with exactly these pieces, checked like a position text.
    pub fn from_pieces(
        kind: GameKind,
        pieces: &[(u16, BoardPiece)],
        side_to_move: Side,
    ) -> Result<AnyGame, PositionError> {
        dispatch_kind!(kind, |G, Variant| G::from_pieces(pieces, side_to_move)
            .map(Variant))
    }

    /// What stands on a square.
    #[must_use]
    pub fn piece_on(&self, square: u16) -> Option<BoardPiece> {
        dispatch!(self, |g, _M| g.piece_on(square))
    }

    /// Per-side counts worth showing beside the board.
    #[must_use]
    pub fn tallies(&self) -> Vec<Tally> {
        dispatch!(self, |g, _M| g.tallies())
    }

    /// Reads and plays a move's text in one step, returning the move's standard text and its
    /// effect as computed before it was played. Nothing changes on error.
    pub fn play_text(&mut self, text: &str) -> Result<(String, MoveEffect), MoveError> {
        let mv = self.parse_move(text)?;
        let standard = self.move_text(&mv);
        let effect = self.move_effect(&mv);
        self.play(&mv)?;
        Ok((standard, effect))
    }
}
