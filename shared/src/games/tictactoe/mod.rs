//! Noughts and crosses (tic-tac-toe): 3x3, X moves first, three in a row wins, a full board draws.
//!
//! Squares are numbered 1..9 row by row from the top left, like a phone keypad; `a1`..`c3` is also
//! accepted, with columns a..c from the left and rows 1..3 from the bottom (so `a1` is square 7).
//! A position is written as 9 characters row by row from the top left, `X`, `O` or `-`; the side to
//! move follows from the counts.

mod board;
mod notation;
mod position;

#[cfg(test)]
mod game_tree;

pub use board::{Board, WIN_LINES};
pub use notation::{parse_square, square_text};
pub use position::{Square, TicTacToe};
