//! `kingme-failover`: kills cluster nodes and measures what the players see. It starts three
//! `kingme-server` nodes on a PostgreSQL and a Redis it is given (`NODES=0
//! scripts/cluster-demo` starts just those two), keeps noughts-and-crosses games going between
//! persons and against bots (every player a real `kingme_client::net` connection, which
//! reconnects to another node by itself), records every acknowledged move (a player's own move
//! announced back to it, so stored), and then, again and again, SIGKILLs a node, measures the
//! time until each game that node ran moves again, and starts the node again.
//!
//! At the end every game's record is read from the database (`Export`) and each acknowledged
//! move is looked for in it: the lost ones are counted and listed. Prints the failover time
//! p50/max over the games that were on a killed node, and the moves lost.

use anyhow::{Context, bail};
use clap::Parser;
use kingme_client::event::{Event, LinkEvent};
use kingme_client::net::{Net, NetConfig, Security};
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, GameStatus, Opponent, SeatChoice, ServerMessage,
    TimeControl,
};
use rand::seq::IndexedRandom;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Kills cluster nodes during play and reports failover times and lost moves.
#[derive(Debug, Parser)]
#[command(name = "kingme-failover")]
struct Args {
    /// The shared database, `postgres://...`.
    #[arg(long)]
    db: String,
    /// The cluster's Redis, `redis://HOST:PORT`.
    #[arg(long)]
    redis: String,
    /// The node binary.
    #[arg(long, default_value = "target/release/kingme-server")]
    server: String,
    /// Nodes killed, one after another, round the three.
    #[arg(long, default_value_t = 20)]
    kills: usize,
    /// Games between two persons kept going.
    #[arg(long, default_value_t = 3)]
    pairs: usize,
    /// Games between a person and a bot kept going.
    #[arg(long, default_value_t = 3)]
    bot_games: usize,
    /// The nodes' `--lease-ms`.
    #[arg(long, default_value_t = 3000)]
    lease_ms: u64,
    /// Milliseconds a player waits before answering its turn.
    #[arg(long, default_value_t = 100)]
    think_ms: u64,
    /// Seconds of play between a node's restart and the next kill.
    #[arg(long, default_value_t = 3)]
    play_secs: u64,
    /// Seat each pair's second player at the next node (its moves relayed to the game's node)
    /// instead of at its partner's.
    #[arg(long)]
    cross_node: bool,
    /// Append each node's log to `DIR/nodeN.log`.
    #[arg(long, value_name = "DIR")]
    logs: Option<std::path::PathBuf>,
}

/// What every player task writes: acknowledged moves, when each game last moved, who runs it.
#[derive(Debug, Default)]
struct Ledger {
    /// (game, ply) → the move's text, for every move its player saw acknowledged.
    acknowledged: BTreeMap<(u64, u32), String>,
    /// Every game's moves (by ply) as announced, with when each was first heard of.
    moved: HashMap<u64, BTreeMap<u32, Instant>>,
    /// The node running each unfinished game.
    owner: HashMap<u64, usize>,
    /// When each game was last taken over (a node's log said so).
    taken_over: HashMap<u64, Instant>,
    finished: HashSet<u64>,
    /// Games created, with their creator's node at creation.
    games: Vec<u64>,
    rejected: u64,
}

type Shared = Arc<Mutex<Ledger>>;

fn ledger(shared: &Shared) -> std::sync::MutexGuard<'_, Ledger> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One node process.
struct Node {
    addr: String,
    child: Option<Child>,
}

