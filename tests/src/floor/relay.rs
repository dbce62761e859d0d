//! The relay's side: accept connections, match each to its partner by the pair (or match) its
//! hello names, then relay the pair's moves from one task that owns both sockets (see
//! [`super`]). It counts what it did ([`RelayCounts`]), so a run can check that every match
//! came on new connections and every move was relayed. Given a [`MoveStore`], each pair is a
//! stored game and each move is committed before its echo and copy are written.

use super::store::MoveStore;
use super::wire::{self, RelayStream};
use super::{
    FloorError, FrameReader, FrameSizes, HandshakeSizes, Kind, parse, put_frame, take_payload,
};
use bytes::BytesMut;
use kingme_shared::protocol::GameId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// What the relay writes for a move, and how a connection begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayOptions {
    /// The sizes of a move's frames.
    pub sizes: FrameSizes,
    /// Echo each move to its sender (as kingme's protocol needs); off: the copy only.
    pub echo: bool,
    /// Fresh connections, one match each: a welcome answers each hello, and the match begins
    /// with a create and a join of these sizes. `None`: connections kept, the hello alone
    /// pairs them and they play until they close.
    pub handshake: Option<HandshakeSizes>,
}

/// What the relay did, counted as it does it (before the answer is written, so a client that
/// has its answer finds it counted).
#[derive(Debug, Default)]
pub struct RelayCounts {
    /// Connections accepted.
    pub accepted: AtomicU64,
    /// Pairs matched: their two connections met and were told to begin.
    pub matches: AtomicU64,
    /// Moves relayed.
    pub moves: AtomicU64,
}

impl RelayCounts {
    /// The three counts as one line, as the relay process reports them.
    pub fn line(&self) -> String {
        format!(
            "relay counted: accepted {}   matches {}   moves {}",
            self.accepted.load(Ordering::SeqCst),
            self.matches.load(Ordering::SeqCst),
            self.moves.load(Ordering::SeqCst)
        )
    }
}

/// A connection's place in its pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seat {
    /// Connections kept: either of the two.
    Either,
    /// The match's creator, who moves first.
    Creator,
    /// The match's joiner.
    Joiner,
}

/// Connections that said hello and wait for their partner, by pair or match.
type Waiting = Arc<Mutex<HashMap<u64, (RelayStream, Seat)>>>;

/// Relays the pairs that connect to `listener` until the task is dropped, counting in
/// `counts`; with `tls`, each connection's TLS handshake comes first; with `store`, every move
/// is stored before it is relayed. A connection that breaks the frame rules (or its handshake),
/// or whose move cannot be stored, ends its pair (both connections closed); the rest go on.
pub async fn serve(
    listener: TcpListener,
    options: RelayOptions,
    tls: Option<TlsAcceptor>,
    counts: Arc<RelayCounts>,
    store: Option<Arc<MoveStore>>,
) -> std::io::Result<()> {
    let waiting: Waiting = Arc::default();
    loop {
        let (stream, _) = listener.accept().await?;
        counts.accepted.fetch_add(1, Ordering::Relaxed);
        let waiting = waiting.clone();
        let counts = counts.clone();
        let tls = tls.clone();
        let store = store.clone();
        tokio::spawn(async move {
            // A pair that fails only ends itself: the measurement counts what was relayed.
            if let Ok(stream) = wire::accept(stream, tls.as_ref()).await {
                let _ = meet(stream, waiting, options, counts, store.as_deref()).await;
            }
        });
    }
}

