//! The one place that knows the bytes: length-delimited frames (a 4-byte big-endian length, then
//! the payload) whose payloads are bincode 2 (through serde). Swapping the encoding means changing
//! this file and nothing else. Plain code over byte buffers, no runtime: the tokio-util adaptors
//! are in the crate's `tokio_codec.rs`, behind the `codec` feature.
//!
//! Limits, and why: a client's messages are small (the longest is a start position of at most
//! 2 KiB, or a 300-character chat line), so the server accepts frames of at most
//! [`MAX_CLIENT_FRAME`] = 4 KiB and never allocates more for one. The server's messages carry whole
//! games and game lists (a long checkers game is a few hundred moves of about 15 bytes; a list is
//! at most 200 games), so clients accept up to [`MAX_SERVER_FRAME`] = 256 KiB. A longer length
//! prefix is refused before any payload is read. bincode gets the same limit, so a lying length
//! inside a payload cannot make it allocate either.

use bytes::{Buf, BufMut, BytesMut};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::marker::PhantomData;

use super::message::{ClientMessage, ServerMessage};

/// Largest frame a server accepts from a client, in bytes.
pub const MAX_CLIENT_FRAME: usize = 4 * 1024;
/// Largest frame a client accepts from a server, in bytes.
pub const MAX_SERVER_FRAME: usize = 256 * 1024;

/// Why a frame could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("connection error: {0}")]
    /// The connection failed.
    Io(#[from] std::io::Error),
    #[error("frame of {length} bytes is longer than the limit of {limit} bytes")]
    /// The length prefix announces more than the direction's limit.
    TooLong {
        /// The length announced.
        length: usize,
        /// The limit of the direction read or written.
        limit: usize,
    },
    #[error("undecodable message: {0}")]
    /// The payload does not decode to a message.
    Malformed(String),
}

fn bincode_config<const LIMIT: usize>() -> bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<LIMIT>,
> {
    bincode::config::standard().with_limit::<LIMIT>()
}

/// Encodes one message's payload (without the length prefix).
pub fn encode_payload<T: Serialize>(message: &T) -> Result<Vec<u8>, FrameError> {
    bincode::serde::encode_to_vec(message, bincode_config::<MAX_SERVER_FRAME>())
        .map_err(|err| FrameError::Malformed(err.to_string()))
}

/// The most bytes bincode may claim while decoding a client's frame: a string or list claims its
/// declared length before it is read, so a tiny frame that declares a long name is refused here
/// instead of making the server allocate for it. Twice the frame limit leaves room for in-memory
/// sizes larger than the wire's (varint integers).
const CLIENT_DECODE_LIMIT: usize = 2 * MAX_CLIENT_FRAME;

/// Decodes one message's payload (without the length prefix); every byte must be used.
pub fn decode_payload<T: DeserializeOwned>(payload: &[u8]) -> Result<T, FrameError> {
    let decoded = bincode::serde::decode_from_slice(payload, bincode_config::<MAX_SERVER_FRAME>());
    check_whole(payload, decoded)
}

/// Decodes a payload read under the client frame limit (the server's side of a connection), with
/// bincode's claims bounded by that limit too.
pub fn decode_client_payload<T: DeserializeOwned>(payload: &[u8]) -> Result<T, FrameError> {
    let decoded =
        bincode::serde::decode_from_slice(payload, bincode_config::<CLIENT_DECODE_LIMIT>());
    check_whole(payload, decoded)
}

fn check_whole<T>(
    payload: &[u8],
    decoded: Result<(T, usize), bincode::error::DecodeError>,
) -> Result<T, FrameError> {
    let (message, used) = decoded.map_err(|err| FrameError::Malformed(err.to_string()))?;
    if used != payload.len() {
        return Err(FrameError::Malformed(format!(
            "{} trailing bytes after the message",
            payload.len() - used
        )));
    }
    Ok(message)
}

/// Bytes of the length prefix in front of every frame (big-endian `u32`).
pub const PREFIX_LEN: usize = 4;

/// A codec that reads frames of `In` and writes frames of `Out`, with a maximum frame length.
///
/// The framing itself is plain code over a [`BytesMut`] buffer ([`FrameCodec::decode_frame`],
/// [`FrameCodec::decode_last`], [`FrameCodec::encode_frame`]), so this crate needs no async
/// runtime; with the `codec` feature, the crate's `tokio_codec.rs` makes it a tokio-util
/// `Decoder`/`Encoder` for `Framed` streams.
#[derive(Debug)]
pub struct FrameCodec<In, Out> {
    read_limit: usize,
    write_limit: usize,
    _messages: PhantomData<fn(Out) -> In>,
}

