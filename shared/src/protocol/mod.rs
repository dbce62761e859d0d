//! The wire protocol between clients and the judge: message types in [`message`], every byte of
//! their encoding in [`codec`] (its tokio-util adaptors, with the `codec` feature, are outside the
//! protocol in the crate's `tokio_codec.rs`: the protocol needs no runtime), the WebSocket door's
//! JSON in [`json`], the kinds of refusal in [`error_kind`], what creating a game takes in
//! [`game_options`], what a client of an older version is sent instead of the levels it does
//! not know in [`older_clients`]. `PROTOCOL.md` at the repository root documents it for people writing other
//! clients.

pub mod codec;
pub mod error_kind;
pub mod game_options;
pub mod json;
pub mod message;
pub mod older_clients;

pub use crate::domain::{
    HistoryEntry, LeaderboardEntry, MAX_HISTORY_ENTRIES, MAX_LEADERBOARD_ENTRIES,
};
pub use codec::{
    ClientCodec, FrameCodec, FrameError, MAX_CLIENT_FRAME, MAX_SERVER_FRAME, PREFIX_LEN,
    ServerCodec,
};
pub use json::MAX_CLIENT_TEXT;
pub use message::*;
pub use older_clients::LEVELS_VERSION;
