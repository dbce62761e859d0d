//! The WebSocket transport: an upgraded connection becomes the stream of [`ClientMessage`]s and
//! the sink of [`ServerMessage`]s that [`serve_transport`] serves, one JSON text frame per
//! message (`kingme_shared::protocol::json`). A binary frame, a frame over the size limit and
//! text that is not a message are each a [`FrameError`]: the connection is told why and closed,
//! as on the TCP door. The WebSocket's own ping and pong frames are answered by the library and
//! are not messages; the protocol's `Ping` / `Pong` keep a connection alive here too.

use crate::net::connection::{Peer, serve_transport};
use crate::net::context::ConnectionContext;
use crate::net::frames::linger_messages;
use crate::net::transport::Outgoing;
use axum::extract::ws::{Message, WebSocket};
use futures::{SinkExt, StreamExt, future};
use kingme_shared::protocol::json::{decode_client_text, encode_server_text};
use kingme_shared::protocol::{ClientMessage, FrameError, MAX_CLIENT_TEXT, ServerMessage};
use std::sync::Arc;
use tungstenite::error::CapacityError;

/// The largest WebSocket frame and message the server reads (a longer one is refused from its
/// header, before its payload is buffered).
pub const MAX_WEBSOCKET_MESSAGE: usize = MAX_CLIENT_TEXT;
/// The size of a WebSocket's read buffer: tungstenite's default of 128 KiB, held by every socket,
/// made 300 MiB of 2,000 sockets. Twice the largest message a client may send, so a message
/// refused as too long has been read whole when the server answers and closes: with less, the
/// rest of it would still be unread in the socket, and closing a socket with unread input
/// resets the connection, which can destroy the answer before the client reads it
/// (`tests/tests/it/websocket.rs` sends one just over the limit).
pub const READ_BUFFER: usize = 2 * MAX_WEBSOCKET_MESSAGE;

/// Serves one upgraded WebSocket until it closes, then reads what the client still sends for a
/// moment so its close frame does not meet a reset.
pub async fn serve_websocket(socket: WebSocket, peer: Peer, context: Arc<ConnectionContext>) {
    let _counted = crate::telemetry::ConnectionGauge::open(crate::telemetry::Door::WebSocket);
    let id = context.next_connection_id();
    let stop = context.connections.clone();
    let (sink, stream) = socket.split();
    let incoming = stream.filter_map(|frame| future::ready(client_message(frame)));
    let incoming = serve_transport(incoming, outgoing(sink), peer, id, context).await;
    tokio::select! {
        () = linger_messages(incoming) => {}
        () = stop.cancelled() => {}
    }
}

/// One WebSocket frame as the connection sees it: a decoded message, an error, or nothing (the
/// WebSocket's own pings, pongs and close).
fn client_message(
    frame: Result<Message, axum::Error>,
) -> Option<Result<ClientMessage, FrameError>> {
    match frame {
        Ok(Message::Text(text)) => Some(decode_client_text(text.as_str())),
        Ok(Message::Binary(bytes)) => Some(Err(FrameError::Malformed(format!(
            "a binary frame of {} bytes: this door speaks JSON in text frames (the binary \
             protocol is the TCP port's)",
            bytes.len()
        )))),
        Ok(Message::Ping(_) | Message::Pong(_) | Message::Close(_)) => None,
        Err(err) => Some(Err(read_error(err))),
    }
}

/// A WebSocket read error as a frame error: too long and broken frames are the client's fault
/// and it is told; the rest (a reset, a broken pipe) only closes the connection.
fn read_error(err: axum::Error) -> FrameError {
    let err = err.into_inner();
    let Some(err) = err.downcast_ref::<tungstenite::Error>() else {
        return FrameError::Io(std::io::Error::other(err));
    };
    match err {
        tungstenite::Error::Capacity(CapacityError::MessageTooLong { size, max_size }) => {
            FrameError::TooLong {
                length: *size,
                limit: *max_size,
            }
        }
        tungstenite::Error::Capacity(_)
        | tungstenite::Error::Protocol(_)
        | tungstenite::Error::Utf8(_) => {
            FrameError::Malformed(format!("a broken WebSocket frame ({err})"))
        }
        _ => FrameError::Io(std::io::Error::other(err.to_string())),
    }
}

/// The writing half as a sink of server messages, each one JSON text frame.
fn outgoing(sink: futures::stream::SplitSink<WebSocket, Message>) -> impl Outgoing {
    sink.sink_map_err(|err| FrameError::Io(std::io::Error::other(err)))
        .with(|message: ServerMessage| {
            future::ready(encode_server_text(&message).map(|text| Message::Text(text.into())))
        })
}