/// The server's end: reads client messages, writes server messages.
pub type ServerCodec = FrameCodec<ClientMessage, ServerMessage>;
/// The client's end: reads server messages, writes client messages.
pub type ClientCodec = FrameCodec<ServerMessage, ClientMessage>;

impl ServerCodec {
    /// The codec a server uses on a connection.
    #[must_use]
    pub fn server() -> Self {
        FrameCodec::with_limits(MAX_CLIENT_FRAME, MAX_SERVER_FRAME)
    }
}

impl ClientCodec {
    /// The codec a client uses on a connection.
    #[must_use]
    pub fn client() -> Self {
        FrameCodec::with_limits(MAX_SERVER_FRAME, MAX_SERVER_FRAME)
    }
}

impl<In, Out> FrameCodec<In, Out> {
    /// A codec that accepts incoming frames of at most `read_limit` bytes and writes frames of at
    /// most `write_limit` bytes.
    #[must_use]
    pub fn with_limits(read_limit: usize, write_limit: usize) -> Self {
        FrameCodec {
            read_limit,
            write_limit,
            _messages: PhantomData,
        }
    }
}

impl<In: DeserializeOwned, Out> FrameCodec<In, Out> {
    /// Takes one whole frame off the front of `src` and decodes it; `Ok(None)` until the whole
    /// frame is there (nothing is consumed meanwhile). A length prefix over this side's limit is
    /// refused as soon as its four bytes arrive, before any of its payload.
    pub fn decode_frame(&mut self, src: &mut BytesMut) -> Result<Option<In>, FrameError> {
        let Some(prefix) = src.get(..PREFIX_LEN) else {
            return Ok(None);
        };
        let length = u32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
        if length > self.read_limit {
            return Err(FrameError::TooLong {
                length,
                limit: self.read_limit,
            });
        }
        if src.len() < PREFIX_LEN + length {
            // Room for the rest of the frame, so the reads that bring it need not reallocate.
            src.reserve(PREFIX_LEN + length - src.len());
            return Ok(None);
        }
        src.advance(PREFIX_LEN);
        let frame = src.split_to(length);
        if self.read_limit <= MAX_CLIENT_FRAME {
            decode_client_payload(&frame).map(Some)
        } else {
            decode_payload(&frame).map(Some)
        }
    }

    /// Like [`FrameCodec::decode_frame`] when the stream has ended: bytes of an unfinished frame
    /// left over are an error.
    pub fn decode_last(&mut self, src: &mut BytesMut) -> Result<Option<In>, FrameError> {
        match self.decode_frame(src)? {
            Some(message) => Ok(Some(message)),
            None if src.is_empty() => Ok(None),
            None => Err(FrameError::Io(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("the stream ended {} bytes into a frame", src.len()),
            ))),
        }
    }
}

impl<In, Out: Serialize> FrameCodec<In, Out> {
    /// Appends a message as one frame (length prefix and payload) to `dst`.
    pub fn encode_frame(&mut self, message: &Out, dst: &mut BytesMut) -> Result<(), FrameError> {
        let payload = encode_payload(message)?;
        if payload.len() > self.write_limit {
            return Err(FrameError::TooLong {
                length: payload.len(),
                limit: self.write_limit,
            });
        }
        let length = u32::try_from(payload.len()).map_err(|_| FrameError::TooLong {
            length: payload.len(),
            limit: self.write_limit,
        })?;
        dst.reserve(PREFIX_LEN + payload.len());
        dst.put_u32(length);
        dst.extend_from_slice(&payload);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Side;
    use crate::protocol::message::{
        GameId, GameOptions, Opponent, PROTOCOL_VERSION, SeatChoice, TimeControl,
    };

    fn round_trip(message: ClientMessage) {
        let mut client = ClientCodec::client();
        let mut server = ServerCodec::server();
        let mut buffer = BytesMut::new();
        client.encode_frame(&message, &mut buffer).expect("encode");
        let decoded = server
            .decode_frame(&mut buffer)
            .expect("decode")
            .expect("a whole frame");
        assert_eq!(decoded, message);
        assert!(buffer.is_empty());
    }

    #[test]
    fn messages_survive_the_wire() {
        round_trip(ClientMessage::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: "ada".to_owned(),
            public_key: Some([9; 32]),
            legacy_secret: Some("0123abcd".to_owned()),
            resume: None,
            guest: false,
        });
        round_trip(ClientMessage::Prove {
            signature: vec![1; 64],
        });
        round_trip(ClientMessage::Move {
            game: GameId(7),
            text: "11x18x25".to_owned(),
        });
        round_trip(ClientMessage::Admin(crate::domain::AdminAction::Ban {
            name: "mallory".to_owned(),
            reason: Some("spam".to_owned()),
        }));
        round_trip(ClientMessage::AdminLog);
        round_trip(ClientMessage::Analyse {
            game: GameId(7),
            depth: Some(8),
            time_ms: None,
        });
    }

