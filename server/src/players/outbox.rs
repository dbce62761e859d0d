//! The bounded queue of messages waiting to be written to one connection.
//!
//! Tables and the lobby hand messages to an `Outbox` without waiting: a game never blocks on a
//! client. A client that does not read fills its queue; the next message then marks the
//! connection too slow (its `kick` token), and the connection is dropped instead.

use kingme_shared::protocol::ServerMessage;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

/// The sending side of a connection's queue. Cheap to clone.
///
/// Messages travel boxed: a channel allocates its slots in blocks, and a block of pointers is
/// small where a block of whole messages would cost kilobytes on every idle connection.
#[derive(Debug, Clone)]
pub struct Outbox {
    queue: mpsc::Sender<Box<ServerMessage>>,
    kick: CancellationToken,
}

impl Outbox {
    /// A queue of `capacity` messages; overflowing it cancels `kick`.
    #[must_use]
    pub fn channel(
        capacity: usize,
        kick: CancellationToken,
    ) -> (Outbox, mpsc::Receiver<Box<ServerMessage>>) {
        let (queue, receiver) = mpsc::channel(capacity.max(1));
        (Outbox { queue, kick }, receiver)
    }

    /// Queues a message without waiting. A full queue drops the connection; a closed one (the
    /// connection is gone) drops the message.
    pub fn send(&self, message: ServerMessage) {
        match self.queue.try_send(Box::new(message)) {
            Ok(()) | Err(TrySendError::Closed(_)) => {}
            Err(TrySendError::Full(_)) => {
                if !self.kick.is_cancelled() {
                    tracing::warn!("a client reads too slowly; dropping its connection");
                }
                self.kick.cancel();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_kicks_the_connection_instead_of_waiting() {
        let kick = CancellationToken::new();
        let (outbox, mut receiver) = Outbox::channel(2, kick.clone());
        outbox.send(ServerMessage::Ping { nonce: 1 });
        outbox.send(ServerMessage::Ping { nonce: 2 });
        assert!(!kick.is_cancelled());
        outbox.send(ServerMessage::Ping { nonce: 3 });
        assert!(kick.is_cancelled());
        assert_eq!(
            receiver.try_recv().ok().map(|m| *m),
            Some(ServerMessage::Ping { nonce: 1 })
        );
        assert_eq!(
            receiver.try_recv().ok().map(|m| *m),
            Some(ServerMessage::Ping { nonce: 2 })
        );
        assert!(receiver.try_recv().is_err());
    }
}