impl Node {
    /// Starts the node on `addr`; its log is read for takeovers until it ends.
    async fn start(
        args: &Args,
        index: usize,
        addr: &str,
        shared: &Shared,
    ) -> anyhow::Result<Child> {
        let mut child = Command::new(&args.server)
            .args(["--listen", addr, "--db", &args.db, "--cluster", &args.redis])
            .args([
                "--advertise",
                addr,
                "--lease-ms",
                &args.lease_ms.to_string(),
            ])
            .args(["--bot-think-ms", "100"])
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start {}", args.server))?;
        let stdout = child.stdout.take().context("the node's output")?;
        let mut lines = BufReader::new(stdout).lines();
        let (ready, mut listening) = mpsc::channel(1);
        let shared = Arc::clone(shared);
        let mut log = match &args.logs {
            Some(dir) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(dir.join(format!("node{}.log", index + 1)))
                    .context("cannot open the node's log file")?,
            ),
            None => None,
        };
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(log) = &mut log {
                    use std::io::Write;
                    let _ = writeln!(log, "{line}");
                }
                if line.contains("kingme server listening") {
                    let _ = ready.try_send(());
                }
                if line.contains("took over a game")
                    && let Some(game) = field(&line, "game=")
                {
                    let mut book = ledger(&shared);
                    book.owner.insert(game, index);
                    book.taken_over.insert(game, Instant::now());
                }
            }
        });
        tokio::time::timeout(Duration::from_secs(30), listening.recv())
            .await
            .context("the node did not start listening")?;
        Ok(child)
    }
}

/// A number after `name` in a log line.
fn field(line: &str, name: &str) -> Option<u64> {
    let (_, rest) = line.split_once(name)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn free_addr() -> anyhow::Result<String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.to_string())
}

/// A player's role: who opens games, and against whom.
#[derive(Debug)]
enum Role {
    /// Opens a game against a bot after each ends.
    AgainstBot,
    /// Opens a game with an open seat and tells its partner which.
    Opener(mpsc::Sender<GameId>),
    /// Joins the games its opener names.
    Joiner(mpsc::Receiver<GameId>),
}

impl Role {
    /// Whom the games this player opens are against; `None` for a player who only joins.
    fn opponent(&self) -> Option<Opponent> {
        match self {
            Role::AgainstBot => Some(Opponent::Bot(Level::Random)),
            Role::Opener(_) => Some(Opponent::OpenSeat),
            Role::Joiner(_) => None,
        }
    }
}

