//! What a test client talks through: the TCP door's binary frames or the WebSocket door's JSON
//! text frames, behind the same two calls, so every helper of [`crate::client::Client`] works
//! through either door and a test can seat one player at each.

use futures::{SinkExt, StreamExt};
use kingme_shared::protocol::json::{decode_server_text, encode_client_text};
use kingme_shared::protocol::{ClientCodec, ClientMessage, ServerMessage};
use std::net::SocketAddr;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tokio_util::codec::Framed;

/// A WebSocket connection to the HTTP door.
pub type WebSocket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One connection to the server, through either door.
#[derive(Debug)]
pub enum Link {
    Tcp(Framed<TcpStream, ClientCodec>),
    WebSocket(Box<WebSocket>),
}

impl Link {
    /// Opens a WebSocket to the HTTP door at `addr` (`ws://addr/ws`).
    pub async fn websocket(addr: SocketAddr) -> Link {
        let (socket, _response) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("open a WebSocket to the server's HTTP door");
        Link::WebSocket(Box::new(socket))
    }

    /// Sends a message (a binary frame, or a JSON text frame).
    pub async fn send(&mut self, message: ClientMessage) {
        match self {
            Link::Tcp(frames) => frames.send(message).await.expect("send a message"),
            Link::WebSocket(socket) => {
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
            Link::Tcp(frames) => frames
                .next()
                .await
                .map(|message| message.map_err(|err| err.to_string())),
            Link::WebSocket(socket) => loop {
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
            Link::Tcp(_) => None,
            Link::WebSocket(socket) => Some(socket),
        }
    }
}
