//! The bounded queue of messages waiting to be written to one connection.
//!
//! Tables and the lobby hand messages to an `Outbox` without waiting: a game never blocks on a
//! client. A client that does not read fills its queue; the next message then marks the
//! connection too slow (its `kick` token), and the connection is dropped instead.
//!
//! A place in the queue holds a [`Parcel`]: the messages handed over together (a table's move
//! and the turn it gives the next player), which the writer then writes together, in one write.
//! Handed over one by one, the writer, woken by the first on another thread, often wrote it
//! alone before the next arrived.

use kingme_shared::protocol::ServerMessage;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

/// Messages handed over together, in order, taking one place in the queue.
///
/// Boxed: a channel allocates its slots in blocks, and a block of pointers is small where a
/// block of whole messages would cost kilobytes on every idle connection.
pub type Parcel = Box<[ServerMessage]>;

/// The sending side of a connection's queue. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Outbox {
    queue: mpsc::Sender<Parcel>,
    kick: CancellationToken,
}

impl Outbox {
    /// A queue of `capacity` messages; overflowing it cancels `kick`.
    #[must_use]
    pub fn channel(capacity: usize, kick: CancellationToken) -> (Outbox, mpsc::Receiver<Parcel>) {
        let (queue, receiver) = mpsc::channel(capacity.max(1));
        (Outbox { queue, kick }, receiver)
    }

    /// Queues a message without waiting. A full queue drops the connection; a closed one (the
    /// connection is gone) drops the message.
    pub fn send(&self, message: ServerMessage) {
        self.send_all(Box::new([message]));
    }

    /// Queues messages together, in one place of the queue, without waiting; as [`Outbox::send`]
    /// otherwise.
    pub fn send_all(&self, messages: Parcel) {
        match self.queue.try_send(messages) {
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
            receiver.try_recv().ok().map(Vec::from),
            Some(vec![ServerMessage::Ping { nonce: 1 }])
        );
        assert_eq!(
            receiver.try_recv().ok().map(Vec::from),
            Some(vec![ServerMessage::Ping { nonce: 2 }])
        );
        assert!(receiver.try_recv().is_err());
    }

    #[test]
    fn messages_handed_over_together_take_one_place_and_arrive_together_in_order() {
        let kick = CancellationToken::new();
        let (outbox, mut receiver) = Outbox::channel(2, kick.clone());
        let pings = |nonces: &[u64]| -> Vec<ServerMessage> {
            nonces
                .iter()
                .map(|&nonce| ServerMessage::Ping { nonce })
                .collect()
        };
        outbox.send_all(pings(&[1, 2, 3]).into_boxed_slice());
        outbox.send(ServerMessage::Ping { nonce: 4 });
        assert!(!kick.is_cancelled(), "two places used of two");
        assert_eq!(
            receiver.try_recv().ok().map(Vec::from),
            Some(pings(&[1, 2, 3]))
        );
        assert_eq!(receiver.try_recv().ok().map(Vec::from), Some(pings(&[4])));
    }
}
