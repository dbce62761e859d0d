//! `kingme-load`: a load generator. It opens many real TCP clients (or WebSocket clients with
//! `--websocket`, through the HTTP door, JSON text frames) that play many games at once
//! with quick random moves, plus idle connections if asked, and prints moves per second, move
//! relay latency (from a move sent to the opponent receiving it) as p50/p99/max, the connections
//! held, and the server's memory.
//!
//! Without `--addr` it starts a server in this process (then the memory figure covers server and
//! clients together); with `--addr` and `--server-pid` it measures a separate `kingme-server`,
//! and with `--after-secs` its memory once more after the load has left. On a cluster, `--addr`
//! (and `--server-pid`) repeated spreads the games over the nodes, each game's two players at
//! the same node, or at two different nodes with `--cross-node` (so every move crosses Redis).

use anyhow::{Context, bail};
use clap::Parser;
use futures::future::join_all;
use kingme_server::host::{Config, ServerHandle, TlsSettings, TlsSource};
use kingme_shared::GameKind;
use kingme_shared::protocol::{ClientMessage, GameId, Opponent, ServerMessage};
use kingme_shared::{Side, protocol::SeatChoice};
use kingme_testkit::link::{Link, Wire};
use kingme_testkit::{Client, options};
use kingme_tests::measure::{cpu_time, percentile, players_line, rss_kib, sorted_latencies_from};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Plays many concurrent games against a kingme server and prints throughput and latency.
#[derive(Debug, Parser)]
#[command(name = "kingme-load")]
struct Args {
    /// The server to load; without it a server is started in this process. Repeated: the
    /// nodes of a cluster, game `i` created at node `i mod n`.
    #[arg(long)]
    addr: Vec<SocketAddr>,
    /// The server's process id, to report its memory and CPU (with `--addr`; repeated for the
    /// nodes of a cluster: the figures are their sums).
    #[arg(long)]
    server_pid: Vec<u32>,
    /// With several `--addr`: each game's second player at the next node, not its creator's,
    /// so every move travels between nodes.
    #[arg(long)]
    cross_node: bool,
    /// Concurrent games (two connections each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Extra connections that only say hello and stay idle.
    #[arg(long, default_value_t = 0)]
    idle: usize,
    /// The game played.
    #[arg(long, default_value = "tictactoe")]
    kind: GameKind,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 10)]
    secs: u64,
    /// Milliseconds a client waits before answering its turn (0: at once).
    #[arg(long, default_value_t = 20)]
    think_ms: u64,
    /// Seconds to wait after every client has gone before reading the server's memory once
    /// more (with `--server-pid`): whether what the load cost is given back.
    #[arg(long, default_value_t = 0)]
    after_secs: u64,
    /// boardgame.io's workload: every match on two new connections (a fresh handshake each),
    /// which close when it ends (without `Leave`); matches per second and handshake latency
    /// are reported.
    #[arg(long)]
    fresh_connections: bool,
    /// Connect through the WebSocket door (JSON text frames) instead of TCP: with `--addr`, the
    /// address of the server's `--http` door.
    #[arg(long)]
    websocket: bool,
    /// Connect without TLS (to a `kingme-server --plaintext`; without `--addr`, the server this
    /// process starts runs plaintext too): what TLS costs, measured one run after the other.
    #[arg(long)]
    plaintext: bool,
}

/// Where the clients connect, and through which door.
#[derive(Debug, Clone)]
struct Target {
    /// The server, or the nodes of a cluster.
    addrs: Arc<[SocketAddr]>,
    websocket: bool,
    /// TLS (the default) or plaintext.
    wire: Wire,
    /// Each pair's second player at another node than its first.
    cross_node: bool,
}

impl Target {
    /// The node player `side` (0 creates the game, 1 joins it) of pair `index` connects to.
    fn addr(&self, index: usize, side: usize) -> SocketAddr {
        let step = usize::from(self.cross_node) * side;
        self.addrs[(index + step) % self.addrs.len()]
    }

