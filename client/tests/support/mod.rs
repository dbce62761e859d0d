//! Helpers shared by the client's integration tests.

pub mod bots;
