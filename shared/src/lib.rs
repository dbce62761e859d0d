//! kingme-shared: the rules of the games, the AI and the wire protocol.
//!
//! Everything here is pure and deterministic: no tokio, no sockets, no clock. The server and the
//! client both build on it, so a rule is written once and judged the same everywhere.

pub mod ai;
pub mod any_game;
pub mod board_view;
#[cfg(test)]
pub(crate) mod conformance;
pub mod domain;
pub mod fuzzing;
pub mod game;
pub mod game_kind;
pub mod games;
pub mod grown_list;
pub mod identity;
pub mod protocol;
pub mod record;
pub mod side;
#[cfg(feature = "tls")]
pub mod tls;

pub use any_game::{AnyGame, AnyMove, GameKind};
pub use game::{DrawReason, Game, MoveEffect, MoveError, Outcome, PositionError, Side, WinReason};
pub use games::spec::{GameSpec, SpecError, StartError, Variant};
