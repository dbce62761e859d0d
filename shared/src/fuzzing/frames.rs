//! The frame decoder target: arbitrary bytes arriving on a connection, in either direction.
//!
//! The first byte picks the direction (a server reading a client, or a client reading a server)
//! and the second how many bytes each read delivers; the rest is the byte stream. The stream is
//! decoded twice, at once and in reads of that size, and both must give the same messages and the
//! same error, so a frame split across reads is never treated differently from a whole one. Every
//! decoded message must encode and decode back to itself. A panic anywhere is a failure.

use super::script::Script;
use crate::protocol::codec::{decode_payload, encode_payload};
use crate::protocol::{ClientCodec, ClientMessage, FrameCodec, ServerCodec, ServerMessage};
use bytes::BytesMut;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// Decodes a byte stream as a server (first byte even) or a client (odd) would.
pub fn frame_decoder(data: &[u8]) {
    let mut script = Script::new(data);
    let direction = script.byte();
    let read_size = usize::from(script.byte()) + 1;
    let stream = script.rest();
    if direction.is_multiple_of(2) {
        check_stream::<ClientMessage, _>(ServerCodec::server, stream, read_size);
    } else {
        check_stream::<ServerMessage, _>(ClientCodec::client, stream, read_size);
    }
}

fn check_stream<M, Out>(codec: fn() -> FrameCodec<M, Out>, stream: &[u8], read_size: usize)
where
    M: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let whole = decode_stream(codec(), stream, stream.len().max(1));
    let split = decode_stream(codec(), stream, read_size);
    assert_eq!(
        whole, split,
        "the stream decodes differently when it arrives in reads of {read_size} bytes"
    );
    for message in &whole.0 {
        let payload = encode_payload(message).expect("a decoded message encodes");
        let again: M = decode_payload(&payload).expect("an encoded message decodes");
        assert_eq!(&again, message, "the message changed in a round trip");
    }
}

/// The messages decoded from `stream` delivered `read_size` bytes at a time, and the error that
/// stopped decoding, if one did (the end of the stream in the middle of a frame is one).
fn decode_stream<M: DeserializeOwned, Out>(
    mut codec: FrameCodec<M, Out>,
    stream: &[u8],
    read_size: usize,
) -> (Vec<M>, Option<String>) {
    let mut buffer = BytesMut::new();
    let mut messages = Vec::new();
    for read in stream.chunks(read_size) {
        buffer.extend_from_slice(read);
        loop {
            match codec.decode_frame(&mut buffer) {
                Ok(Some(message)) => messages.push(message),
                Ok(None) => break,
                Err(err) => return (messages, Some(err.to_string())),
            }
        }
    }
    match codec.decode_last(&mut buffer) {
        Ok(Some(message)) => messages.push(message),
        Ok(None) => {}
        Err(err) => return (messages, Some(err.to_string())),
    }
    (messages, None)
}
