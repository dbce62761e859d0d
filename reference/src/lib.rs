//! Second, deliberately plain implementations of the rules ([`checkers`], [`pente`]), written
//! from the rule text rather than from the fast code in `kingme-shared`, so that the
//! differential tests ([`differential`]) can compare the two on many positions, and the endgame
//! databases can be solved again over them. They favour being obviously right over being fast:
//! plain arrays, one square at a time, no bit tricks, no shared helpers with the code they check.
//!
//! A crate of its own so that it alone, with its tests, is built optimised in the test profile
//! (they replay tens of thousands of positions), while the end-to-end tests build quickly.

pub mod checkers;
pub mod differential;
pub mod pente;
