//! Why a connection closed, for the log: every way a connection ends is one of these, so the
//! log line says it in the same words each time.

use crate::refusal::Refusal;
use std::fmt;

/// Why a connection closed.
#[derive(Debug)]
pub enum CloseReason {
    /// The client closed it (before the hello, before its proof, or later).
    ClientClosed(&'static str),
    /// Reading failed (a reset, a broken pipe).
    ReadError(String),
    /// The server refused the client fatally and told it why.
    Refused(Refusal),
    /// The client read its messages too slowly and its queue overflowed.
    TooSlow,
    /// The server is shutting down.
    ShuttingDown,
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloseReason::ClientClosed(when) => write!(f, "closed by the client {when}"),
            CloseReason::ReadError(err) => write!(f, "read error: {err}"),
            CloseReason::Refused(refusal) => write!(f, "{:?}: {refusal}", refusal.kind()),
            CloseReason::TooSlow => f.write_str("too slow reading its messages"),
            CloseReason::ShuttingDown => f.write_str("server shutting down"),
        }
    }
}
