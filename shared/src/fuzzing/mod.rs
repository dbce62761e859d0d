//! The bodies of the fuzz targets in `tests/fuzz/`, as plain functions of the fuzzer's bytes.
//!
//! They live here, always compiled, rather than in the fuzz crate, so that the regression test
//! (`tests/tests/it/fuzz_regressions.rs`) replays a saved crash through exactly the code the fuzzer
//! ran. Each function takes arbitrary bytes and panics only when a property fails: a decoder or
//! parser that panics, a decoded value that does not survive a round trip, a move a parser accepts
//! that the rules do not list, a listed move the rules refuse. An `Err` for bad input is the
//! expected answer, not a failure.
//!
//! [`TARGETS`] names every target with its function, the one list the fuzz crate, its run script
//! and the regression test share.

mod book;
mod egdb;
mod frames;
mod identity_proof;
mod json_text;
mod moves;
mod positions;
mod script;

pub use book::book_file;
pub use egdb::egdb_file;
pub use frames::frame_decoder;
pub use identity_proof::identity_proof;
pub use json_text::json_text;
pub use moves::{checkers_move_text, legal_moves_play, pente_move_text, tictactoe_move_text};
pub use positions::{board_file, checkers_fen, pente_position, tictactoe_position};

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// Every fuzz target, by the name of its file in `tests/fuzz/fuzz_targets/`.
pub const TARGETS: [(&str, Target); 13] = [
    ("frame_decoder", frame_decoder),
    ("checkers_move_text", checkers_move_text),
    ("pente_move_text", pente_move_text),
    ("tictactoe_move_text", tictactoe_move_text),
    ("checkers_fen", checkers_fen),
    ("board_file", board_file),
    ("pente_position", pente_position),
    ("tictactoe_position", tictactoe_position),
    ("legal_moves_play", legal_moves_play),
    ("identity_proof", identity_proof),
    ("egdb_file", egdb_file),
    ("book_file", book_file),
    ("json_text", json_text),
];

/// The body of the target with this name.
#[must_use]
pub fn target(name: &str) -> Option<Target> {
    TARGETS
        .iter()
        .find(|(target, _)| *target == name)
        .map(|&(_, body)| body)
}