    /// A new connection to `addr` that said hello as the guest `name`.
    async fn hello(&self, addr: SocketAddr, name: &str) -> Client {
        let link = if self.websocket {
            Link::websocket(addr, self.wire).await
        } else {
            Link::tcp(addr, self.wire).await
        };
        Client::over(link).guest(name).await
    }
}

/// What one game pair measured.
#[derive(Debug, Default)]
struct Tally {
    moves: u64,
    moves_in_game: u32,
    games: u64,
    /// Each move relayed: when it was sent, and how long until the opponent had it.
    relayed: Vec<(Instant, Duration)>,
    /// Connect to `Welcome`, per connection (with `--fresh-connections`).
    handshakes: Vec<Duration>,
}

/// Two new connections for a pair, each timed from connect to `Welcome`.
async fn connect_pair(target: &Target, index: usize, tally: &mut Tally) -> [Client; 2] {
    let mut connect = async |side: usize| {
        let started = Instant::now();
        let name = format!("load{index}{}", ["a", "b"][side]);
        let client = target.hello(target.addr(index, side), &name).await;
        tally.handshakes.push(started.elapsed());
        client
    };
    let first = connect(0).await;
    let second = connect(1).await;
    [first, second]
}

/// Waits for `game`'s turn of `client`: the legal moves, or `None` when the game ended.
async fn turn_or_end(client: &mut Client, game: GameId) -> Option<Vec<String>> {
    client.turn_or_end(game).await.ok()
}

/// Waits for `wait`, or ends the pair naming what never came (a stalled game, not a slow one:
/// a minute is far beyond any relay).
async fn stuck<T>(wait: impl std::future::Future<Output = T>, what: String) -> T {
    match tokio::time::timeout(Duration::from_secs(60), wait).await {
        Ok(value) => value,
        Err(_) => panic!("no answer within a minute: {what}"),
    }
}

/// Two clients play games with random moves until `until`.
async fn play_pair(
    target: Target,
    index: usize,
    kind: GameKind,
    think: Duration,
    until: Instant,
    fresh: bool,
) -> Tally {
    let mut rng = StdRng::seed_from_u64(index as u64);
    let mut tally = Tally::default();
    let mut players = connect_pair(&target, index, &mut tally).await;
    // Spread the first moves so the pairs do not move in lockstep.
    tokio::time::sleep(think.mul_f64(rng.random::<f64>())).await;
    // The last game this pair played: its members may still be told of it (the other player
    // leaving) after the next game is asked for, so its `State` is not the new game's.
    let mut last_game: Option<GameId> = None;
    while Instant::now() < until {
        if fresh && tally.games > 0 {
            players = connect_pair(&target, index, &mut tally).await;
        }
        let mut create = options(kind, Side::First, Opponent::OpenSeat);
        create.seat = SeatChoice::Side(Side::First);
        // Any refusal (the per-player game limit, the rate limit) ends the run saying why,
        // rather than leaving the pair waiting for a game that never comes.
        players[0].send(ClientMessage::CreateGame(create)).await;
        let game = players[0]
            .until(|message| match message {
                ServerMessage::State(state) if Some(state.id) != last_game => Some(Ok(state.id)),
                ServerMessage::Error { kind, message, .. } => {
                    Some(Err(format!("{kind:?}: {message}")))
                }
                _ => None,
            })
            .await
            .unwrap_or_else(|refusal| panic!("the server refused a new game: {refusal}"));
        tally.moves_in_game = 0;
        players[1].send(ClientMessage::Join { game }).await;
        let mut turn = 0;
        loop {
            let Some(legal) = stuck(
                turn_or_end(&mut players[turn], game),
                format!(
                    "game {game}: player {turn}'s turn after {} moves",
                    tally.moves_in_game
                ),
            )
            .await
            else {
                turn_or_end(&mut players[1 - turn], game).await;
                break;
            };
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
            let text = legal.choose(&mut rng).cloned().unwrap_or_default();
            let sent = Instant::now();
            players[turn].send_move(game, &text).await;
            // The opponent's stream may still hold the echo of its own last move: wait for
            // this move's ply.
            let ply = tally.moves_in_game + 1;
            stuck(
                players[1 - turn].until(|message| match message {
                    ServerMessage::MovePlayed {
                        game: id, ply: p, ..
                    } if id == game => (p == ply).then_some(()),
                    _ => None,
                }),
                format!(
                    "game {game}: ply {ply} ({text}) relayed to player {}",
                    1 - turn
                ),
            )
            .await;
            tally.relayed.push((sent, sent.elapsed()));
            tally.moves += 1;
            tally.moves_in_game += 1;
            turn = 1 - turn;
        }
        tally.games += 1;
        last_game = Some(game);
        // With fresh connections the players just go, as boardgame.io's do (the finished
        // table closes once both have seen the end and gone); on kept connections they leave,
        // or each would hold every game it played.
        if !fresh {
            for player in &mut players {
                player.send(ClientMessage::Leave { game }).await;
            }
        }
    }
    tally
}

