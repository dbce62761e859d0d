//! The engine tools of the `kingme` binary, one subcommand per file: each file owns its clap
//! arguments struct and a `run` function that `main.rs` calls.

pub mod analyze;
pub mod ballots;
pub mod book;
pub mod egdb;
pub mod elo_fit;
pub mod engine;
pub mod engine_match;
pub mod engine_protocol;
pub mod external_engine;
pub mod ladder;
mod match_record;
pub mod match_score;
mod openings;
pub mod perft;
mod progress;
pub mod tune;
