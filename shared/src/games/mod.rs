//! The games kingme knows, one folder each, all behind the [`crate::Game`] trait.

pub mod checkers;
pub mod pente;
pub mod tictactoe;