/// Reads `stream`'s hello (and with fresh connections answers it and reads the create or
/// join); the second of a pair to arrive relays the pair's moves.
async fn meet(
    mut stream: RelayStream,
    waiting: Waiting,
    options: RelayOptions,
    counts: Arc<RelayCounts>,
    store: Option<&MoveStore>,
) -> Result<(), FloorError> {
    let mut reader = FrameReader::new(&mut stream);
    let hello = expect(&mut reader, &[Kind::Hello]).await?;
    let seat = match options.handshake {
        None => Seat::Either,
        Some(sizes) => {
            let mut out = BytesMut::new();
            put_frame(&mut out, Kind::Welcome, 0, sizes.welcome);
            write(reader.get_mut(), &out).await?;
            if expect(&mut reader, &[Kind::Create, Kind::Join]).await?.kind == Kind::Create {
                out.clear();
                put_frame(&mut out, Kind::Created, 0, sizes.created);
                write(reader.get_mut(), &out).await?;
                Seat::Creator
            } else {
                Seat::Joiner
            }
        }
    };
    // A client sends nothing more before its match began (its first move waits for the word
    // that it did), so nothing is left behind in the reader's buffer.
    if reader.has_buffered() {
        return Err(FloorError::Early);
    }
    let partner = {
        let mut waiting = waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match waiting.remove(&hello.seq) {
            Some((partner, partner_seat)) => {
                if partner_seat == seat && seat != Seat::Either {
                    return Err(FloorError::SameRole(if seat == Seat::Creator {
                        "creators"
                    } else {
                        "joiners"
                    }));
                }
                (partner, partner_seat)
            }
            None => {
                waiting.insert(hello.seq, (stream, seat));
                return Ok(());
            }
        }
    };
    counts.matches.fetch_add(1, Ordering::Relaxed);
    // The creator first: it moves first.
    let pair = if partner.1 == Seat::Joiner {
        [stream, partner.0]
    } else {
        [partner.0, stream]
    };
    let starts = match options.handshake {
        None => [(Kind::Hello, super::HEADER); 2],
        Some(sizes) => [
            (Kind::Started, sizes.started_creator),
            (Kind::Started, sizes.started_joiner),
        ],
    };
    let game = match store {
        Some(store) => Some((store, store.begin_game().await?)),
        None => None,
    };
    relay_pair(pair, starts, options, &counts, game).await
}

/// The next frame of `reader`, which must be of one of `kinds`.
async fn expect<R: tokio::io::AsyncRead + Unpin>(
    reader: &mut FrameReader<R>,
    kinds: &[Kind],
) -> Result<super::Frame, FloorError> {
    let frame = reader.next().await?;
    if !kinds.contains(&frame.kind) {
        return Err(FloorError::Unexpected {
            expected: kinds[0],
            got: frame.kind,
        });
    }
    Ok(frame)
}

/// Relays a pair's moves: tells each connection the pair began with its frame of `starts`
/// (kind and size), then for each frame read from one socket writes the echo back to it and the
/// copy to the other, one write each; with `game`, only once the move is stored as the game's
/// next ply. The task owns both streams whole (no split halves): a read is only awaited while
/// nothing is being written.
async fn relay_pair(
    mut pair: [RelayStream; 2],
    starts: [(Kind, usize); 2],
    options: RelayOptions,
    counts: &RelayCounts,
    game: Option<(&MoveStore, GameId)>,
) -> Result<(), FloorError> {
    // Each sends its first move only after this.
    let mut out = BytesMut::with_capacity(256);
    for (stream, (kind, size)) in pair.iter_mut().zip(starts) {
        out.clear();
        put_frame(&mut out, kind, 0, size);
        write(stream, &out).await?;
    }
    let [first, second] = &mut pair;
    let mut ply = 0;
    let mut buffers = [BytesMut::with_capacity(1024), BytesMut::with_capacity(1024)];
    loop {
        let [first_buffer, second_buffer] = &mut buffers;
        let from_first = tokio::select! {
            read = first.read_buf(first_buffer) => { ended(read?)?; true }
            read = second.read_buf(second_buffer) => { ended(read?)?; false }
        };
        let (buffer, mover, partner) = if from_first {
            (first_buffer, &mut *first, &mut *second)
        } else {
            (second_buffer, &mut *second, &mut *first)
        };
        while let Some(payload) = take_payload(buffer)? {
            let frame = parse(&payload)?;
            if frame.kind != Kind::Move {
                return Err(FloorError::Unexpected {
                    expected: Kind::Move,
                    got: frame.kind,
                });
            }
            if let Some((store, game)) = game {
                ply += 1;
                store.store_move(game, ply).await?;
            }
            counts.moves.fetch_add(1, Ordering::Relaxed);
            if options.echo {
                out.clear();
                put_frame(&mut out, Kind::Echo, frame.seq, options.sizes.echo);
                write(mover, &out).await?;
            }
            out.clear();
            put_frame(&mut out, Kind::Copy, frame.seq, options.sizes.copy);
            write(partner, &out).await?;
        }
        buffer.reserve(512);
    }
}

/// Writes `bytes` to `stream` and flushes them (TLS records leave the session's buffer), one
/// `send` on the socket.
async fn write(stream: &mut RelayStream, bytes: &[u8]) -> Result<(), FloorError> {
    stream.write_all(bytes).await?;
    stream.flush().await?;
    Ok(())
}

/// A read of no bytes: the client went away.
fn ended(read: usize) -> Result<(), FloorError> {
    if read == 0 {
        Err(FloorError::Closed)
    } else {
        Ok(())
    }
}
