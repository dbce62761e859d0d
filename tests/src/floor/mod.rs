//! The bare relay of `kingme-floor`: the input and output a judged move cannot do without, and
//! nothing else, to measure what the kernel alone costs a move on a machine.
//!
//! Clients come in pairs. Each connection first sends a hello frame naming its pair; the relay
//! ([`relay`]) matches the two and from then on, for every frame a client sends (a "move"), does
//! what kingme-server must at least do for one: it reads the frame, writes an echo to the sender
//! (kingme's `MovePlayed` to the mover) and a copy to the partner (`MovePlayed` and `YourTurn`
//! to the opponent), one write each. No rules, no storage, no lobby, no hand-off between tasks:
//! one task owns a pair's two sockets. With [`RelayOptions::echo`] off it writes the copy only,
//! which kingme's protocol does not allow: it shows what one write costs.
//!
//! [`players`] plays the pairs like `kingme-load`: the client whose turn it is waits the think
//! time, sends its move, the partner receiving the copy takes the turn next.
//!
//! With fresh connections ([`RelayOptions::handshake`], [`matches`]) the pairs play
//! boardgame.io's workload instead: every match on two new connections, each with a handshake
//! (hello, welcome) of kingme's sizes ([`HandshakeSizes`]), then the creator's create (created)
//! and the joiner's join (started, to both), a random noughts-and-crosses game's moves, and
//! both connections closed. The hello names the match; the relay pairs its creator and joiner
//! whichever comes first.
//!
//! With [`wire::Wire::Tls`] every connection is TLS, as kingme-server's are by default.
//!
//! With a [`store::MoveStore`] the relay also stores each move in an SQLite file with
//! kingme-server's own store before relaying it, as the judge must: the floor of a storing judge.
//!
//! A frame is a 4-byte big-endian length and a payload; a move's, echo's and copy's payload
//! starts with the move's sequence number (8 bytes, little-endian) and its [`Kind`] (1 byte),
//! padded with zeros to the configured size.

pub mod matches;
pub mod players;
pub mod relay;
pub mod store;
pub mod wire;

use bytes::{Buf, Bytes, BytesMut};
use tokio::io::{AsyncRead, AsyncReadExt};

/// The longest frame the relay or a player accepts; a longer length is refused as hostile.
pub const MAX_FRAME: usize = 4 * 1024;

/// The bytes a move's, echo's or copy's payload needs at least: sequence number and kind.
pub const HEADER: usize = 9;

/// What a frame is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// The first frame of a connection: its pair (the sequence number's place holds it).
    Hello = 0,
    /// A client's move.
    Move = 1,
    /// The relay's echo of a move to its sender.
    Echo = 2,
    /// The relay's copy of a move to the sender's partner.
    Copy = 3,
    /// The relay's answer to a fresh connection's hello (kingme's `Welcome`).
    Welcome = 4,
    /// A match's first player asks for the match (kingme's `CreateGame`).
    Create = 5,
    /// The relay's answer to the create (kingme's `State` of the game waiting for its opponent).
    Created = 6,
    /// A match's second player joins it (kingme's `Join`).
    Join = 7,
    /// The relay's word to both players that the match began (kingme's `SeatChanged` and
    /// `State`, with the first player's `YourTurn`).
    Started = 8,
}

impl Kind {
    fn from_byte(byte: u8) -> Option<Kind> {
        [
            Kind::Hello,
            Kind::Move,
            Kind::Echo,
            Kind::Copy,
            Kind::Welcome,
            Kind::Create,
            Kind::Created,
            Kind::Join,
            Kind::Started,
        ]
        .into_iter()
        .find(|kind| *kind as u8 == byte)
    }
}

/// The sizes of the frames, payload without the 4-byte length. The defaults are about what
/// kingme-server reads and writes for a noughts-and-crosses move (seen with `strace` under
/// `kingme-load`): a `Move` frame of 8 bytes in all (4 of payload; 9 is this relay's least), a
/// `MovePlayed` of 28 to the mover, `MovePlayed` and `YourTurn` together 41 to 55 to the
/// opponent in one write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameSizes {
    /// A client's move.
    pub moves: usize,
    /// The echo to the mover.
    pub echo: usize,
    /// The copy to the partner.
    pub copy: usize,
}