    #[test]
    fn a_review_survives_the_wire_to_the_client() {
        use crate::review::{Exact, GameReview, MoveClass, PlyReview};
        let message = ServerMessage::Analysis {
            game: GameId(7),
            review: GameReview {
                kind: crate::GameKind::Checkers,
                plies: vec![PlyReview {
                    mover: Side::First,
                    played: "9-14".to_owned(),
                    best: "11-15".to_owned(),
                    best_squares: vec![11, 15],
                    eval_before: 12,
                    eval_after: -240,
                    loss: 252,
                    class: MoveClass::Blunder,
                    exact: Some(Exact::Draw),
                    missed_win: None,
                }],
                final_eval: -240,
            },
        };
        let mut buffer = BytesMut::new();
        ServerCodec::server()
            .encode_frame(&message, &mut buffer)
            .expect("encode");
        let decoded = ClientCodec::client()
            .decode_frame(&mut buffer)
            .expect("decode")
            .expect("a whole frame");
        assert_eq!(decoded, message);
    }

    #[test]
    fn a_partial_frame_waits_for_more_bytes() {
        let mut client = ClientCodec::client();
        let mut whole = BytesMut::new();
        client
            .encode_frame(&ClientMessage::ListGames, &mut whole)
            .expect("encode");
        let mut server = ServerCodec::server();
        let mut partial = BytesMut::from(&whole[..whole.len() - 1]);
        assert!(
            server
                .decode_frame(&mut partial)
                .expect("no error yet")
                .is_none()
        );
    }

    fn chat(text: &str) -> ClientMessage {
        ClientMessage::Chat {
            game: GameId(7),
            text: text.to_owned(),
        }
    }

    /// Feeds `bytes` to a server codec in pieces of `piece` bytes, as reads from a socket would
    /// deliver them, and returns every message decoded.
    fn decode_in_pieces(bytes: &[u8], piece: usize) -> Vec<ClientMessage> {
        let mut server = ServerCodec::server();
        let mut buffer = BytesMut::new();
        let mut decoded = Vec::new();
        for chunk in bytes.chunks(piece) {
            buffer.extend_from_slice(chunk);
            while let Some(message) = server.decode_frame(&mut buffer).expect("a valid stream") {
                decoded.push(message);
            }
        }
        assert!(buffer.is_empty(), "{} bytes left over", buffer.len());
        decoded
    }

    #[test]
    fn frames_split_across_reads_are_reassembled() {
        // A chat payload starts with bytes that, read as a length prefix, exceed the limit: a
        // decoder that took the payload's start for a prefix would refuse it.
        let messages = vec![
            chat("hello there, this line is long enough to matter"),
            ClientMessage::ListGames,
            ClientMessage::Move {
                game: GameId(300),
                text: "11x18x25".to_owned(),
            },
            chat(&"x".repeat(300)),
        ];
        let mut client = ClientCodec::client();
        let mut stream = BytesMut::new();
        for message in &messages {
            client.encode_frame(message, &mut stream).expect("encode");
        }
        for piece in [1, 2, 3, 4, 5, 7, 64, stream.len()] {
            assert_eq!(
                decode_in_pieces(&stream, piece),
                messages,
                "pieces of {piece}"
            );
        }
    }

