//! kingme-shared: the rules of the games, the AI and the wire protocol.
//!
//! The rules (`games/` and their vocabulary: `game.rs`, `any_game.rs`, `domain/`...), the records
//! (`record/`) and the protocol (`protocol/`) are pure and deterministic: no files, sockets,
//! clock, OS randomness or tokio (the tidy test `shared_rules_do_no_io_and_read_no_clock` keeps
//! it so). Around them, each in one named place: the AI reads its time limit by the clock handed
//! in with its limits (`ai/clock.rs`), endgame databases are files (`ai/egdb/`), `identity.rs`
//! draws keys and nonces from the OS, and with the `codec` feature `tokio_codec.rs` adapts the
//! frame codec to tokio-util. The server and the client both build on it, so a rule is written
//! once and judged the same everywhere.

pub mod ai;
pub mod any_game;
pub mod board_view;
#[cfg(test)]
pub(crate) mod conformance;
pub mod cpu;
pub mod domain;
pub mod fuzzing;
pub mod game;
pub mod game_kind;
pub mod games;
pub mod grown_list;
pub mod identity;
pub mod protocol;
pub mod record;
pub mod review;
pub mod side;
#[cfg(feature = "tls")]
pub mod tls;
#[cfg(feature = "codec")]
mod tokio_codec;

pub use any_game::{AnyGame, AnyMove, GameKind};
pub use game::{DrawReason, Game, MoveEffect, MoveError, Outcome, PositionError, Side, WinReason};
pub use games::spec::{GameSpec, SpecError, StartError, Variant};
