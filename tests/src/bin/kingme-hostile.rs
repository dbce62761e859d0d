//! `kingme-hostile`: attacks a kingme server on loopback for a bounded time while ordinary games
//! run beside the attackers, then prints what was sent, what the server did, what the ordinary
//! games saw and the server's memory before, during and after; or, with `--soak-seconds` and
//! `--burst-games`, runs connect/play/vanish cycles and bursts of abandoned open games, prints the
//! memory as they pile up, and fails unless the server's memory comes back within
//! `--memory-ratio` times its baseline after the load has left. The logic is in
//! `kingme_tests::hostile` and `kingme_tests::soak`; this file parses arguments, starts the
//! server and prints.

use anyhow::{Context, bail};
use clap::Parser;
use kingme_shared::GameKind;
use kingme_shared::protocol::GameId;
use kingme_tests::hostile::{self, Attack, ORDINARY_KINDS, OrdinaryGame, Patience, Reaction};
use kingme_tests::{measure, soak};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// Attack a kingme server with hostile clients, or soak it with abrupt connect/play/disconnect
/// cycles, and report what it did and how much memory it held.
#[derive(Debug, Parser)]
#[command(name = "kingme-hostile")]
struct Args {
    /// Attack a server already running at this loopback address instead of starting one.
    #[arg(long, requires = "pid")]
    addr: Option<SocketAddr>,
    /// The process id of that server, to read its memory.
    #[arg(long)]
    pid: Option<u32>,
    /// The kingme-server binary to start (default: the one beside this program).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Seconds of attacks.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Rounds of attacks, one after another: memory after the second round back at the level the
    /// first left shows that what attackers cost is given back (the allocator may keep pages).
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// Attacking connections at once.
    #[arg(long, default_value_t = 8)]
    attackers: usize,
    /// Ordinary games at once beside the attackers.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Instead of attacking, run soak cycles for this many seconds.
    #[arg(long)]
    soak_seconds: Option<u64>,
    /// Soak cycles at once.
    #[arg(long, default_value_t = 16)]
    soak_clients: usize,
    /// After the soak cycles (or instead of them), this many players each open a game and
    /// vanish, all at once: the games are aborted together when the grace period ends.
    #[arg(long, default_value_t = 0)]
    burst_games: usize,
    /// Burst players connecting at the same moment.
    #[arg(long, default_value_t = 1000)]
    burst_at_once: usize,
    /// A soak or burst fails unless the server's memory comes back to at most this many times
    /// its baseline (measured after a warm-up game) once the load has left.
    #[arg(long, default_value_t = 2.0)]
    memory_ratio: f64,
    /// Seconds the server is given, after the grace period, for its memory to come back.
    #[arg(long, default_value_t = 60)]
    settle_seconds: u64,
    /// Seconds between memory reports.
    #[arg(long, default_value_t = 5)]
    report_every: u64,
    /// The server's handshake and idle timeouts and grace period, in seconds, when this tool
    /// starts it (short, so the silent attackers and vanished players are dealt with in the run).
    #[arg(long, default_value_t = 2)]
    server_timeouts: u64,
    /// Seed for the random attacks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The server under attack: its address and process, and the child if this tool started it
/// with the folder of its throwaway database.
struct Target {
    addr: SocketAddr,
    pid: u32,
    child: Option<Child>,
    db_dir: Option<PathBuf>,
}

impl Drop for Target {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(dir) = &self.db_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Target {
    fn rss(&self) -> u64 {
        measure::rss_kib(self.pid).unwrap_or(0)
    }

