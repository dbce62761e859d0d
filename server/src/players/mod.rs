//! Players: who a player is across connections ([`Session`]), how they are reached (their
//! connection's [`Outbox`]) and the registry that finds a returning player's session
//! ([`Sessions`]). Tables and the lobby reach people only through a session; a session knows its
//! games by id and holds no table.

pub mod outbox;
pub mod session;
pub mod sessions;

pub use outbox::Outbox;
pub use session::{Attachment, Session};
pub use sessions::Sessions;
