//! The wire protocol between clients and the judge: message types in [`message`], every byte of
//! their encoding in [`codec`] (and, with the `codec` feature, its tokio-util adaptors in
//! `tokio_codec`). `PROTOCOL.md` at the repository root documents it for people
//! writing other clients.

pub mod codec;
pub mod message;
#[cfg(feature = "codec")]
pub mod tokio_codec;

pub use crate::domain::{
    HistoryEntry, LeaderboardEntry, MAX_HISTORY_ENTRIES, MAX_LEADERBOARD_ENTRIES,
};
pub use codec::{
    ClientCodec, FrameCodec, FrameError, MAX_CLIENT_FRAME, MAX_SERVER_FRAME, PREFIX_LEN,
    ServerCodec,
};
pub use message::*;
