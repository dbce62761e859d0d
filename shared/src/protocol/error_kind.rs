//! The kinds of refusal a server names in `Error` and `MoveRejected`, so a program can react to
//! a refusal without reading its words (which are for people).

use serde::{Deserialize, Serialize};

/// Machine-readable kinds of errors, so a client can react (the message is for people).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    /// The client speaks another protocol version.
    VersionMismatch,
    /// A frame or message could not be decoded; the connection closes.
    Malformed,
    /// The first message was not a hello, or came too late.
    HandshakeRequired,
    /// A name or token was refused.
    Unauthorized,
    /// Too many messages, games or connections.
    LimitExceeded,
    /// The game does not exist or is not yours to act in.
    NoSuchGame,
    /// The request does not fit the game's state (seat taken, not your turn, ...).
    NotAllowed,
    /// Options for a new game were invalid.
    InvalidOptions,
    /// The server is shutting down.
    ShuttingDown,
    /// The connection was idle too long.
    Timeout,
    /// A move out of turn.
    NotYourTurn,
    /// The game waits for a player in its open seat.
    NotStarted,
    /// The game is over.
    GameOver,
    /// The move text is longer than [`MAX_MOVE_TEXT`](crate::domain::MAX_MOVE_TEXT).
    MoveTooLong,
    /// The rules refuse the move (the reason says why).
    IllegalMove,
    /// The mover's time ran out before the move arrived: the game is lost on time.
    Flagged,
    /// The server could not store (or read) what the request needs; nothing changed. Try again
    /// in a moment: a paused game goes on by itself once its database works again.
    NotStored,
}
