//! The rules against their plain references in one test binary, built optimised (the
//! workspace's test profile gives this crate `opt-level = 3`): the fast rules on tens of
//! thousands of positions ([`differential`]), and the endgame databases solved again
//! ([`egdb_reference`]).

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

mod differential;
mod egdb_reference;
