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
//!
//! Files: [`node`] (a node process), [`player`] (a person playing through the client's
//! connection), [`records`] (what the database kept); this file, the arguments, the ledger and
//! the kill loop.

mod node;
mod player;
mod records;

use anyhow::bail;
use clap::Parser;
use node::{Node, free_addr};
use player::{Role, player};
use records::{stored_moves, stored_records};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
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
