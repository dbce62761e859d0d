//! The wire protocol between clients and the judge: message types in [`message`], every byte of
//! their encoding in [`codec`]. `PROTOCOL.md` at the repository root documents it for people
//! writing other clients.

pub mod archive;
pub mod codec;
pub mod grown_list;
pub mod message;

pub use archive::*;
pub use codec::{
    ClientCodec, FrameCodec, FrameError, MAX_CLIENT_FRAME, MAX_SERVER_FRAME, ServerCodec,
};
pub use message::*;
