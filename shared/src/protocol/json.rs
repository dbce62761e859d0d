//! The WebSocket door's encoding: each message is one JSON text frame, the same
//! [`ClientMessage`] / [`ServerMessage`] serde types as the TCP frames, in serde's externally
//! tagged form (`{"Move":{"game":3,"text":"11-15"}}`; the one message without fields may be sent
//! as `"ListGames"` or `{"ListGames":null}`). Byte arrays (keys, nonces, signatures) are JSON
//! arrays of numbers 0-255.
//!
//! Limits, and why: a client's JSON is longer than its bincode (field names, quoted text,
//! escapes, a key as 32 numbers), so a text frame may carry at most [`MAX_CLIENT_TEXT`] = 16 KiB,
//! four times the TCP frame limit; the WebSocket layer refuses a longer frame before buffering
//! it, and [`decode_client_text`] checks again. A JSON document is read with serde_json's depth
//! limit, so deep nesting is an error, not a stack overflow.

use super::codec::FrameError;
use super::message::{ClientMessage, ServerMessage};

/// Largest text frame a server accepts from a WebSocket client, in bytes.
pub const MAX_CLIENT_TEXT: usize = 4 * super::codec::MAX_CLIENT_FRAME;

/// The JSON text of a server message.
pub fn encode_server_text(message: &ServerMessage) -> Result<String, FrameError> {
    serde_json::to_string(message).map_err(|err| FrameError::Malformed(err.to_string()))
}

/// The JSON text of a client message (for clients and tests).
pub fn encode_client_text(message: &ClientMessage) -> Result<String, FrameError> {
    serde_json::to_string(message).map_err(|err| FrameError::Malformed(err.to_string()))
}

/// Reads a client's text frame: at most [`MAX_CLIENT_TEXT`] bytes, one JSON value that is a
/// [`ClientMessage`], nothing after it.
pub fn decode_client_text(text: &str) -> Result<ClientMessage, FrameError> {
    if text.len() > MAX_CLIENT_TEXT {
        return Err(FrameError::TooLong {
            length: text.len(),
            limit: MAX_CLIENT_TEXT,
        });
    }
    serde_json::from_str(text).map_err(|err| {
        FrameError::Malformed(format!(
            "not a kingme message in JSON ({err}); see PROTOCOL.md, \"The WebSocket door\""
        ))
    })
}

/// Reads a server's text frame (for clients and tests).
pub fn decode_server_text(text: &str) -> Result<ServerMessage, FrameError> {
    serde_json::from_str(text).map_err(|err| FrameError::Malformed(err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::GameId;

    #[test]
    fn messages_are_externally_tagged_objects() {
        let message = ClientMessage::Move {
            game: GameId(3),
            text: "11-15".to_owned(),
        };
        let text = encode_client_text(&message).expect("encodes");
        assert_eq!(text, r#"{"Move":{"game":3,"text":"11-15"}}"#);
        assert_eq!(decode_client_text(&text).expect("decodes"), message);
    }

    #[test]
    fn the_field_less_message_reads_as_a_string_or_an_object() {
        for text in [r#""ListGames""#, r#"{"ListGames":null}"#] {
            assert_eq!(
                decode_client_text(text).expect("decodes"),
                ClientMessage::ListGames
            );
        }
    }

    #[test]
    fn an_analyse_may_leave_its_bounds_out() {
        let bare = decode_client_text(r#"{"Analyse":{"game":3}}"#).expect("decodes");
        assert_eq!(
            bare,
            ClientMessage::Analyse {
                game: GameId(3),
                depth: None,
                time_ms: None,
            }
        );
        let bounded = ClientMessage::Analyse {
            game: GameId(3),
            depth: Some(6),
            time_ms: Some(200),
        };
        let text = encode_client_text(&bounded).expect("encodes");
        assert_eq!(text, r#"{"Analyse":{"game":3,"depth":6,"time_ms":200}}"#);
        assert_eq!(decode_client_text(&text).expect("decodes"), bounded);
    }

    #[test]
    fn hostile_text_is_an_error_that_says_what_was_wrong() {
        let long = format!(r#"{{"Chat":{{"game":1,"text":"{}"}}}}"#, "a".repeat(20_000));
        assert!(matches!(
            decode_client_text(&long),
            Err(FrameError::TooLong { limit, .. }) if limit == MAX_CLIENT_TEXT
        ));
        let deep = "[".repeat(5_000);
        assert!(matches!(
            decode_client_text(&deep),
            Err(FrameError::Malformed(_))
        ));
        for bad in [
            "",
            "{",
            r#"{"Move":{"game":3}}"#,
            r#"{"Fly":{}}"#,
            r#"{"Move":{"game":-1,"text":"x"}}"#,
            r#"{"Ping":{"nonce":1}} {"Ping":{"nonce":2}}"#,
            r#"{"Analyse":{"game":3,"depth":-1}}"#,
            r#"{"Analyse":{"game":3,"time_ms":"fast"}}"#,
            r#"{"Analyse":{"depth":4}}"#,
            r#"{"Hello":{"protocol_version":4,"name":"a","public_key":[1,2],"legacy_secret":null,"resume":null,"guest":false}}"#,
        ] {
            let err = decode_client_text(bad).expect_err(bad);
            assert!(err.to_string().contains("PROTOCOL.md"), "{err}");
        }
    }
}