    fn is_running(&mut self) -> bool {
        match &mut self.child {
            Some(child) => matches!(child.try_wait(), Ok(None)),
            None => measure::rss_kib(self.pid).is_some(),
        }
    }
}

async fn start_target(args: &Args) -> anyhow::Result<Target> {
    if let (Some(addr), Some(pid)) = (args.addr, args.pid) {
        if !addr.ip().is_loopback() {
            bail!("only servers on loopback may be attacked, not {addr}");
        }
        return Ok(Target {
            addr,
            pid,
            child: None,
            db_dir: None,
        });
    }
    let binary = match &args.server_bin {
        Some(path) => path.clone(),
        None => std::env::current_exe()?
            .parent()
            .context("this program's folder")?
            .join("kingme-server"),
    };
    // A free port: bind one, note it, let it go for the server.
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let timeouts = args.server_timeouts.to_string();
    // A database file of its own (an in-memory one would grow with every game stored and hide
    // what the server keeps; the user's own database is no place for attack games).
    let db_dir = std::env::temp_dir().join(format!("kingme-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&db_dir)
        .with_context(|| format!("cannot create {}", db_dir.display()))?;
    let db = db_dir.join("kingme.db");
    let child = Command::new(&binary)
        .args(["--listen", &addr.to_string()])
        .arg("--db")
        .arg(&db)
        .args(["--handshake-timeout-secs", &timeouts])
        .args(["--idle-timeout-secs", &timeouts])
        .args(["--grace-secs", &timeouts])
        .args(["--bot-think-ms", "5"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| {
            format!(
                "cannot start {}; build it with `cargo build --release -p kingme-server` or pass \
                 --server-bin",
                binary.display()
            )
        })?;
    let pid = child.id();
    let target = Target {
        addr,
        pid,
        child: Some(child),
        db_dir: Some(db_dir),
    };
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return Ok(target);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bail!("the server at {addr} did not start listening within 5 s")
}

/// The server's memory while tasks run: the peak, and a line every `report_every`.
struct Memory {
    peak: u64,
    report_every: Duration,
    reported: Instant,
}

/// Waits for every task of `set`, sampling the server's memory four times a second meanwhile.
async fn gather<T: 'static>(
    set: &mut tokio::task::JoinSet<T>,
    target: &Target,
    memory: &mut Memory,
) -> Vec<Result<T, tokio::task::JoinError>> {
    let mut results = Vec::new();
    let mut ticks = tokio::time::interval(Duration::from_millis(250));
    loop {
        tokio::select! {
            joined = set.join_next() => match joined {
                Some(result) => results.push(result),
                None => return results,
            },
            _ = ticks.tick() => {
                let now = target.rss();
                memory.peak = memory.peak.max(now);
                if memory.reported.elapsed() >= memory.report_every {
                    memory.reported = Instant::now();
                    println!("  ... server memory {}", mib(now));
                }
            }
        }
    }
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mut target = start_target(&args).await?;
    println!("server at {} (pid {})", target.addr, target.pid);
    // One game first, so the baseline includes what any first game allocates once.
    let warm_up = hostile::ordinary_game(target.addr, ORDINARY_KINDS[0], args.seed, |_| {}).await;
    if let Some(problem) = warm_up.disturbed {
        bail!("the warm-up game went wrong: {problem}");
    }
    let baseline = target.rss();
    println!("baseline memory: {}", mib(baseline));
    let healthy = match (args.soak_seconds, args.burst_games) {
        (None, 0) => {
            let mut healthy = true;
            for round in 1..=args.rounds {
                println!("\nround {round} of {}", args.rounds);
                healthy &= attack_run(&args, &mut target, baseline).await?;
            }
            healthy
        }
        (seconds, _) => soak_run(&args, &mut target, seconds.unwrap_or(0), baseline).await?,
    };
    if !healthy {
        bail!("the server did not stand up to it (see above)");
    }
    Ok(())
}

/// Attackers and ordinary games side by side for `args.seconds`; the report. Whether every
/// ordinary game ended normally and the server is still up.
async fn attack_run(args: &Args, target: &mut Target, baseline: u64) -> anyhow::Result<bool> {
    let addr = target.addr;
    let timeouts = Duration::from_secs(args.server_timeouts);
    let patience = Patience {
        reaction: 2 * timeouts + Duration::from_secs(3),
        slow_reader_hold: Duration::from_secs(3),
    };
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let running: Arc<Mutex<Vec<GameId>>> = Arc::default();

    let mut players = tokio::task::JoinSet::new();
    for player in 0..args.games {
        let running = Arc::clone(&running);
        players.spawn(async move {
            let mut games = Vec::new();
            let mut round = player;
            while Instant::now() < deadline {
                let kind = ORDINARY_KINDS[round % ORDINARY_KINDS.len()];
                round += 1;
                let list = Arc::clone(&running);
                let seed = (player as u64) << 32 | round as u64;
                let game = hostile::ordinary_game(addr, kind, seed, move |id| {
                    list.lock().map(|mut ids| ids.push(id)).ok();
                })
                .await;
                running
                    .lock()
                    .map(|mut ids| ids.retain(|&id| id != game.id))
                    .ok();
                games.push(game);
            }
            games
        });
    }

    let mut attackers = tokio::task::JoinSet::new();
    for attacker in 0..args.attackers {
        let running = Arc::clone(&running);
        let seed = args.seed.wrapping_add(attacker as u64);
        attackers.spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut tried: Vec<(Attack, Result<Reaction, String>)> = Vec::new();
            let mut round = attacker;
            while Instant::now() < deadline {
                let attack = Attack::ALL[round % Attack::ALL.len()];
                round += 1;
                let games = running.lock().map(|ids| ids.clone()).unwrap_or_default();
                let reaction = hostile::attack(addr, attack, &games, patience, &mut rng)
                    .await
                    .map_err(|err| err.to_string());
                tried.push((attack, reaction));
            }
            tried
        });
    }

    let mut memory = Memory {
        peak: baseline,
        report_every: Duration::from_secs(args.report_every),
        reported: Instant::now(),
    };
    let mut outcomes: BTreeMap<Attack, BTreeMap<String, usize>> = BTreeMap::new();
    let mut attacks = 0;
    for joined in gather(&mut attackers, target, &mut memory).await {
        for (attack, reaction) in joined.context("an attacker task failed")? {
            attacks += 1;
            let line = match reaction {
                Ok(reaction) => reaction.to_string(),
                Err(err) => format!("could not attack: {err}"),
            };
            *outcomes.entry(attack).or_default().entry(line).or_default() += 1;
        }
    }
    let mut games: Vec<OrdinaryGame> = Vec::new();
    for joined in gather(&mut players, target, &mut memory).await {
        match joined {
            Ok(played) => games.extend(played),
            Err(err) => games.push(OrdinaryGame {
                kind: ORDINARY_KINDS[0],
                id: GameId(0),
                moves: 0,
                disturbed: Some(format!("a player failed: {err}")),
            }),
        }
    }
    let peak = memory.peak;
    // The attackers are gone; give the server its timeouts and grace period to let go.
    tokio::time::sleep(3 * timeouts + Duration::from_secs(2)).await;
    let after = target.rss();

    println!(
        "\n{attacks} attacks in {} s by {} attackers:",
        args.seconds, args.attackers
    );
    for (attack, reactions) in &outcomes {
        let tried: usize = reactions.values().sum();
        println!("  {attack} ({}) x{tried}:", attack.describe());
        for (reaction, count) in reactions {
            println!("      {count:>6}  {reaction}");
        }
    }
    let disturbed: Vec<&OrdinaryGame> = games.iter().filter(|g| g.disturbed.is_some()).collect();
    let moves: usize = games.iter().map(|game| game.moves).sum();
    println!(
        "\nordinary games beside them: {} finished ({moves} moves), {} finished normally, {} \
         disturbed",
        games.len(),
        games.len() - disturbed.len(),
        disturbed.len()
    );
    for game in &disturbed {
        println!(
            "  game {} ({}): {}",
            game.id,
            game.kind,
            game.disturbed.as_deref().unwrap_or_default()
        );
    }
    let up = target.is_running() && tokio::net::TcpStream::connect(target.addr).await.is_ok();
    println!(
        "server memory: before {}, peak during {}, after {}",
        mib(baseline),
        mib(peak),
        mib(after)
    );
    println!("server still up: {}", if up { "yes" } else { "NO" });
    Ok(up && disturbed.is_empty() && !games.is_empty())
}

/// Soak cycles for `seconds` (if any), then the burst (if any), the memory every
/// `args.report_every` seconds, and once more after the grace period, until it comes back.
/// Whether the server is still up, every cycle worked and the memory came back.
async fn soak_run(
    args: &Args,
    target: &mut Target,
    seconds: u64,
    baseline: u64,
) -> anyhow::Result<bool> {
    let addr = target.addr;
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let cycles = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..args.soak_clients {
        let cycles = Arc::clone(&cycles);
        let seed = args.seed.wrapping_add(worker as u64);
        workers.spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed);
            while Instant::now() < deadline {
                soak::abrupt_cycle(addr, 6, &mut rng).await;
                cycles.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
    }
    let started = Instant::now();
    if seconds > 0 {
        println!("{:>8}  {:>10}  {:>12}", "seconds", "cycles", "server RSS");
    }
    let mut ticks = tokio::time::interval(Duration::from_secs(args.report_every));
    ticks.tick().await;
    while Instant::now() < deadline {
        ticks.tick().await;
        println!(
            "{:>8}  {:>10}  {:>12}",
            started.elapsed().as_secs(),
            cycles.load(std::sync::atomic::Ordering::Relaxed),
            mib(target.rss())
        );
    }
    let mut failed = 0;
    while let Some(joined) = workers.join_next().await {
        if joined.is_err() {
            failed += 1;
        }
    }
    let done = cycles.load(std::sync::atomic::Ordering::Relaxed);
    if seconds > 0 {
        println!(
            "{done} cycles (connect, game against a bot, up to 6 moves, vanish) by {} clients in \
             {seconds} s; {failed} clients failed",
            args.soak_clients
        );
    }
    if args.burst_games > 0 {
        failed += burst(args, target).await;
    }
    tokio::time::sleep(3 * Duration::from_secs(args.server_timeouts) + Duration::from_secs(2))
        .await;
    let after_grace = target.rss();
    let check = soak::MemoryCheck {
        ratio: args.memory_ratio,
    };
    // The allocator hands pages back over a few seconds; wait for it, up to the settle time.
    let settle = Instant::now();
    let mut settled = after_grace;
    while !check.came_back(baseline, settled)
        && settle.elapsed() < Duration::from_secs(args.settle_seconds)
    {
        tokio::time::sleep(Duration::from_secs(1)).await;
        settled = target.rss();
    }
    let up = target.is_running() && tokio::net::TcpStream::connect(target.addr).await.is_ok();
    let came_back = check.came_back(baseline, settled);
    println!(
        "server memory: before {}, after the grace period {}, {:.0} s later {} (limit {:.1}x: {}); \
         still up: {}",
        mib(baseline),
        mib(after_grace),
        settle.elapsed().as_secs_f64(),
        mib(settled),
        args.memory_ratio,
        mib(check.limit_kib(baseline)),
        if up { "yes" } else { "NO" }
    );
    if !came_back {
        println!(
            "MEMORY DID NOT COME BACK: {} after the load left, more than {:.1} times the baseline \
             of {}",
            mib(settled),
            args.memory_ratio,
            mib(baseline)
        );
    }
    Ok(up && failed == 0 && came_back)
}

/// `args.burst_games` players each open a game and vanish, `args.burst_at_once` at a time;
/// prints how long it took and the memory at its peak. Returns how many players failed.
async fn burst(args: &Args, target: &Target) -> usize {
    let kinds = [GameKind::Checkers, GameKind::Pente, GameKind::TicTacToe];
    let started = Instant::now();
    let mut peak = target.rss();
    let mut failed = 0;
    let mut players = tokio::task::JoinSet::new();
    for player in 0..args.burst_games {
        if players.len() >= args.burst_at_once.max(1) {
            failed += usize::from(matches!(players.join_next().await, Some(Err(_))));
            peak = peak.max(target.rss());
        }
        let addr = target.addr;
        players.spawn(soak::open_and_vanish(addr, kinds[player % kinds.len()]));
    }
    while let Some(joined) = players.join_next().await {
        failed += usize::from(joined.is_err());
    }
    peak = peak.max(target.rss());
    println!(
        "burst: {} players opened a game each and vanished ({} at once) in {:.1} s; {failed} \
         failed; server memory at the end of the burst {}",
        args.burst_games,
        args.burst_at_once,
        started.elapsed().as_secs_f64(),
        mib(peak)
    );
    failed
}
