//! What a connection runs over, as two traits: a stream of the client's decoded messages in
//! ([`Incoming`]) and a sink of the server's messages out ([`Outgoing`]). The TCP door gives the
//! binary frames' codec halves, the WebSocket door its JSON text frames; the connection code
//! above them is one for both.

use futures::{Sink, Stream};
use kingme_shared::protocol::{ClientMessage, FrameError, ServerMessage};

/// What a connection reads: the client's messages, decoded, or the error that ends it.
pub trait Incoming: Stream<Item = Result<ClientMessage, FrameError>> + Unpin + Send {}
impl<T: Stream<Item = Result<ClientMessage, FrameError>> + Unpin + Send> Incoming for T {}

/// What a connection writes to: the server's messages, encoded by the transport.
pub trait Outgoing: Sink<ServerMessage, Error = FrameError> + Unpin + Send + 'static {}
impl<T: Sink<ServerMessage, Error = FrameError> + Unpin + Send + 'static> Outgoing for T {}
