//! The relay's side: accept connections, match each to its partner by the pair its hello names,
//! then relay the pair's moves from one task that owns both sockets (see [`super`]).

use super::{FloorError, FrameReader, FrameSizes, Kind, parse, put_frame, take_payload};
use bytes::BytesMut;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the relay writes for a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayOptions {
    pub sizes: FrameSizes,
    /// Echo each move to its sender (as kingme's protocol needs); off: the copy only.
    pub echo: bool,
}

/// Connections that said hello and wait for their partner, by pair.
type Waiting = Arc<Mutex<HashMap<u64, TcpStream>>>;

/// Relays the pairs that connect to `listener` until the task is dropped. A connection that
/// breaks the frame rules ends its pair (both connections closed); the rest go on.
pub async fn serve(listener: TcpListener, options: RelayOptions) -> std::io::Result<()> {
    let waiting: Waiting = Arc::default();
    loop {
        let (stream, _) = listener.accept().await?;
        let waiting = waiting.clone();
        tokio::spawn(async move {
            // A pair that fails only ends itself: the measurement counts what was relayed.
            let _ = meet(stream, waiting, options).await;
        });
    }
}

/// Reads `stream`'s hello; the second of a pair to arrive relays the pair's moves.
async fn meet(
    mut stream: TcpStream,
    waiting: Waiting,
    options: RelayOptions,
) -> Result<(), FloorError> {
    stream.set_nodelay(true)?;
    let mut reader = FrameReader::new(&mut stream);
    let hello = reader.next().await?;
    if hello.kind != Kind::Hello {
        return Err(FloorError::Unexpected {
            expected: Kind::Hello,
            got: hello.kind,
        });
    }
    // The client sends nothing more before its partner has said hello too (its first move
    // waits for its partner's hello answer), so nothing is left behind in the reader's buffer.
    let partner = {
        let mut waiting = waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match waiting.remove(&hello.seq) {
            Some(partner) => partner,
            None => {
                waiting.insert(hello.seq, stream);
                return Ok(());
            }
        }
    };
    relay_pair([partner, stream], options).await
}

/// Relays a pair's moves: for each frame read from one socket, the echo back to it and the copy
/// to the other, one write each.
async fn relay_pair(mut pair: [TcpStream; 2], options: RelayOptions) -> Result<(), FloorError> {
    // Tell both the pair is complete: each sends its first move only after this.
    let mut ready = BytesMut::new();
    put_frame(&mut ready, Kind::Hello, 0, super::HEADER);
    for stream in &mut pair {
        stream.write_all(&ready).await?;
    }
    let [first, second] = &mut pair;
    let (mut first_read, mut first_write) = first.split();
    let (mut second_read, mut second_write) = second.split();
    let mut buffers = [BytesMut::with_capacity(1024), BytesMut::with_capacity(1024)];
    let mut out = BytesMut::with_capacity(256);
    loop {
        let [first_buffer, second_buffer] = &mut buffers;
        let from_first = tokio::select! {
            read = first_read.read_buf(first_buffer) => { ended(read?)?; true }
            read = second_read.read_buf(second_buffer) => { ended(read?)?; false }
        };
        let (buffer, mover, partner) = if from_first {
            (first_buffer, &mut first_write, &mut second_write)
        } else {
            (second_buffer, &mut second_write, &mut first_write)
        };
        while let Some(payload) = take_payload(buffer)? {
            let frame = parse(&payload)?;
            if frame.kind != Kind::Move {
                return Err(FloorError::Unexpected {
                    expected: Kind::Move,
                    got: frame.kind,
                });
            }
            if options.echo {
                out.clear();
                put_frame(&mut out, Kind::Echo, frame.seq, options.sizes.echo);
                mover.write_all(&out).await?;
            }
            out.clear();
            put_frame(&mut out, Kind::Copy, frame.seq, options.sizes.copy);
            partner.write_all(&out).await?;
        }
        buffer.reserve(512);
    }
}

/// A read of no bytes: the client went away.
fn ended(read: usize) -> Result<(), FloorError> {
    if read == 0 {
        Err(FloorError::Closed)
    } else {
        Ok(())
    }
}
