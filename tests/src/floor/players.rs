//! The players' side: pairs of clients that connect to the relay and take turns, paced like
//! `kingme-load` (the one whose turn it is waits the think time, sends its move, and the
//! partner takes the turn when the copy arrives), counting every copy and echo that came back.

use super::wire::{self, PlayerRead, PlayerWrite, Wire};
use super::{FloorError, Frame, FrameReader, FrameSizes, Kind, put_frame};
use bytes::BytesMut;
use futures::future::try_join_all;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// How the pairs play.
#[derive(Debug, Clone, Copy)]
pub struct PlayOptions {
    /// What a player waits before sending its move (zero: at once).
    pub think: Duration,
    /// The sizes of a move's frames.
    pub sizes: FrameSizes,
    /// Whether the relay echoes each move to its sender (it must be told the same).
    pub echo: bool,
    /// Plaintext or TLS (the relay must be told the same).
    pub wire: Wire,
}

/// Two connections the relay has matched, ready to play.
#[derive(Debug)]
pub struct Pair {
    pub(super) readers: [FrameReader<PlayerRead>; 2],
    pub(super) writers: [PlayerWrite; 2],
    index: u64,
    /// The move being sent.
    out: BytesMut,
}

impl Pair {
    /// Pair `index` of the two connections `halves`, the first moving first.
    pub(super) fn new(halves: [(FrameReader<PlayerRead>, PlayerWrite); 2], index: u64) -> Pair {
        let [(first_read, first_write), (second_read, second_write)] = halves;
        Pair {
            readers: [first_read, second_read],
            writers: [first_write, second_write],
            index,
            out: BytesMut::with_capacity(64),
        }
    }

    /// Player `turn` sends move `seq`; its copy is awaited at the partner (timed) and, if the
    /// relay echoes, its echo at the mover.
    pub(super) async fn play_move(
        &mut self,
        turn: usize,
        seq: u64,
        options: &PlayOptions,
        tally: &mut Tally,
    ) -> Result<(), FloorError> {
        self.out.clear();
        put_frame(&mut self.out, Kind::Move, seq, options.sizes.moves);
        let sent = Instant::now();
        wire::send(&mut self.writers[turn], &self.out).await?;
        tally.moves += 1;
        expect(&mut self.readers[1 - turn], Kind::Copy, Some(seq)).await?;
        tally.latencies.push(sent.elapsed());
        tally.copies += 1;
        if options.echo {
            expect(&mut self.readers[turn], Kind::Echo, Some(seq)).await?;
            tally.echoes += 1;
        }
        Ok(())
    }
}

/// What the pairs counted.
#[derive(Debug, Default)]
pub struct Tally {
    /// Moves sent.
    pub moves: u64,
    /// Copies the partners received, each of the move just sent.
    pub copies: u64,
    /// Echoes the movers received, each of the move just sent.
    pub echoes: u64,
    /// From each move sent to its copy's receipt.
    pub latencies: Vec<Duration>,
    /// Matches played to their end (with fresh connections; kept ones play one long match).
    pub matches: u64,
    /// From each fresh connection's connect to its welcome.
    pub handshakes: Vec<Duration>,
}

impl Tally {
    /// Adds `other`'s counts and latencies to these.
    pub fn add(&mut self, other: Tally) {
        self.moves += other.moves;
        self.copies += other.copies;
        self.echoes += other.echoes;
        self.latencies.extend(other.latencies);
        self.matches += other.matches;
        self.handshakes.extend(other.handshakes);
    }
}

/// A move sent is not relayed within a minute: the relay is stuck, not slow.
const STUCK: Duration = Duration::from_secs(60);

/// Connects `pairs` pairs to the relay at `addr` over `wire`, a hundred connections at a time.
pub async fn connect_all(
    addr: SocketAddr,
    pairs: u64,
    wire: Wire,
) -> Result<Vec<Pair>, FloorError> {
    let mut connected = Vec::new();
    let indices: Vec<u64> = (0..pairs).collect();
    for batch in indices.chunks(50) {
        connected
            .extend(try_join_all(batch.iter().map(|index| connect(addr, *index, wire))).await?);
    }
    Ok(connected)
}

