//! The players' side with fresh connections, boardgame.io's workload: each pair plays match
//! after match, every match on two new connections. Each connection says hello (naming the
//! match) and waits for the relay's welcome, timed from connect to welcome; the first creates
//! the match, the second joins it, and once both are told it started they play a random game
//! of noughts and crosses (kingme's rules, a uniformly random legal move each turn, as
//! `kingme-load`'s players choose from the legal moves the server sends) and close both
//! connections.

use super::players::{Pair, PlayOptions, Tally, add_up, expect, open};
use super::wire::{self, PlayerRead, PlayerWrite, Wire};
use super::{FloorError, FrameReader, HandshakeSizes, Kind, put_frame};
use bytes::BytesMut;
use kingme_shared::Game;
use kingme_shared::games::tictactoe::TicTacToe;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::time::Instant;

/// How the pairs play their matches.
#[derive(Debug, Clone, Copy)]
pub struct MatchOptions {
    /// Think time and the sizes of the moves and their echoes and copies.
    pub play: PlayOptions,
    /// The sizes of the handshake and of a match's start (the relay must be told the same).
    pub handshake: HandshakeSizes,
}

/// The name match `number` of pair `index` goes by at the relay: unique among all matches.
fn match_key(index: u64, number: u64) -> u64 {
    (index << 32) | (number & 0xffff_ffff)
}

/// A new connection over `wire` that said hello for match `key` and had its welcome (the TLS
/// handshake included), timed into `tally`.
async fn connect(
    addr: SocketAddr,
    key: u64,
    sizes: HandshakeSizes,
    wire: Wire,
    tally: &mut Tally,
) -> Result<(FrameReader<PlayerRead>, PlayerWrite), FloorError> {
    let mut hello = BytesMut::new();
    put_frame(&mut hello, Kind::Hello, key, sizes.hello);
    let started = Instant::now();
    let (read, write) = open(addr, &hello, wire).await?;
    let mut reader = FrameReader::new(read);
    expect(&mut reader, Kind::Welcome, None).await?;
    tally.handshakes.push(started.elapsed());
    Ok((reader, write))
}

/// Opens match `key` of pair `index` on two new connections: the first creates it, the second
/// joins it, and both wait for the word that it started.
async fn open_match(
    addr: SocketAddr,
    index: u64,
    key: u64,
    options: &MatchOptions,
    tally: &mut Tally,
) -> Result<Pair, FloorError> {
    let (sizes, wire) = (options.handshake, options.play.wire);
    let mut creator = connect(addr, key, sizes, wire, tally).await?;
    let mut joiner = connect(addr, key, sizes, wire, tally).await?;
    let mut out = BytesMut::new();
    put_frame(&mut out, Kind::Create, key, sizes.create);
    wire::send(&mut creator.1, &out).await?;
    expect(&mut creator.0, Kind::Created, None).await?;
    out.clear();
    put_frame(&mut out, Kind::Join, key, sizes.join);
    wire::send(&mut joiner.1, &out).await?;
    expect(&mut joiner.0, Kind::Started, None).await?;
    expect(&mut creator.0, Kind::Started, None).await?;
    Ok(Pair::new([creator, joiner], index))
}

/// Plays pair `index`'s matches until `until`, and at least one: each on new connections,
/// closed when its game is over. The first match waits a random part of the think time, so
/// the pairs do not move in step.
pub async fn play_matches(
    addr: SocketAddr,
    index: u64,
    options: MatchOptions,
    until: Instant,
) -> Result<Tally, FloorError> {
    let think = options.play.think;
    let mut rng = StdRng::seed_from_u64(index);
    let mut tally = Tally::default();
    let mut legal = Vec::new();
    tokio::time::sleep(think.mul_f64(rng.random::<f64>())).await;
    while tally.matches == 0 || Instant::now() < until {
        let key = match_key(index, tally.matches);
        let mut pair = open_match(addr, index, key, &options, &mut tally).await?;
        let mut game = TicTacToe::start();
        let mut seq = 0;
        loop {
            game.generate_moves(&mut legal);
            let Some(&square) = legal.choose(&mut rng) else {
                break;
            };
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
            game.play_unchecked(square);
            seq += 1;
            let turn = usize::from(seq % 2 == 0);
            pair.play_move(turn, seq, &options.play, &mut tally).await?;
        }
        tally.matches += 1;
        // Both connections close here; the next match opens new ones.
        drop(pair);
    }
    Ok(tally)
}

