//! The hello step of one connection: the `Hello` (a person's public key and legacy secret, or a
//! guest's resume token), for a person the `Challenge` answered with a proof bound to this
//! connection's TLS certificate, pings answered meanwhile, and the `Welcome` or the refusal.

use super::{CONNECT_TIMEOUT, End, NetConfig, ServerStream, read_failed};
use futures::{SinkExt, StreamExt};
use kingme_shared::identity::{ChannelBinding, ProofScope, SigningKey, sign_proof};
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, ErrorKind, GameId, PROTOCOL_VERSION, ServerMessage,
};
use tokio_util::codec::Framed;

/// What the hello step ended with (one a connection: its size does not matter).
#[allow(clippy::large_enum_variant)]
pub(super) enum Handshake {
    Welcomed {
        resume_token: String,
        /// The games in progress the welcome gave back.
        games: Vec<GameId>,
        message: Box<ServerMessage>,
    },
    Refused(ErrorKind, String),
    Failed(End),
}

/// Says hello and, for a person, answers the challenge with the key, bound to `binding`.
pub(super) async fn handshake(
    frames: &mut Framed<ServerStream, ClientCodec>,
    binding: ChannelBinding,
    config: &NetConfig,
    key: Option<&SigningKey>,
    secret: Option<String>,
    token: Option<String>,
) -> Handshake {
    let hello = ClientMessage::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: config.name.clone(),
        public_key: key.map(|key| key.verifying_key().to_bytes()),
        legacy_secret: secret,
        // A person's seats follow the key; only a guest needs its token.
        resume: token.filter(|_| config.guest),
        guest: config.guest,
    };
    if let Err(err) = frames.send(hello).await {
        return Handshake::Failed(End::Lost(err.to_string()));
    }
    loop {
        match tokio::time::timeout(CONNECT_TIMEOUT, frames.next()).await {
            Ok(Some(Ok(ServerMessage::Challenge { server_id, nonce }))) => {
                let Some(key) = key else {
                    return Handshake::Failed(End::Final(
                        "the server asked a guest for a key".to_owned(),
                    ));
                };
                // Bound to this connection as this client saw it: a relay that passed this
                // challenge on from another server cannot use the proof there.
                let scope = ProofScope {
                    server_id: &server_id,
                    nonce: &nonce,
                    binding,
                };
                let signature = sign_proof(key, scope, &config.name);
                if let Err(err) = frames.send(ClientMessage::Prove { signature }).await {
                    return Handshake::Failed(End::Lost(err.to_string()));
                }
            }
            Ok(Some(Ok(message @ ServerMessage::Welcome { .. }))) => {
                let ServerMessage::Welcome {
                    resume_token,
                    games,
                    ..
                } = &message
                else {
                    continue;
                };
                return Handshake::Welcomed {
                    resume_token: resume_token.clone(),
                    games: games.clone(),
                    message: Box::new(message),
                };
            }
            Ok(Some(Ok(ServerMessage::Ping { nonce }))) => {
                if let Err(err) = frames.send(ClientMessage::Pong { nonce }).await {
                    return Handshake::Failed(End::Lost(err.to_string()));
                }
            }
            Ok(Some(Ok(ServerMessage::Error { kind, message, .. }))) => {
                return Handshake::Refused(kind, message);
            }
            Ok(Some(Ok(other))) => {
                return Handshake::Failed(End::Final(format!(
                    "the server answered the hello with {other:?}"
                )));
            }
            Ok(Some(Err(err))) => return Handshake::Failed(read_failed(&err)),
            Ok(None) => {
                return Handshake::Failed(End::Lost("the server closed the connection".to_owned()));
            }
            Err(_) => {
                return Handshake::Failed(End::Lost(
                    "the server did not answer the hello".to_owned(),
                ));
            }
        }
    }
}
