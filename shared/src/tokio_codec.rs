//! The codec as tokio-util sees it (with the `codec` feature): [`FrameCodec`] as a `Decoder` and
//! `Encoder`, so the server and the clients read and write messages through `Framed` streams.
//! Only adaptors: every byte is decided by [`crate::protocol::codec`], which needs no runtime.

use crate::protocol::codec::{FrameCodec, FrameError};
use bytes::BytesMut;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio_util::codec::{Decoder, Encoder};

impl<In: DeserializeOwned, Out> Decoder for FrameCodec<In, Out> {
    type Item = In;
    type Error = FrameError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<In>, FrameError> {
        self.decode_frame(src)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<In>, FrameError> {
        self.decode_last(src)
    }
}

impl<In, Out: Serialize> Encoder<Out> for FrameCodec<In, Out> {
    type Error = FrameError;

    fn encode(&mut self, message: Out, dst: &mut BytesMut) -> Result<(), FrameError> {
        self.encode_frame(&message, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{ClientCodec, ClientMessage, GameId, ServerCodec};

    #[test]
    fn the_adaptors_read_and_write_what_the_codec_does() {
        let message = ClientMessage::Move {
            game: GameId(7),
            text: "11x18x25".to_owned(),
        };
        let mut by_adaptor = BytesMut::new();
        ClientCodec::client()
            .encode(message.clone(), &mut by_adaptor)
            .expect("encode");
        let mut by_codec = BytesMut::new();
        ClientCodec::client()
            .encode_frame(&message, &mut by_codec)
            .expect("encode");
        assert_eq!(by_adaptor, by_codec);
        by_adaptor.extend_from_slice(&[0, 0]);
        let mut server = ServerCodec::server();
        assert_eq!(
            server.decode(&mut by_adaptor).expect("decode"),
            Some(message)
        );
        let err = server.decode_eof(&mut by_adaptor).expect_err("a cut frame");
        assert!(
            err.to_string().contains("ended 2 bytes into a frame"),
            "{err}"
        );
    }
}
