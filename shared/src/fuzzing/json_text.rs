//! The JSON text target: arbitrary bytes arriving as a WebSocket text frame. The bytes are read as
//! text (lossily, as a frame's UTF-8 would be refused before), decoded as a client message, and a
//! decoded message must encode back to JSON that decodes to itself. A panic anywhere is a failure.

use crate::protocol::json::{decode_client_text, encode_client_text};

/// Decodes arbitrary text as a client's JSON message.
pub fn json_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(message) = decode_client_text(&text) else {
        return;
    };
    let again = encode_client_text(&message).expect("a decoded message encodes");
    let back = decode_client_text(&again).expect("an encoded message decodes");
    assert_eq!(back, message, "the message changed in a round trip");
}
