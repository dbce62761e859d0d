//! The protocol version a connection's client said in its hello, shared by the connection's two
//! halves: the reading side learns it in the handshake, the writing side writes every message
//! as that version can decode it ([`ServerMessage::for_version`]: a client older than version 9
//! is sent older levels in place of the new ones).

use kingme_shared::protocol::ServerMessage;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// A connection's client version, 0 until its hello is accepted. Clones share the value.
#[derive(Debug, Clone, Default)]
pub struct ClientVersion(Arc<AtomicU32>);

impl ClientVersion {
    /// The version the client's hello said (0 before it).
    #[must_use]
    pub fn get(&self) -> u32 {
        self.0.load(Ordering::Acquire)
    }

    /// Records the version of an accepted hello.
    pub fn set(&self, version: u32) {
        self.0.store(version, Ordering::Release);
    }

    /// `message` as this client can decode it.
    #[must_use]
    pub fn adapt(&self, message: ServerMessage) -> ServerMessage {
        message.for_version(self.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::Side;
    use kingme_shared::ai::Level;
    use kingme_shared::protocol::{GameId, LEVELS_VERSION, SeatHolder};

    #[test]
    fn the_writer_sees_the_version_the_handshake_set() {
        let reader = ClientVersion::default();
        let writer = reader.clone();
        let master = || ServerMessage::SeatChanged {
            game: GameId(1),
            side: Side::First,
            holder: SeatHolder::Bot {
                level: Level::Master,
            },
        };
        reader.set(8);
        assert_eq!(writer.get(), 8);
        let ServerMessage::SeatChanged { holder, .. } = writer.adapt(master()) else {
            panic!("a seat change stays one");
        };
        assert_eq!(
            holder,
            SeatHolder::Bot {
                level: Level::Strong
            }
        );
        reader.set(LEVELS_VERSION);
        assert_eq!(writer.adapt(master()), master());
    }
}