/// The sum of `measure` over the processes `pids`; `None` if there are none or one cannot be
/// read.
fn sum_over<T: std::iter::Sum<T>>(pids: &[u32], measure: fn(u32) -> Option<T>) -> Option<T> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|pid| measure(*pid)).sum()
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("start the tokio runtime")?;
    runtime.block_on(load(args))
}

async fn load(args: Args) -> anyhow::Result<()> {
    let embedded = match args.addr.first() {
        Some(_) => None,
        None => {
            let config = Config {
                max_connections: 1_000_000,
                max_games_per_player: 4,
                tls: TlsSettings {
                    source: if args.plaintext {
                        TlsSource::Plaintext
                    } else {
                        TlsSource::SelfSigned
                    },
                    proxy_cert: None,
                },
                ..Config::default()
            };
            Some(if args.websocket {
                ServerHandle::start_with_http("127.0.0.1:0", "127.0.0.1:0", config).await?
            } else {
                ServerHandle::start("127.0.0.1:0", config).await?
            })
        }
    };
    let addrs: Vec<SocketAddr> = match &embedded {
        Some(server) if args.websocket => vec![server.http_addr().context("the HTTP door")?],
        Some(server) => vec![server.addr()],
        None => args.addr.clone(),
    };
    if addrs.is_empty() {
        bail!("no server");
    }
    if args.cross_node && addrs.len() < 2 {
        bail!("--cross-node needs two --addr or more (the nodes of a cluster)");
    }
    let target = Target {
        addrs: addrs.into(),
        websocket: args.websocket,
        wire: if args.plaintext {
            Wire::Plaintext
        } else {
            Wire::Tls
        },
        cross_node: args.cross_node,
    };
    let pids: Vec<u32> = match &embedded {
        Some(_) => vec![std::process::id()],
        None => args.server_pid.clone(),
    };
    let before = sum_over(&pids, rss_kib);

    let mut idle = Vec::with_capacity(args.idle);
    for batch in (0..args.idle).collect::<Vec<_>>().chunks(500) {
        let target = &target;
        let clients =
            join_all(batch.iter().map(|i| async move {
                target.hello(target.addr(*i, 0), &format!("idle{i}")).await
            }))
            .await;
        idle.extend(clients);
    }

    let cpu_before = sum_over(&pids, cpu_time);
    let players_before = cpu_time(std::process::id());
    let started = Instant::now();
    let until = started + Duration::from_secs(args.secs);
    let think = Duration::from_millis(args.think_ms);
    let pairs: Vec<_> = (0..args.games)
        .map(|index| {
            tokio::spawn(play_pair(
                target.clone(),
                index,
                args.kind,
                think,
                until,
                args.fresh_connections,
            ))
        })
        .collect();
    // Measure while everything is connected and playing.
    tokio::time::sleep(Duration::from_secs(args.secs) / 2).await;
    let during = sum_over(&pids, rss_kib);
    let connections = args.games * 2 + idle.len();

    let mut total = Tally::default();
    // From when every pair had sent its first move: the play without the start, when all the
    // connections are being made and their handshakes compete with the first moves.
    let mut all_playing = started;
    for pair in pairs {
        let tally = pair.await.context("a game pair failed")?;
        total.moves += tally.moves;
        total.games += tally.games;
        if let Some(&(first, _)) = tally.relayed.first() {
            all_playing = all_playing.max(first);
        }
        total.relayed.extend(tally.relayed);
        total.handshakes.extend(tally.handshakes);
    }
    let elapsed = started.elapsed();
    let cpu_used = sum_over(&pids, cpu_time)
        .zip(cpu_before)
        .map(|(after, before)| after.since(before));
    let players_cpu = cpu_time(std::process::id())
        .zip(players_before)
        .map(|(after, before)| after.since(before));
    let latencies = sorted_latencies_from(&total.relayed, started);
    let steady = sorted_latencies_from(&total.relayed, all_playing);
    total.handshakes.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{} concurrent {} games over {}{}, {} idle connections, {:.1} s, think {} ms",
        args.games,
        args.kind,
        if args.websocket { "WebSocket" } else { "TCP" },
        match (target.addrs.len(), args.cross_node) {
            (1, _) => String::new(),
            (nodes, false) => format!(" on {nodes} nodes (both players at one node)"),
            (nodes, true) => format!(" on {nodes} nodes (players at different nodes)"),
        },
        idle.len(),
        elapsed.as_secs_f64(),
        args.think_ms
    );
    println!("connections held:  {connections}");
    println!(
        "games finished:    {}   moves: {}   moves/s: {:.0}",
        total.games,
        total.moves,
        total.moves as f64 / elapsed.as_secs_f64()
    );
    if args.fresh_connections {
        println!(
            "matches/s: {:.0}   handshakes: {}   handshake ms: p50 {:.3}   p99 {:.3}   max {:.3}",
            total.games as f64 / elapsed.as_secs_f64(),
            total.handshakes.len(),
            ms(percentile(&total.handshakes, 0.50)),
            ms(percentile(&total.handshakes, 0.99)),
            ms(percentile(&total.handshakes, 1.0))
        );
    }
    println!(
        "relay latency ms:  p50 {:.3}   p99 {:.3}   max {:.3}",
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.99)),
        ms(percentile(&latencies, 1.0))
    );
    println!(
        "  once all played: p50 {:.3}   p99 {:.3}   max {:.3}   ({} moves sent from {:.1} s, when every pair had moved)",
        ms(percentile(&steady, 0.50)),
        ms(percentile(&steady, 0.99)),
        ms(percentile(&steady, 1.0)),
        steady.len(),
        all_playing.duration_since(started).as_secs_f64()
    );
    let scope = match (embedded.is_some(), pids.len()) {
        (true, _) => "this process (server and clients)",
        (false, 1) => "the server process",
        (false, _) => "the node processes together",
    };
    if let Some(cpu) = cpu_used {
        let per_move = |time: Duration| time.as_secs_f64() * 1e6 / total.moves.max(1) as f64;
        println!(
            "CPU of {scope}: {:.2} s, {:.0} us per move (user {:.0}, system {:.0})",
            cpu.total().as_secs_f64(),
            per_move(cpu.total()),
            per_move(cpu.user),
            per_move(cpu.system)
        );
        // The clients' own cost, beside a server of its own process (embedded, it is in `cpu`).
        if let (Some(players), None) = (players_cpu, &embedded) {
            let line = players_line(players, cpu, "server", total.moves, elapsed);
            println!("{line}");
        }
    }
    match (before, during) {
        (Some(before), Some(during)) => println!(
            "memory (RSS) of {scope}: {:.1} MiB before, {:.1} MiB under load",
            before as f64 / 1024.0,
            during as f64 / 1024.0
        ),
        _ => println!("memory: unknown (pass --server-pid with --addr)"),
    }
    drop(idle);
    if embedded.is_none() && args.after_secs > 0 {
        tokio::time::sleep(Duration::from_secs(args.after_secs)).await;
        if let Some(after) = sum_over(&pids, rss_kib) {
            println!(
                "memory (RSS) of {scope} {} s after the load left: {:.1} MiB",
                args.after_secs,
                after as f64 / 1024.0
            );
        }
    }
    if let Some(server) = embedded {
        server.shutdown().await;
    }
    Ok(())
}