/// Connects pair `index`: two connections, each saying hello, then waiting for the relay's
/// word that its partner is there.
pub async fn connect(addr: SocketAddr, index: u64, wire: Wire) -> Result<Pair, FloorError> {
    let mut hello = BytesMut::new();
    put_frame(&mut hello, Kind::Hello, index, super::HEADER);
    let (first_read, first_write) = open(addr, &hello, wire).await?;
    let (second_read, second_write) = open(addr, &hello, wire).await?;
    let mut pair = Pair::new(
        [
            (FrameReader::new(first_read), first_write),
            (FrameReader::new(second_read), second_write),
        ],
        index,
    );
    for reader in &mut pair.readers {
        expect(reader, Kind::Hello, None).await?;
    }
    Ok(pair)
}

/// One connection to the relay that said `hello`, split into its halves.
pub(super) async fn open(
    addr: SocketAddr,
    hello: &[u8],
    wire: Wire,
) -> Result<(PlayerRead, PlayerWrite), FloorError> {
    let (read, mut write) = wire::connect(addr, wire).await?;
    wire::send(&mut write, hello).await?;
    Ok((read, write))
}

/// Reads the next frame and checks it is of `kind` and (if given) for move `seq`.
pub(super) async fn expect(
    reader: &mut FrameReader<PlayerRead>,
    kind: Kind,
    seq: Option<u64>,
) -> Result<Frame, FloorError> {
    let frame = tokio::time::timeout(STUCK, reader.next())
        .await
        .map_err(|_| FloorError::Stuck(STUCK))??;
    if frame.kind != kind {
        return Err(FloorError::Unexpected {
            expected: kind,
            got: frame.kind,
        });
    }
    if let Some(expected) = seq.filter(|expected| *expected != frame.seq) {
        return Err(FloorError::OutOfOrder {
            what: if kind == Kind::Echo { "echo" } else { "copy" },
            expected,
            got: frame.seq,
        });
    }
    Ok(frame)
}

/// Plays `pair` until `until`, and at least one move each: each move sent, its copy awaited at
/// the partner (timed) and its echo at the mover. The first move waits a random part of the
/// think time, so the pairs do not move in step.
pub async fn play(
    mut pair: Pair,
    options: PlayOptions,
    until: Instant,
) -> Result<Tally, FloorError> {
    let mut rng = StdRng::seed_from_u64(pair.index);
    let mut tally = Tally::default();
    tokio::time::sleep(options.think.mul_f64(rng.random::<f64>())).await;
    let mut turn = 0;
    while tally.moves < 2 || Instant::now() < until {
        if !options.think.is_zero() {
            tokio::time::sleep(options.think).await;
        }
        let seq = tally.moves + 1;
        pair.play_move(turn, seq, &options, &mut tally).await?;
        turn = 1 - turn;
    }
    Ok(tally)
}

/// Plays every pair until `until` and adds up what they counted.
pub async fn play_all(
    pairs: Vec<Pair>,
    options: PlayOptions,
    until: Instant,
) -> Result<Tally, FloorError> {
    let tasks = pairs
        .into_iter()
        .map(|pair| tokio::spawn(play(pair, options, until)))
        .collect();
    add_up(tasks).await
}

