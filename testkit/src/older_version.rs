//! A test client that speaks an older protocol version than this build, to see what the server
//! sends such a client (no announcement before version 7, only the older levels before 9).

use crate::client::{Client, hello_message};
use kingme_shared::protocol::{ClientMessage, ServerMessage};

impl Client {
    /// Says hello on this connection as a guest named `name` whose client speaks the older
    /// protocol `version` (to see what such a client is sent); welcomed at that version.
    ///
    /// # Panics
    /// When the server answers anything but a `Welcome` for `version`.
    pub async fn guest_of_version(mut self, name: &str, version: u32) -> Client {
        let mut hello = hello_message(name, None, None);
        if let ClientMessage::Hello {
            protocol_version, ..
        } = &mut hello
        {
            *protocol_version = version;
        }
        self.send(hello).await;
        let answer = self.recv().await;
        assert!(
            matches!(answer, ServerMessage::Welcome { protocol_version, .. } if protocol_version == version),
            "expected Welcome for version {version}, got {answer:?}"
        );
        self.note_welcome(&answer);
        self
    }
}
