//! The wire protocol between clients and the judge: message types in [`message`], every byte of
//! their encoding in [`codec`] (the WebSocket door's JSON in [`json`]) (and, with the `codec` feature, its tokio-util adaptors in
//! `tokio_codec`). `PROTOCOL.md` at the repository root documents it for people
//! writing other clients.

pub mod archive;
pub mod codec;
pub mod grown_list;
pub mod json;
pub mod message;
#[cfg(feature = "codec")]
pub mod tokio_codec;

pub use archive::*;
pub use codec::{
    ClientCodec, FrameCodec, FrameError, MAX_CLIENT_FRAME, MAX_SERVER_FRAME, PREFIX_LEN,
    ServerCodec,
};
pub use json::MAX_CLIENT_TEXT;
pub use message::*;