impl Default for FrameSizes {
    fn default() -> FrameSizes {
        FrameSizes {
            moves: HEADER,
            echo: 24,
            copy: 44,
        }
    }
}

impl FrameSizes {
    /// Each size between [`HEADER`] and [`MAX_FRAME`], or which is not.
    pub fn check(self) -> Result<FrameSizes, FloorError> {
        for (what, size) in [
            ("move", self.moves),
            ("echo", self.echo),
            ("copy", self.copy),
        ] {
            if !(HEADER..=MAX_FRAME).contains(&size) {
                return Err(FloorError::Size { what, size });
            }
        }
        Ok(self)
    }
}

/// The payload sizes of a fresh connection's handshake and a match's start, without the 4-byte
/// length. The defaults are what kingme-server reads and writes for them under `kingme-load
/// --fresh-connections` (seen with `strace`): a guest's `Hello` of 17 bytes in all (for the
/// name `load0a`; 2 more for `load100a`), its `Welcome` of 41, `CreateGame` of 13 and the
/// waiting game's `State` of 49 to the creator, `Join` of 6 (9 is this relay's least), then in
/// one write each `SeatChanged` and `State` (76 bytes) to the joiner and those with `YourTurn`
/// (105 bytes) to the creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandshakeSizes {
    /// The client's `Hello`.
    pub hello: usize,
    /// The server's `Welcome`.
    pub welcome: usize,
    /// The creator's `CreateGame`.
    pub create: usize,
    /// The waiting game's `State` to its creator.
    pub created: usize,
    /// The joiner's `Join`.
    pub join: usize,
    /// The start to the creator, who moves first.
    pub started_creator: usize,
    /// The start to the joiner.
    pub started_joiner: usize,
}

impl Default for HandshakeSizes {
    fn default() -> HandshakeSizes {
        HandshakeSizes {
            hello: 13,
            welcome: 37,
            create: 9,
            created: 45,
            join: HEADER,
            started_creator: 101,
            started_joiner: 72,
        }
    }
}

