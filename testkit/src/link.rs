//! What a test client talks through: the TCP door's binary frames or the WebSocket door's JSON
//! text frames, behind the same two calls, so every helper of [`crate::client::Client`] works
//! through either door and a test can seat one player at each. Both go over TLS, dialled as
//! the kingme client dials (`kingme_client::net::dial`), trusting the test's own server on first
//! use without writing a `known_servers` file; [`Link::binding`] is what a proof on it signs.

use futures::{SinkExt, StreamExt};
use kingme_client::net::dial::{self, Dialed, Security, ServerStream};
use kingme_shared::identity::ChannelBinding;
use kingme_shared::protocol::json::{decode_server_text, encode_client_text};
use kingme_shared::protocol::{ClientCodec, ClientMessage, ServerMessage};
use std::fmt::Display;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_util::codec::Framed;

/// A WebSocket connection to the HTTP door.
pub type WebSocket = WebSocketStream<ServerStream>;

/// One connection to the server, through either door.
#[derive(Debug)]
pub enum Link {
    /// The TCP door's binary frames, and the channel binding a proof signs.
    Tcp(Box<Framed<ServerStream, ClientCodec>>, ChannelBinding),
    /// The web door's JSON text frames, and the channel binding a proof signs.
    WebSocket(Box<WebSocket>, ChannelBinding),
}

/// Whether a test connects over TLS (the servers' default) or to a `--plaintext` server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wire {
    /// TLS, the certificate trusted as the client trusts it.
    #[default]
    Tls,
    /// No TLS, to a server started with `--plaintext`.
    Plaintext,
}

impl Wire {
    fn security(self) -> Security {
        match self {
            // Trusted on first use, pinned for this connection only: tests start their servers
            // on fresh ports with fresh certificates.
            Wire::Tls => Security::Tls {
                known_servers: None,
            },
            Wire::Plaintext => Security::Plaintext { sign_in: true },
        }
    }
}

/// Dials `addr` (`127.0.0.1:port`, or a name and a port) as the kingme client does.
///
/// # Panics
/// When the server cannot be reached or its TLS fails: the test fails there.
pub async fn dial(addr: impl Display, wire: Wire) -> Dialed {
    dial::dial(&addr.to_string(), &wire.security())
        .await
        .unwrap_or_else(|err| panic!("connect to the server at {addr}: {err}"))
}

impl Link {
    /// Opens the TCP door's connection to `addr`.
    pub async fn tcp(addr: impl Display, wire: Wire) -> Link {
        let dialed = dial(addr, wire).await;
        Link::Tcp(
            Box::new(Framed::new(dialed.stream, ClientCodec::client())),
            dialed.binding,
        )
    }

    /// Opens a WebSocket to the HTTP door at `addr` (`wss://addr/ws`, or `ws://` with
    /// [`Wire::Plaintext`]).
    pub async fn websocket(addr: impl Display, wire: Wire) -> Link {
        let dialed = dial(&addr, wire).await;
        let scheme = match wire {
            Wire::Tls => "wss",
            Wire::Plaintext => "ws",
        };
        let (socket, _response) =
            tokio_tungstenite::client_async(format!("{scheme}://{addr}/ws"), dialed.stream)
                .await
                .expect("open a WebSocket to the server's HTTP door");
        Link::WebSocket(Box::new(socket), dialed.binding)
    }

    /// What a person's proof on this connection signs: the certificate the server showed.
    #[must_use]
    pub fn binding(&self) -> ChannelBinding {
        match self {
            Link::Tcp(_, binding) | Link::WebSocket(_, binding) => *binding,
        }
    }

    /// Sends a message (a binary frame, or a JSON text frame).
    pub async fn send(&mut self, message: ClientMessage) {
        match self {
            Link::Tcp(frames, _) => frames.send(message).await.expect("send a message"),
            Link::WebSocket(socket, _) => {
                let text = encode_client_text(&message).expect("encode a message as JSON");
                socket
                    .send(Message::text(text))
                    .await
                    .expect("send a text frame");
            }
        }
    }

    /// The next message from the server; `None` once it closed the connection. A message that
    /// cannot be read is an error naming what came.
    pub async fn next(&mut self) -> Option<Result<ServerMessage, String>> {
        match self {
            Link::Tcp(frames, _) => frames
                .next()
                .await
                .map(|message| message.map_err(|err| err.to_string())),
            Link::WebSocket(socket, _) => loop {
                let frame = match socket.next().await? {
                    Ok(frame) => frame,
                    // The server may close the TCP connection right after its close frame.
                    Err(
                        tungstenite::Error::ConnectionClosed
                        | tungstenite::Error::AlreadyClosed
                        | tungstenite::Error::Protocol(
                            tungstenite::error::ProtocolError::ResetWithoutClosingHandshake,
                        ),
                    ) => return None,
                    Err(err) => return Some(Err(err.to_string())),
                };
                match frame {
                    Message::Text(text) => {
                        return Some(decode_server_text(text.as_str()).map_err(|err| {
                            format!("{err} in the text frame {:?}", text.as_str())
                        }));
                    }
                    Message::Close(_) => return None,
                    Message::Binary(bytes) => {
                        return Some(Err(format!("a binary frame of {} bytes", bytes.len())));
                    }
                    Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
                }
            },
        }
    }

    /// The WebSocket, for tests that send raw frames.
    pub fn socket(&mut self) -> Option<&mut WebSocket> {
        match self {
            Link::Tcp(..) => None,
            Link::WebSocket(socket, _) => Some(socket),
        }
    }
}