/// One person playing through the client's connection task until `stop`.
async fn player(
    name: String,
    mut node: usize,
    addresses: Arc<Vec<String>>,
    mut role: Role,
    think: Duration,
    shared: Shared,
    stop: CancellationToken,
) {
    let (sender, mut events) = mpsc::channel(256);
    let config = NetConfig {
        retry: Duration::from_millis(250),
        secrets: None,
        keys: None,
        resume_tokens: None,
        security: Security::Tls {
            known_servers: None,
        },
        ..NetConfig::new(addresses[node].clone(), name.clone())
    };
    let net = Net::spawn(config, sender, stop.clone());
    // The node being tried after a loss: the one the player is on once welcomed.
    let mut trying = node;
    let open = |net: &Net, opponent: Opponent| {
        let options = GameOptions {
            spec: GameKind::TicTacToe.into(),
            seat: SeatChoice::Side(kingme_shared::Side::First),
            opponent,
            time_control: TimeControl::Unlimited,
            start_position: None,
            rated: false,
        };
        net.outgoing.try_send(ClientMessage::CreateGame(options))
    };
    let mut sides: HashMap<GameId, kingme_shared::Side> = HashMap::new();
    // Turns to answer: the game and when.
    let mut turns: Vec<(Instant, GameId, Vec<String>)> = Vec::new();
    let mut created = false;
    // A game of this player's ended: the next one is opened.
    macro_rules! ended {
        ($game:expr) => {{
            let game: GameId = $game;
            ledger(&shared).finished.insert(game.0);
            turns.retain(|(_, g, _)| *g != game);
            if sides.remove(&game).is_some()
                && let Some(opponent) = role.opponent()
            {
                let _ = open(&net, opponent);
            }
        }};
    }
    loop {
        let next_turn = turns.iter().map(|(at, ..)| *at).min();
        let event = tokio::select! {
            () = stop.cancelled() => break,
            () = sleep_until(next_turn) => {
                let now = Instant::now();
                let (due, rest): (Vec<_>, Vec<_>) = turns.drain(..).partition(|(at, ..)| *at <= now);
                turns = rest;
                for (_, game, legal) in due {
                    if let Some(text) = legal.choose(&mut rand::rng()) {
                        let _ = net.outgoing.try_send(ClientMessage::Move { game, text: text.clone() });
                    }
                }
                continue;
            }
            joined = next_join(&mut role) => {
                if let Some(game) = joined {
                    let _ = net.outgoing.try_send(ClientMessage::Join { game });
                }
                continue;
            }
            event = events.recv() => match event {
                Some(event) => event,
                None => break,
            },
        };
        match event {
            Event::Link(LinkEvent::Connected { resumed: false }) if !created => {
                created = true;
                if let Some(opponent) = role.opponent() {
                    let _ = open(&net, opponent);
                }
            }
            Event::Link(LinkEvent::Lost { next, .. }) => {
                trying = addresses.iter().position(|a| *a == next).unwrap_or(trying);
            }
            Event::Link(LinkEvent::Connected { .. }) => node = trying,
            Event::Link(LinkEvent::Closed { reason }) => {
                eprintln!("kingme-failover: {name} disconnected for good: {reason}");
                break;
            }
            Event::Server(ServerMessage::State(state))
                if matches!(state.status, GameStatus::Over(_)) =>
            {
                // Ended while this player was away (a reconnect's State says so).
                ended!(state.id);
            }
            Event::Server(ServerMessage::State(state)) => {
                let Some(side) = state.your_side else {
                    continue;
                };
                let mut book = ledger(&shared);
                if !sides.contains_key(&state.id) && !book.games.contains(&state.id.0) {
                    book.games.push(state.id.0);
                    book.owner.insert(state.id.0, node);
                    if let Role::Opener(partner) = &role {
                        let _ = partner.try_send(state.id);
                    }
                }
                drop(book);
                sides.insert(state.id, side);
                turns.retain(|(_, game, _)| *game != state.id);
            }
            Event::Server(ServerMessage::YourTurn {
                game, legal_moves, ..
            }) => {
                turns.retain(|(_, g, _)| *g != game);
                turns.push((Instant::now() + think, game, legal_moves));
            }
            Event::Server(ServerMessage::MovePlayed {
                game, ply, record, ..
            }) => {
                let mut book = ledger(&shared);
                book.moved
                    .entry(game.0)
                    .or_default()
                    .entry(ply)
                    .or_insert_with(Instant::now);
                if sides.get(&game) == Some(&record.side) {
                    book.acknowledged.insert((game.0, ply), record.text);
                }
            }
            Event::Server(ServerMessage::GameOver { game, .. }) => ended!(game),
            Event::Server(ServerMessage::MoveRejected { .. }) => ledger(&shared).rejected += 1,
            _ => {}
        }
    }
    net.close().await;
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

async fn next_join(role: &mut Role) -> Option<GameId> {
    match role {
        Role::Joiner(games) => games.recv().await,
        _ => std::future::pending().await,
    }
}

/// The moves of every game as stored, through a connection of its own.
async fn stored_records(addr: &str, games: &[u64]) -> anyhow::Result<HashMap<u64, Vec<String>>> {
    let (sender, mut events) = mpsc::channel(256);
    let stop = CancellationToken::new();
    let config = NetConfig {
        secrets: None,
        keys: None,
        resume_tokens: None,
        security: Security::Tls {
            known_servers: None,
        },
        ..NetConfig::new(
            addr.to_owned(),
            format!("fo{:04x}-auditor", rand::random::<u16>()),
        )
    };
    let net = Net::spawn(config, sender, stop.clone());
    let mut records = HashMap::new();
    for &game in games {
        // A refusal (the request limit, a reconnect) is tried again after a pause.
        for _ in 0..5 {
            net.outgoing
                .send(ClientMessage::Export { game: GameId(game) })
                .await?;
            let moves = tokio::time::timeout(Duration::from_secs(10), async {
                while let Some(event) = events.recv().await {
                    match event {
                        Event::Server(ServerMessage::Record { game: g, record }) if g.0 == game => {
                            return Some(record.moves);
                        }
                        Event::Server(ServerMessage::Error { .. }) => return None,
                        _ => {}
                    }
                }
                None
            })
            .await
            .ok()
            .flatten();
            if let Some(moves) = moves {
                records.insert(game, moves);
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        // At most a few hundred requests a second: under the server's request limit.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stop.cancel();
    net.close().await;
    Ok(records)
}

/// Every stored move of `games`, read from the database itself: (game, ply) → text.
fn stored_moves(db: &str, games: &[u64]) -> anyhow::Result<HashMap<(u64, u32), String>> {
    let mut client = postgres::Client::connect(db, postgres::NoTls)
        .with_context(|| format!("cannot connect to {db}"))?;
    let ids: Vec<i64> = games
        .iter()
        .filter_map(|&id| i64::try_from(id).ok())
        .collect();
    let rows = client.query(
        "SELECT game_id, ply, text FROM moves WHERE game_id = ANY($1)",
        &[&ids],
    )?;
    let mut moves = HashMap::new();
    for row in rows {
        let (game, ply, text): (i64, i32, String) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        moves.insert((u64::try_from(game)?, u32::try_from(ply)?), text);
    }
    Ok(moves)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let shared: Shared = Arc::default();
    let mut nodes = Vec::new();
    for index in 0..3 {
        let addr = free_addr()?;
        let child = Node::start(&args, index, &addr, &shared).await?;
        nodes.push(Node {
            addr,
            child: Some(child),
        });
    }
    // Every node reads the others at its heartbeat (a third of a lease).
    tokio::time::sleep(Duration::from_millis(args.lease_ms)).await;

    let stop = CancellationToken::new();
    let think = Duration::from_millis(args.think_ms);
    let addresses: Arc<Vec<String>> = Arc::new(nodes.iter().map(|n| n.addr.clone()).collect());
    // Names of this run's own: each run's players have keys of their own.
    let run: u16 = rand::random();
    let mut players = Vec::new();
    for pair in 0..args.pairs {
        let (to_partner, from_opener) = mpsc::channel(4);
        let node = pair % 3;
        let partner = if args.cross_node {
            (node + 1) % 3
        } else {
            node
        };
        for (name, node, role) in [
            (
                format!("fo{run:04x}-open-{pair}"),
                node,
                Role::Opener(to_partner),
            ),
            (
                format!("fo{run:04x}-join-{pair}"),
                partner,
                Role::Joiner(from_opener),
            ),
        ] {
            players.push(tokio::spawn(player(
                name,
                node,
                Arc::clone(&addresses),
                role,
                think,
                Arc::clone(&shared),
                stop.clone(),
            )));
        }
    }
    for game in 0..args.bot_games {
        let node = game % 3;
        players.push(tokio::spawn(player(
            format!("fo{run:04x}-solo-{game}"),
            node,
            Arc::clone(&addresses),
            Role::AgainstBot,
            think,
            Arc::clone(&shared),
            stop.clone(),
        )));
    }

    let mut failovers: Vec<Duration> = Vec::new();
    let mut stalled = Vec::new();
    for kill in 0..args.kills {
        tokio::time::sleep(Duration::from_secs(args.play_secs)).await;
        let victim = kill % nodes.len();
        let (running, moved_before): (Vec<u64>, HashMap<u64, u32>) = {
            let book = ledger(&shared);
            // This run's games in play there (a game nobody joined cannot move; a game of an
            // earlier run on the same database has no players).
            let ours: HashSet<u64> = book.games.iter().copied().collect();
            let running: Vec<u64> = book
                .owner
                .iter()
                .filter(|(game, node)| {
                    **node == victim
                        && ours.contains(game)
                        && book.moved.contains_key(game)
                        && !book.finished.contains(game)
                })
                .map(|(game, _)| *game)
                .collect();
            let moved = running
                .iter()
                .map(|game| {
                    let last = book.moved.get(game).and_then(|moves| moves.keys().last());
                    (*game, last.copied().unwrap_or(0))
                })
                .collect();
            (running, moved)
        };
        let killed_at = Instant::now();
        if let Some(mut child) = nodes[victim].child.take() {
            child.start_kill()?;
            child.wait().await?;
        }
        // Wait for each of its games to move again (or end), at most 60 s.
        let deadline = killed_at + Duration::from_secs(60);
        let mut waiting: HashSet<u64> = running.iter().copied().collect();
        while !waiting.is_empty() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let book = ledger(&shared);
            waiting.retain(|game| {
                // A move the dead node committed just before it died may still be on its way
                // (through Redis): only a move heard after the takeover counts.
                let taken_over = book.taken_over.get(game).filter(|at| **at >= killed_at);
                let after = taken_over.and_then(|taken_over| {
                    book.moved.get(game).and_then(|moves| {
                        moves
                            .range(moved_before[game] + 1..)
                            .find(|(_, at)| *at >= taken_over)
                    })
                });
                match after {
                    Some((_, at)) => {
                        failovers.push(at.saturating_duration_since(killed_at));
                        false
                    }
                    None => !book.finished.contains(game),
                }
            });
        }
        stalled.extend(waiting.iter().copied());
        let worst = failovers.iter().rev().take(running.len()).max().copied();
        println!(
            "kill {:>2}: node {} ran {} games; moving again within {:?}{}",
            kill + 1,
            victim + 1,
            running.len(),
            worst.unwrap_or_default(),
            if waiting.is_empty() {
                String::new()
            } else {
                format!("; {} did not move within 60 s: {waiting:?}", waiting.len())
            }
        );
        let addr = nodes[victim].addr.clone();
        nodes[victim].child = Some(Node::start(&args, victim, &addr, &shared).await?);
    }
    tokio::time::sleep(Duration::from_secs(args.play_secs)).await;
    stop.cancel();
    for player in players {
        let _ = player.await;
    }

    let (games, acknowledged, rejected) = {
        let book = ledger(&shared);
        (book.games.clone(), book.acknowledged.clone(), book.rejected)
    };
    let records = stored_records(&nodes[0].addr, &games).await?;
    let db = args.db.clone();
    let audited = games.clone();
    let rows = tokio::task::spawn_blocking(move || stored_moves(&db, &audited)).await??;
    // Lost: not in the database's moves table, or not in the game's record.
    let lost: Vec<&(u64, u32)> = acknowledged
        .iter()
        .filter(|(key, text)| {
            let (game, ply) = **key;
            let in_record = records
                .get(&game)
                .and_then(|moves| moves.get(ply as usize - 1));
            rows.get(&(game, ply)) != Some(*text) || in_record != Some(*text)
        })
        .map(|(key, _)| key)
        .collect();
    let unread = games
        .iter()
        .filter(|game| !records.contains_key(game))
        .count();
    failovers.sort();
    println!(
        "{} kills, {} games, {} acknowledged moves; failover (node killed → its game moving again) \
         over {} games: p50 {:.2} s, max {:.2} s; acknowledged moves lost: {}; moves refused: {}; \
         games that did not move again within 60 s: {}; records not read: {}",
        args.kills,
        games.len(),
        acknowledged.len(),
        failovers.len(),
        percentile(&failovers, 0.5).as_secs_f64(),
        failovers.last().copied().unwrap_or_default().as_secs_f64(),
        lost.len(),
        rejected,
        stalled.len(),
        unread
    );
    for node in &mut nodes {
        if let Some(mut child) = node.child.take() {
            let _ = child.start_kill();
            let _ = child.wait().await;
        }
    }
    if !lost.is_empty() {
        bail!("acknowledged moves lost (game, ply): {lost:?}");
    }
    Ok(())
}