/// What went wrong on a floor connection.
#[derive(Debug, thiserror::Error)]
pub enum FloorError {
    /// The socket failed.
    #[error("connection error: {0}")]
    Io(#[from] std::io::Error),
    /// A frame longer than the limit.
    #[error("a frame of {0} bytes is longer than the limit of {MAX_FRAME}")]
    TooLong(usize),
    /// A frame shorter than its header.
    #[error("a frame of {0} bytes is shorter than the {HEADER} bytes of its header")]
    TooShort(usize),
    /// A frame of a kind this relay does not have.
    #[error("a frame of unknown kind {0}")]
    UnknownKind(u8),
    /// A frame of another kind than the one due.
    #[error("expected a {expected:?} frame, got {got:?}")]
    Unexpected {
        /// The kind due.
        expected: Kind,
        /// The kind read.
        got: Kind,
    },
    /// A move's frame out of order.
    #[error("expected the {what} of move {expected}, got move {got}")]
    OutOfOrder {
        /// Which frame of the move (the move, its echo).
        what: &'static str,
        /// The move due.
        expected: u64,
        /// The move read.
        got: u64,
    },
    /// A frame size asked for outside what a frame may be.
    #[error("the {what} size {size} is outside {HEADER}..={MAX_FRAME} bytes")]
    Size {
        /// Which frame.
        what: &'static str,
        /// The size asked for.
        size: usize,
    },
    /// The relay's store refused a game or a move.
    #[error("storing failed: {0}")]
    Store(#[from] kingme_server::test_support::StoreError),
    /// The peer closed the connection.
    #[error("the other side closed the connection")]
    Closed,
    /// A client sent frames before its match began.
    #[error("a client sent more before its match began")]
    Early,
    /// Two clients claimed the same role in one match.
    #[error("two {0} for one match")]
    SameRole(&'static str),
    /// Nothing arrived in time.
    #[error("nothing came within {0:?}: the relay is stuck")]
    Stuck(std::time::Duration),
    /// TLS could not be set up or its handshake failed.
    #[error("TLS: {0}")]
    Tls(String),
}

/// One frame read: its kind and sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// What the frame is.
    pub kind: Kind,
    /// The move it belongs to.
    pub seq: u64,
}

/// Appends a frame of `kind` and `seq` padded to `size` payload bytes to `out`.
pub fn put_frame(out: &mut BytesMut, kind: Kind, seq: u64, size: usize) {
    let size = size.max(HEADER);
    out.reserve(4 + size);
    out.extend_from_slice(&u32::try_from(size).unwrap_or(u32::MAX).to_be_bytes());
    out.extend_from_slice(&seq.to_le_bytes());
    out.extend_from_slice(&[kind as u8]);
    out.resize(out.len() + size - HEADER, 0);
}

/// Takes one whole frame's payload off the front of `buffer`, if it holds one.
pub fn take_payload(buffer: &mut BytesMut) -> Result<Option<Bytes>, FloorError> {
    let Some(prefix) = buffer.first_chunk::<4>() else {
        return Ok(None);
    };
    let length = u32::from_be_bytes(*prefix) as usize;
    if length > MAX_FRAME {
        return Err(FloorError::TooLong(length));
    }
    if buffer.len() < 4 + length {
        buffer.reserve(4 + length - buffer.len());
        return Ok(None);
    }
    buffer.advance(4);
    Ok(Some(buffer.split_to(length).freeze()))
}

/// The kind and sequence number a payload starts with.
pub fn parse(payload: &[u8]) -> Result<Frame, FloorError> {
    let (Some(seq), Some(kind)) = (payload.first_chunk::<8>(), payload.get(8)) else {
        return Err(FloorError::TooShort(payload.len()));
    };
    Ok(Frame {
        kind: Kind::from_byte(*kind).ok_or(FloorError::UnknownKind(*kind))?,
        seq: u64::from_le_bytes(*seq),
    })
}

/// Reads frames from one socket, buffering what came beyond the frame asked for.
#[derive(Debug)]
pub struct FrameReader<R> {
    reader: R,
    buffer: BytesMut,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// Reads frames from `reader`.
    pub fn new(reader: R) -> FrameReader<R> {
        FrameReader {
            reader,
            buffer: BytesMut::with_capacity(1024),
        }
    }

    /// The socket read from, to write an answer to it.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// Whether bytes beyond the frames taken are buffered.
    pub fn has_buffered(&self) -> bool {
        !self.buffer.is_empty()
    }

    /// The next frame, reading from the socket only when no whole frame is buffered.
    pub async fn next(&mut self) -> Result<Frame, FloorError> {
        loop {
            if let Some(payload) = take_payload(&mut self.buffer)? {
                return parse(&payload);
            }
            self.buffer.reserve(512);
            if self.reader.read_buf(&mut self.buffer).await? == 0 {
                return Err(FloorError::Closed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_comes_back_as_it_was_put() {
        let mut buffer = BytesMut::new();
        put_frame(&mut buffer, Kind::Copy, 77, 40);
        assert_eq!(buffer.len(), 44);
        let mut partial = buffer.split_to(20);
        assert_eq!(take_payload(&mut partial).ok().flatten(), None);
        partial.unsplit(buffer);
        let payload = take_payload(&mut partial).ok().flatten();
        let frame = payload.as_deref().map(parse);
        assert!(matches!(
            frame,
            Some(Ok(Frame {
                kind: Kind::Copy,
                seq: 77
            }))
        ));
        assert!(partial.is_empty());
    }

    #[test]
    fn a_length_over_the_limit_is_refused_before_its_payload() {
        let mut buffer = BytesMut::from(&[0, 1, 0, 0][..]);
        assert!(matches!(
            take_payload(&mut buffer),
            Err(FloorError::TooLong(65536))
        ));
        assert!(matches!(parse(&[1, 2, 3]), Err(FloorError::TooShort(3))));
        assert!(matches!(
            parse(&[0, 0, 0, 0, 0, 0, 0, 0, 9]),
            Err(FloorError::UnknownKind(9))
        ));
    }
}
