//! Every message a node puts on Redis, as bytes and back: the one encode/decode pair of the
//! cluster. An [`Envelope`] on pub/sub and a node's [`LobbyList`] under its lobby key are JSON,
//! each at most [`MAX_MESSAGE`] bytes both ways: a message too large to send is refused here
//! with a typed error rather than sent for the other side to drop, and one too large to read is
//! refused before it is parsed. No other file of the cluster encodes or decodes (the tidy test
//! `cluster_messages_are_encoded_in_one_place` keeps it so).

use super::envelope::Envelope;
use kingme_shared::protocol::GameSummary;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest message written to or read from Redis (a game's full state is far smaller).
pub const MAX_MESSAGE: usize = 1 << 20;

/// A node's game summaries as the other nodes' lobbies list them.
pub type LobbyList = Vec<GameSummary>;

/// What may travel between nodes through Redis: nothing else is encoded here.
pub trait Message: Serialize + DeserializeOwned + private::Sealed {
    /// What the message is called in errors and logs.
    const NAME: &'static str;
}

impl Message for Envelope {
    const NAME: &'static str = "cluster envelope";
}

impl Message for LobbyList {
    const NAME: &'static str = "lobby list";
}

mod private {
    /// Only the cluster's own messages are [`super::Message`]s.
    pub trait Sealed {}
    impl Sealed for super::Envelope {}
    impl Sealed for super::LobbyList {}
}

/// Why a cluster message was not encoded or decoded.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// The message would take, or took, more than [`MAX_MESSAGE`] bytes.
    #[error("a {what} of {bytes} bytes, over the limit of {MAX_MESSAGE}")]
    TooLong {
        /// The kind of message.
        what: &'static str,
        /// Its size.
        bytes: usize,
    },
    /// The message does not encode (a map key that is not a string, say).
    #[error("a {what} does not encode: {err}")]
    Encode {
        /// The kind of message.
        what: &'static str,
        /// What serde_json said.
        err: serde_json::Error,
    },
    /// The bytes are not such a message (another version's, or garbage).
    #[error("not a {what}: {err}")]
    Decode {
        /// The kind of message expected.
        what: &'static str,
        /// What serde_json said.
        err: serde_json::Error,
    },
}

/// The bytes that carry `message`, or why it cannot go.
///
/// # Errors
/// [`WireError::TooLong`] over [`MAX_MESSAGE`]; [`WireError::Encode`] if it does not encode.
pub fn encode<M: Message>(message: &M) -> Result<Vec<u8>, WireError> {
    let bytes =
        serde_json::to_vec(message).map_err(|err| WireError::Encode { what: M::NAME, err })?;
    if bytes.len() > MAX_MESSAGE {
        return Err(WireError::TooLong {
            what: M::NAME,
            bytes: bytes.len(),
        });
    }
    Ok(bytes)
}

/// The message `bytes` carry, or why they do not.
///
/// # Errors
/// [`WireError::TooLong`] over [`MAX_MESSAGE`] (not parsed); [`WireError::Decode`] for bytes that
/// are not such a message.
pub fn decode<M: Message>(bytes: &[u8]) -> Result<M, WireError> {
    if bytes.len() > MAX_MESSAGE {
        return Err(WireError::TooLong {
            what: M::NAME,
            bytes: bytes.len(),
        });
    }
    serde_json::from_slice(bytes).map_err(|err| WireError::Decode { what: M::NAME, err })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::envelope::Who;
    use kingme_shared::protocol::{ClientMessage, GameId};

    fn request(name: String) -> Envelope {
        Envelope::Request {
            from: "node-a".to_owned(),
            player: Who::Person(name),
            message: ClientMessage::Watch { game: GameId(7) },
        }
    }

    #[test]
    fn an_envelope_comes_back_as_it_went() {
        let sent = Envelope::Departed {
            from: "node-b".to_owned(),
            player: Who::Guest {
                name: "guest".to_owned(),
                key: vec![1, 2, 3],
            },
        };
        let bytes = encode(&sent).expect("encodes");
        let got: Envelope = decode(&bytes).expect("decodes");
        assert_eq!(format!("{got:?}"), format!("{sent:?}"));
        let bytes = encode(&request("ann".to_owned())).expect("encodes");
        let got: Envelope = decode(&bytes).expect("decodes");
        assert_eq!(
            format!("{got:?}"),
            format!("{:?}", request("ann".to_owned()))
        );
    }

    #[test]
    fn an_admin_action_for_every_node_comes_back_as_it_went() {
        let sent = Envelope::Moderation {
            from: "node-a".to_owned(),
            admin: "root".to_owned(),
            action: kingme_shared::protocol::AdminAction::Ban {
                name: "mallory".to_owned(),
                reason: Some("spam in chat".to_owned()),
            },
        };
        let bytes = encode(&sent).expect("encodes");
        let got: Envelope = decode(&bytes).expect("decodes");
        assert_eq!(format!("{got:?}"), format!("{sent:?}"));
    }

    #[test]
    fn a_lobby_list_comes_back_as_it_went() {
        let empty: LobbyList = Vec::new();
        let bytes = encode(&empty).expect("encodes");
        assert_eq!(decode::<LobbyList>(&bytes).expect("decodes"), empty);
    }

    #[test]
    fn an_oversize_envelope_is_not_sent() {
        let huge = request("x".repeat(MAX_MESSAGE));
        match encode(&huge) {
            Err(WireError::TooLong { what, bytes }) => {
                assert_eq!(what, "cluster envelope");
                assert!(bytes > MAX_MESSAGE);
            }
            other => panic!("an oversize envelope encoded: {other:?}"),
        }
        // Just under the limit goes.
        let room = MAX_MESSAGE - encode(&request(String::new())).expect("encodes").len();
        assert!(encode(&request("x".repeat(room))).is_ok());
        assert!(encode(&request("x".repeat(room + 1))).is_err());
    }

    #[test]
    fn an_oversize_message_is_not_read() {
        let mut bytes = encode(&request("ann".to_owned())).expect("encodes");
        bytes.resize(MAX_MESSAGE + 1, b' ');
        let err = decode::<Envelope>(&bytes).expect_err("over the limit");
        assert!(
            matches!(err, WireError::TooLong { bytes, .. } if bytes == MAX_MESSAGE + 1),
            "{err}"
        );
        // The same padding within the limit is read (JSON allows trailing spaces).
        bytes.truncate(MAX_MESSAGE);
        assert!(decode::<Envelope>(&bytes).is_ok());
    }

    #[test]
    fn garbage_is_refused_with_what_was_expected() {
        for garbage in [
            &b""[..],
            b"\xff\xfe",
            b"{\"Nonsense\":1}",
            b"[1,2,3]",
            b"null",
        ] {
            let err = decode::<Envelope>(garbage).expect_err("garbage");
            assert!(matches!(err, WireError::Decode { .. }), "{err}");
            assert!(
                err.to_string().starts_with("not a cluster envelope: "),
                "{err}"
            );
        }
        let err = decode::<LobbyList>(b"{}").expect_err("not a list");
        assert!(err.to_string().starts_with("not a lobby list: "), "{err}");
    }
}
