//! English checkers (American checkers) on bitboards.
//!
//! The 32 dark squares are numbered 1..32; Black starts on 1..12 and moves first, White starts on
//! 21..32. Men step diagonally forward, kings both ways, one square at a time. Captures are
//! compulsory, any capture may be chosen, a multi-jump is one move, men capture forward only, and
//! a man that reaches the far row is crowned and ends its move there. A side with no legal move
//! loses; threefold repetition and the forty-move rule draw (see [`Checkers`]).
//!
//! Files: `bitboard` (the geometry as masks and shifts), `square`, `moves` (the move as a whole
//! path), `position` (pieces and side to move), `movegen`, `perft`, `state` (the game with its
//! history and the [`crate::Game`] implementation), `fen`, `board_file`, `notation`, `pdn` (game records as PDN), and
//! `properties` (property tests over random playouts and random positions).

mod bitboard;
mod board_file;
mod fen;
mod movegen;
mod moves;
mod notation;
mod perft;
mod position;
#[cfg(test)]
mod properties;
mod square;
mod state;

pub use bitboard::Direction;
pub use board_file::{BoardFile, BoardFileError, MAX_BOARD_FILE_LEN, MAX_TIME_LIMIT};
pub use fen::{MAX_FEN_LEN, fen, parse_fen};
pub use movegen::{count_moves, for_each_move, has_capture, has_moves, push_moves};
pub use moves::{MAX_LANDINGS, Move, jumped_square};
pub use notation::{
    MoveText, full_move_text, legal_move_list, move_text, parse_move, parse_move_text,
};
pub use perft::{perft, perft_in};
pub use position::{MAX_PIECES, Piece, Position, crowning_row, side_name};
pub use square::Square;
pub use state::{Checkers, FORTY_MOVE_PLIES, REPETITIONS_FOR_DRAW};