/// Plays `pairs` pairs' matches until `until` and adds up what they counted.
pub async fn play_all(
    addr: SocketAddr,
    pairs: u64,
    options: MatchOptions,
    until: Instant,
) -> Result<Tally, FloorError> {
    let tasks = (0..pairs)
        .map(|index| tokio::spawn(play_matches(addr, index, options, until)))
        .collect();
    add_up(tasks).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::FrameSizes;
    use crate::floor::relay::{RelayCounts, RelayOptions, serve};
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    use std::time::Duration;
    use tokio::net::TcpListener;

    /// A relay for fresh connections over `wire` in this process, its address and its counts.
    async fn relay(wire: Wire) -> (tokio::task::JoinHandle<()>, SocketAddr, Arc<RelayCounts>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let addr = listener.local_addr().expect("an address");
        let options = RelayOptions {
            sizes: FrameSizes::default(),
            echo: true,
            handshake: Some(HandshakeSizes::default()),
        };
        let counts = Arc::new(RelayCounts::default());
        let tls = (wire == Wire::Tls).then(|| wire::acceptor().expect("a certificate"));
        let task = tokio::spawn({
            let counts = counts.clone();
            async move {
                let _ = serve(listener, options, tls, counts, None).await;
            }
        });
        (task, addr, counts)
    }

    fn options(wire: Wire) -> MatchOptions {
        MatchOptions {
            play: PlayOptions {
                think: Duration::ZERO,
                sizes: FrameSizes::default(),
                echo: true,
                wire,
            },
            handshake: HandshakeSizes::default(),
        }
    }

    /// Three pairs play matches over `wire` for a fifth of a second: every match on two new
    /// connections, every move relayed, every game whole.
    async fn every_match_is_new_and_whole(wire: Wire) {
        let (task, addr, counts) = relay(wire).await;
        let until = Instant::now() + Duration::from_millis(200);
        let tally = play_all(addr, 3, options(wire), until)
            .await
            .expect("the pairs play");
        task.abort();
        assert!(tally.matches >= 3, "each pair played a match: {tally:?}");
        assert_eq!(counts.accepted.load(Ordering::SeqCst), 2 * tally.matches);
        assert_eq!(counts.matches.load(Ordering::SeqCst), tally.matches);
        assert_eq!(counts.moves.load(Ordering::SeqCst), tally.moves);
        assert_eq!(tally.handshakes.len() as u64, 2 * tally.matches);
        assert_eq!((tally.copies, tally.echoes), (tally.moves, tally.moves));
        // A game of noughts and crosses lasts five to nine moves.
        assert!((5 * tally.matches..=9 * tally.matches).contains(&tally.moves));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_match_comes_on_two_new_connections_and_plays_a_whole_game() {
        every_match_is_new_and_whole(Wire::Plaintext).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn with_tls_every_match_comes_on_two_new_connections_and_plays_a_whole_game() {
        every_match_is_new_and_whole(Wire::Tls).await;
    }

    #[tokio::test]
    async fn the_joiner_may_come_before_the_creator() {
        let (task, addr, counts) = relay(Wire::Plaintext).await;
        let sizes = HandshakeSizes::default();
        let mut tally = Tally::default();
        let key = match_key(7, 0);
        let mut joiner = connect(addr, key, sizes, Wire::Plaintext, &mut tally)
            .await
            .expect("joins");
        let mut out = BytesMut::new();
        put_frame(&mut out, Kind::Join, key, sizes.join);
        wire::send(&mut joiner.1, &out)
            .await
            .expect("sends the join");
        let mut creator = connect(addr, key, sizes, Wire::Plaintext, &mut tally)
            .await
            .expect("joins");
        out.clear();
        put_frame(&mut out, Kind::Create, key, sizes.create);
        wire::send(&mut creator.1, &out)
            .await
            .expect("sends the create");
        expect(&mut creator.0, Kind::Created, None)
            .await
            .expect("created");
        expect(&mut creator.0, Kind::Started, None)
            .await
            .expect("the creator is told the match began");
        expect(&mut joiner.0, Kind::Started, None)
            .await
            .expect("the joiner is told the match began");
        let mut pair = Pair::new([creator, joiner], 7);
        for (turn, seq) in [(0, 1), (1, 2)] {
            pair.play_move(turn, seq, &options(Wire::Plaintext).play, &mut tally)
                .await
                .expect("the move is relayed");
        }
        task.abort();
        assert_eq!(counts.matches.load(Ordering::SeqCst), 1);
        assert_eq!(counts.moves.load(Ordering::SeqCst), 2);
    }
}