/// Waits for every task and adds up what they counted; the first failure ends the wait.
pub(super) async fn add_up(
    tasks: Vec<tokio::task::JoinHandle<Result<Tally, FloorError>>>,
) -> Result<Tally, FloorError> {
    let mut total = Tally::default();
    for task in tasks {
        let tally = task
            .await
            .map_err(|error| FloorError::Io(std::io::Error::other(error)))??;
        total.add(tally);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::relay::{RelayCounts, RelayOptions, serve};
    use crate::floor::store::{MoveStore, Storing};
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    use tokio::net::TcpListener;

    /// A relay for kept connections over `wire` in this process, storing in `store` if given:
    /// its address, its counts and its task.
    async fn relay(
        echo: bool,
        wire: Wire,
        store: Option<Arc<MoveStore>>,
    ) -> (
        std::net::SocketAddr,
        std::sync::Arc<RelayCounts>,
        tokio::task::JoinHandle<std::io::Result<()>>,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let addr = listener.local_addr().expect("an address");
        let options = RelayOptions {
            sizes: FrameSizes::default(),
            echo,
            handshake: None,
        };
        let counts = std::sync::Arc::new(RelayCounts::default());
        let tls = (wire == Wire::Tls).then(|| wire::acceptor().expect("a certificate"));
        let task = tokio::spawn(serve(listener, options, tls, counts.clone(), store));
        (addr, counts, task)
    }

    /// Runs a relay (storing in `store` if given) and `pairs` pairs over `wire` flat out for a
    /// fifth of a second.
    async fn run(pairs_asked: u64, echo: bool, wire: Wire, store: Option<Arc<MoveStore>>) -> Tally {
        let sizes = FrameSizes::default();
        let (addr, counts, relay) = relay(echo, wire, store).await;
        let pairs = connect_all(addr, pairs_asked, wire)
            .await
            .expect("the pairs connect");
        let options = PlayOptions {
            think: Duration::ZERO,
            sizes,
            echo,
            wire,
        };
        let until = Instant::now() + Duration::from_millis(200);
        let tally = play_all(pairs, options, until)
            .await
            .expect("the pairs play");
        relay.abort();
        assert_eq!(counts.accepted.load(Ordering::SeqCst), pairs_asked * 2);
        assert_eq!(counts.matches.load(Ordering::SeqCst), pairs_asked);
        assert_eq!(counts.moves.load(Ordering::SeqCst), tally.moves);
        tally
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_move_is_copied_to_the_partner_and_echoed_to_the_mover() {
        let tally = run(3, true, Wire::Plaintext, None).await;
        assert!(tally.moves >= 6, "each player moved: {tally:?}");
        assert_eq!(tally.copies, tally.moves);
        assert_eq!(tally.echoes, tally.moves);
        assert_eq!(tally.latencies.len() as u64, tally.moves);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn with_tls_every_move_is_copied_to_the_partner_and_echoed_to_the_mover() {
        let tally = run(3, true, Wire::Tls, None).await;
        assert!(tally.moves >= 6, "each player moved: {tally:?}");
        assert_eq!(tally.copies, tally.moves);
        assert_eq!(tally.echoes, tally.moves);
    }

    #[tokio::test]
    async fn a_player_without_tls_gets_no_answer_from_a_relay_with_tls() {
        let (addr, counts, relay) = relay(true, Wire::Tls, None).await;
        let refused = connect(addr, 0, Wire::Plaintext).await;
        relay.abort();
        // The relay answers the plaintext hello with a TLS alert (read as a frame far too
        // long) or closes the connection: never with its hello.
        assert!(
            matches!(
                refused,
                Err(FloorError::TooLong(_) | FloorError::Closed | FloorError::Io(_))
            ),
            "{refused:?}"
        );
        assert_eq!(counts.matches.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn without_the_echo_only_the_copy_comes() {
        let tally = run(2, false, Wire::Plaintext, None).await;
        assert!(tally.moves >= 4, "each player moved: {tally:?}");
        assert_eq!(tally.copies, tally.moves);
        assert_eq!(tally.echoes, 0);
    }

    /// Plays 3 pairs over TLS against a relay storing as `storing` in a new file; every move
    /// relayed is in the file, each game's plies in turn.
    async fn every_move_relayed_is_stored(storing: Storing) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Arc::new(
            MoveStore::open(&dir.path().join("floor.sqlite"), storing).expect("the store opens"),
        );
        let tally = run(3, true, Wire::Tls, Some(store.clone())).await;
        assert!(tally.moves >= 6, "each player moved: {tally:?}");
        assert_eq!(tally.copies, tally.moves);
        let games = store.games();
        assert_eq!(games.len(), 3, "a game a pair");
        let mut stored = 0;
        for game in games {
            stored += store.stored_moves(game).await.expect("the game reads back") as u64;
        }
        // A move is counted as relayed only once stored; one in flight when the relay stopped
        // may be stored and not yet relayed.
        assert!(
            stored >= tally.moves,
            "{stored} stored, {} relayed",
            tally.moves
        );
        assert!(
            stored <= tally.moves + 3,
            "{stored} stored, {} relayed",
            tally.moves
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn through_the_storage_worker_every_move_relayed_is_stored_first() {
        every_move_relayed_is_stored(Storing::Worker).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn stored_inline_every_move_relayed_is_stored_first() {
        every_move_relayed_is_stored(Storing::Inline).await;
    }
}