    #[test]
    fn the_bytes_of_a_hello_are_those_protocol_md_shows() {
        let mut client = ClientCodec::client();
        let mut frame = BytesMut::new();
        client
            .encode_frame(
                &ClientMessage::Hello {
                    protocol_version: PROTOCOL_VERSION,
                    name: "ada".to_owned(),
                    public_key: None,
                    legacy_secret: None,
                    resume: None,
                    guest: true,
                },
                &mut frame,
            )
            .expect("encode");
        assert_eq!(
            &frame[..],
            &[0, 0, 0, 10, 0, 9, 3, b'a', b'd', b'a', 0, 0, 0, 1]
        );
    }

    #[test]
    fn the_bytes_of_an_analyse_are_those_protocol_md_shows() {
        // Variant 24, game 3, `Some(6)` plies, `Some(200)` ms (200 fits one varint byte).
        let mut frame = BytesMut::from(&[0, 0, 0, 6, 24, 3, 1, 6, 1, 200][..]);
        let message = ServerCodec::server()
            .decode_frame(&mut frame)
            .expect("decode")
            .expect("a whole frame");
        assert_eq!(
            message,
            ClientMessage::Analyse {
                game: GameId(3),
                depth: Some(6),
                time_ms: Some(200),
            }
        );
    }

    #[test]
    fn the_bytes_of_a_create_game_are_those_protocol_md_shows() {
        let mut frame = BytesMut::new();
        ClientCodec::client()
            .encode_frame(
                &ClientMessage::CreateGame(GameOptions {
                    spec: "pente-free".parse().expect("a spec"),
                    seat: SeatChoice::Side(Side::First),
                    opponent: Opponent::OpenSeat,
                    time_control: TimeControl::Unlimited,
                    start_position: None,
                    rated: false,
                }),
                &mut frame,
            )
            .expect("encode");
        // Variant 4, the spec (Pente 1, Free 1), then seat, opponent, clock, start and rated.
        assert_eq!(&frame[..], &[0, 0, 0, 9, 4, 1, 1, 0, 0, 0, 0, 0, 0]);
        // A variant that is not the game's is refused when read, like any malformed payload.
        let mut checkers_free = BytesMut::from(&[0, 0, 0, 9, 4, 0, 1, 0, 0, 0, 0, 0, 0][..]);
        let err = ServerCodec::server()
            .decode_frame(&mut checkers_free)
            .expect_err("no such variant");
        assert!(
            err.to_string().contains("checkers has no free variant"),
            "{err}"
        );
    }

    #[test]
    fn an_oversize_length_prefix_is_refused_before_the_payload() {
        let mut server = ServerCodec::server();
        let mut buffer = BytesMut::from(&u32::MAX.to_be_bytes()[..]);
        let err = server.decode_frame(&mut buffer).expect_err("too long");
        assert!(
            matches!(
                err,
                FrameError::TooLong {
                    limit: MAX_CLIENT_FRAME,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn garbage_payloads_are_malformed_not_panics() {
        let mut server = ServerCodec::server();
        for payload in [&[0xff_u8; 9][..], &[200, 1, 2, 3][..], &[][..]] {
            let mut buffer = BytesMut::new();
            buffer.extend_from_slice(&(payload.len() as u32).to_be_bytes());
            buffer.extend_from_slice(payload);
            let err = server.decode_frame(&mut buffer).expect_err("garbage");
            assert!(matches!(err, FrameError::Malformed(_)), "{err}");
        }
    }

    #[test]
    fn a_client_frame_cannot_claim_more_than_the_client_limit() {
        // A hello whose name declares 39,000 bytes in a 7-byte frame: refused by the claim limit
        // before anything is read or reserved for it, not by running out of bytes afterwards.
        let [low, high] = 39_000_u16.to_le_bytes();
        let payload = [0, 1, 0xfb, low, high, b'a', b'b'];
        let mut buffer = BytesMut::new();
        buffer.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        buffer.extend_from_slice(&payload);
        let err = ServerCodec::server()
            .decode_frame(&mut buffer)
            .expect_err("claim");
        assert!(err.to_string().contains("Limit"), "{err}");
        // The same bytes read by a client (server messages may be large) fail only for want of
        // bytes: the limit really is per direction.
        let err = decode_payload::<ClientMessage>(&payload).expect_err("short");
        assert!(!err.to_string().contains("Limit"), "{err}");
    }

    #[test]
    fn trailing_bytes_are_malformed() {
        let mut payload = encode_payload(&ClientMessage::ListGames).expect("encode");
        payload.push(0);
        let err = decode_payload::<ClientMessage>(&payload).expect_err("trailing");
        assert!(err.to_string().contains("trailing"), "{err}");
    }
}
