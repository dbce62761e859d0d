//! The writing half of a connection: queued messages written as frames, in batches with one
//! flush each, each as the client's protocol version can decode it ([`ClientVersion`]), the goodbye written on closing, and the closed connection's input drained for a
//! moment so the goodbye is not destroyed by a reset.

use super::client_version::ClientVersion;
use super::transport::{Incoming, Outgoing};
use futures::{SinkExt, StreamExt};
use kingme_shared::protocol::{FrameError, ServerMessage};
use std::pin::pin;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::mpsc;
use tokio::time::Duration;
use tokio_util::sync::CancellationToken;

/// How long a closing connection may take to write what was queued for it.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long, and how many bytes, a closed connection's input is drained (see [`linger`]).
const LINGER_TIME: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 256 * 1024;
const LINGER_MESSAGES: usize = 64;

/// Reads and drops what the client still sends for a moment after the goodbye was written.
/// Closing a socket with unread input makes the kernel reset the connection, and a reset can
/// destroy the goodbye (the error saying why) before the client reads it.
pub async fn linger(mut read: impl AsyncRead + Unpin) {
    let mut sink = [0_u8; 4096];
    let drain = async {
        let mut total = 0_usize;
        while total < LINGER_BYTES {
            match read.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, drain).await;
}

/// [`linger`] for a transport of messages (a WebSocket): reads and drops what the client still
/// sends, at most [`LINGER_MESSAGES`] messages for [`LINGER_TIME`], until it closes its side.
pub async fn linger_messages(mut incoming: impl Incoming) {
    let drain = async {
        for _ in 0..LINGER_MESSAGES {
            if incoming.next().await.is_none() {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, drain).await;
}

/// Writes queued messages as frames, each as the client's `version` can decode it, until the
/// connection closes; on closing, writes what was queued (the goodbye) and closes the sink (a
/// socket's write side is shut; a WebSocket sends its close frame).
pub async fn write_frames(
    mut sink: impl Outgoing,
    mut queue: mpsc::Receiver<Box<ServerMessage>>,
    version: ClientVersion,
    closing: CancellationToken,
    kick: CancellationToken,
) {
    // Made once, not for every batch: each new wait registers with its token and drops out.
    let mut kicked = pin!(kick.cancelled());
    let mut closed = pin!(closing.cancelled());
    loop {
        let message = tokio::select! {
            biased;
            () = &mut kicked => return,
            () = &mut closed => None,
            message = queue.recv() => message,
        };
        let Some(message) = message else { break };
        let written = tokio::select! {
            () = &mut kicked => return,
            written = write_batch(&mut sink, message, &mut queue, &version) => written,
        };
        if written.is_err() {
            return;
        }
    }
    let finish = async {
        while let Ok(message) = queue.try_recv() {
            sink.feed(version.adapt(*message)).await?;
        }
        sink.flush().await?;
        sink.close().await?;
        Ok::<(), FrameError>(())
    };
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, finish).await;
}

/// Writes a message and every other one already queued, then flushes once.
async fn write_batch(
    sink: &mut impl Outgoing,
    first: Box<ServerMessage>,
    queue: &mut mpsc::Receiver<Box<ServerMessage>>,
    version: &ClientVersion,
) -> Result<(), FrameError> {
    sink.feed(version.adapt(*first)).await?;
    while let Ok(message) = queue.try_recv() {
        sink.feed(version.adapt(*message)).await?;
    }
    sink.flush().await
}
