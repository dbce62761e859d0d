//! Why a request was refused. A refusal names what was wrong and what to do, goes back to the
//! one client that asked, and changes nothing; the connection stays open unless it is fatal.

use kingme_shared::protocol::{ErrorKind, ServerMessage};

/// A refused request: the kind a client can react to and the message a person reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub kind: ErrorKind,
    pub message: String,
}

impl Refusal {
    /// A refusal of this kind with this message.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            message: message.into(),
        }
    }

    /// The `NotAllowed` refusal: the request does not fit the game's state.
    pub fn not_allowed(message: impl Into<String>) -> Refusal {
        Refusal::new(ErrorKind::NotAllowed, message)
    }

    /// The error message that tells the client; `fatal` ones precede closing the connection.
    #[must_use]
    pub fn to_message(&self, fatal: bool) -> ServerMessage {
        ServerMessage::Error {
            kind: self.kind,
            message: self.message.clone(),
            fatal,
        }
    }
}
