//! The door to the server's fuzz target bodies (`tests/fuzz/`, and the regression test that
//! replays saved inputs): the configuration file reader's, from `config/fuzzing.rs`.

pub use crate::config::fuzzing::{TARGETS, config_file, target};
