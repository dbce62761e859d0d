//! Second, deliberately plain implementations of the rules, written from the rule text rather
//! than from the fast code in `kingme-shared`, so that the differential tests
//! ([`crate::differential`]) can compare the two on many positions. They favour being obviously
//! right over being fast: plain arrays, one square at a time, no bit tricks, no shared helpers
//! with the code they check.

pub mod checkers;
pub mod pente;
