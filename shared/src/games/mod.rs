//! The games kingme knows, one folder each, all behind the [`crate::Game`] trait, and
//! [`spec`]: which rule variants each is played under, and the one way to start a game of one.

pub mod checkers;
pub mod pente;
pub mod spec;
pub mod tictactoe;
