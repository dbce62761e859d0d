//! `kingme-floor`: what the kernel alone costs a move on this machine. It starts a bare relay
//! (this binary again, as a child process of its own, so its CPU time is measured alone from
//! `/proc`) that does the input and output a judged kingme move cannot do without and nothing
//! else: read the move, write an echo to the mover and a copy to the partner, one write each
//! (see `kingme_tests::floor`). Then it plays pairs of clients against it, paced like
//! `kingme-load` (`--think-ms`), and prints moves per second, relay latency (a move sent to the
//! partner receiving its copy: p50/p99/max), the relay's CPU time per move (user and system),
//! the players' own (this process's) CPU time per move, and the machine's load average at the
//! start and the end.
//!
//! `--relay current-thread` runs the relay on one thread instead of tokio's multi-thread
//! runtime with two workers (as kingme-server), to show what the hops between threads cost;
//! `--no-echo` writes the copy only (not what kingme's protocol allows), to show what one write
//! costs.
//!
//! `--store worker --db FILE` makes the relay a storing judge's floor: each pair is a game in
//! an SQLite file, created by kingme-server's own store, and each move is committed there before
//! its echo and copy are written, through the server's storage worker and its batches;
//! `--store inline` stores each move from the pair's own task, one commit a move, with no
//! hand-off (a lower bound, not a design: it blocks the runtime's thread while SQLite works).
//! See `kingme_tests::floor::store`.
//!
//! `--tls` carries every connection over TLS, as kingme-server's are by default (the relay
//! presents a self-signed certificate made as the server makes its own; the players dial with
//! the terminal client's code), so that TLS is part of the floor as of the server's figures.
//!
//! `--fresh-connections` plays boardgame.io's workload, as `kingme-load --fresh-connections`
//! does against kingme-server: every match on two new connections, each with a handshake
//! (hello, welcome) of the sizes of kingme's `Hello` and `Welcome`, then the creator's create
//! and the joiner's join answered as kingme-server answers them (frames of the same sizes,
//! see `kingme_tests::floor::HandshakeSizes`), a random game of noughts and crosses, both
//! connections closed, and the pair's next match on new ones. It adds matches per second,
//! handshake latency (connect to welcome: p50/p99/max) and the relay's CPU per match. In every
//! mode the relay reports what it counted (connections accepted, pairs matched, moves
//! relayed).

use anyhow::{Context, bail};
use clap::{Parser, ValueEnum};
use kingme_tests::floor::matches::{self, MatchOptions};
use kingme_tests::floor::players::{self, PlayOptions, Tally};
use kingme_tests::floor::relay::{self, RelayCounts, RelayOptions};
use kingme_tests::floor::store::{MoveStore, Storing};
use kingme_tests::floor::wire::{self, Wire};
use kingme_tests::floor::{FrameSizes, HandshakeSizes};
use kingme_tests::measure::{CpuTime, cpu_time, load_average, percentile, players_line};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Measures the CPU a bare relay spends per move: the floor under kingme-server's.
#[derive(Debug, Parser)]
#[command(name = "kingme-floor")]
struct Args {
    /// Pairs of clients (two connections each).
    #[arg(long, default_value_t = 1000)]
    pairs: u64,
    /// Milliseconds a client waits before sending its move (0: at once).
    #[arg(long, default_value_t = 500)]
    think_ms: u64,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 20)]
    secs: u64,
    /// The relay's tokio runtime.
    #[arg(long, value_enum, default_value_t = Runtime::MultiThread)]
    relay: Runtime,
    /// Write only the copy to the partner, no echo to the mover (one write a move; kingme's
    /// protocol needs both).
    #[arg(long)]
    no_echo: bool,
    /// boardgame.io's workload: every match on two new connections with a handshake each, a
    /// random game of noughts and crosses, both closed at its end (`--pairs` concurrent
    /// matches); matches per second, handshake latency and CPU per match are reported.
    #[arg(long)]
    fresh_connections: bool,
    /// Every connection over TLS, as kingme-server's by default (the handshake is part of a
    /// fresh connection's cost).
    #[arg(long)]
    tls: bool,
    /// Payload bytes of a client's move (without the 4-byte length).
    #[arg(long, default_value_t = FrameSizes::default().moves)]
    move_bytes: usize,
    /// Payload bytes of the echo to the mover.
    #[arg(long, default_value_t = FrameSizes::default().echo)]
    echo_bytes: usize,
    /// Payload bytes of the copy to the partner.
    #[arg(long, default_value_t = FrameSizes::default().copy)]
    copy_bytes: usize,
    /// Store every move before relaying it, in the file `--db` names: through kingme-server's
    /// storage worker (`worker`, as the server stores) or from the pair's own task, a commit a
    /// move (`inline`, a lower bound).
    #[arg(long, value_enum, requires = "db")]
    store: Option<Storing>,
    /// The SQLite file `--store` writes (created if missing; use a new one for each run).
    #[arg(long, requires = "store")]
    db: Option<std::path::PathBuf>,
    /// Be the relay: listen on 127.0.0.1, print the address, relay until standard input closes.
    #[arg(long, hide = true)]
    serve: bool,
}

/// The relay's runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Runtime {
    /// tokio's multi-thread runtime with two workers, as kingme-server on two cores.
    MultiThread,
    /// tokio's current-thread runtime: one thread, no hand-off between threads.
    CurrentThread,
}

impl Args {
    /// The relay's options as asked.
    fn relay_options(&self) -> anyhow::Result<RelayOptions> {
        Ok(RelayOptions {
            sizes: self.sizes()?,
            echo: !self.no_echo,
            handshake: self.fresh_connections.then(HandshakeSizes::default),
        })
    }

    /// How and where the relay stores moves, if it does (`--store` and `--db` come together).
    fn storing(&self) -> Option<(Storing, &std::path::Path)> {
        Some((self.store?, self.db.as_deref()?))
    }

    /// Plaintext or TLS, as asked.
    fn wire(&self) -> Wire {
        if self.tls { Wire::Tls } else { Wire::Plaintext }
    }

    fn sizes(&self) -> anyhow::Result<FrameSizes> {
        FrameSizes {
            moves: self.move_bytes,
            echo: self.echo_bytes,
            copy: self.copy_bytes,
        }
        .check()
        .context("check --move-bytes, --echo-bytes and --copy-bytes")
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let options = args.relay_options()?;
    if args.serve {
        return serve(&args, options);
    }
    measure(&args, options)
}

/// The relay process: listens, prints its address, relays until standard input closes (the
/// measuring parent went away), then prints what it counted.
fn serve(args: &Args, options: RelayOptions) -> anyhow::Result<()> {
    let tls = match args.wire() {
        Wire::Tls => Some(wire::acceptor().context("make the relay's certificate")?),
        Wire::Plaintext => None,
    };
    let runtime = match args.relay {
        Runtime::MultiThread => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build(),
        Runtime::CurrentThread => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
    }
    .context("start the relay's runtime")?;
    let counts = Arc::new(RelayCounts::default());
    std::thread::spawn({
        let counts = counts.clone();
        move || {
            // Reads until the parent closes our standard input, then reports and ends.
            let _ = std::io::stdin().read_to_end(&mut Vec::new());
            let mut stdout = std::io::stdout();
            let _ = writeln!(stdout, "{}", counts.line());
            let _ = stdout.flush();
            std::process::exit(0);
        }
    });
    runtime.block_on(async {
        let store = match args.storing() {
            Some((storing, path)) => Some(Arc::new(
                MoveStore::open(path, storing)
                    .with_context(|| format!("open the database {}", path.display()))?,
            )),
            None => None,
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .context("listen on 127.0.0.1")?;
        let mut stdout = std::io::stdout();
        writeln!(stdout, "{}", listener.local_addr()?)?;
        stdout.flush()?;
        relay::serve(listener, options, tls, counts, store)
            .await
            .context("accept")
    })
}

/// What one run measured.
struct Measured {
    tally: Tally,
    elapsed: Duration,
    /// The relay's CPU time during the play.
    cpu: CpuTime,
    /// This process's CPU time during the play: the players' (on the same cores).
    players_cpu: Option<CpuTime>,
}

/// The relay process, the address it listens on, and its standard output (where it reports
/// what it counted when it ends).
struct Relay {
    child: Child,
    addr: SocketAddr,
    output: BufReader<ChildStdout>,
}

/// Starts the relay process, plays against it, prints the figures.
fn measure(args: &Args, options: RelayOptions) -> anyhow::Result<()> {
    let sizes = options.sizes;
    let Relay {
        mut child,
        addr,
        mut output,
    } = start_relay(args, sizes)?;
    let writes = if args.no_echo {
        "the copy only: 1 write a move, not what kingme's protocol allows"
    } else {
        "echo and copy: 2 writes a move"
    };
    let runtime_name = match args.relay {
        Runtime::MultiThread => "multi-thread runtime, 2 workers",
        Runtime::CurrentThread => "current-thread runtime",
    };
    let carried = if args.tls { "TLS" } else { "plaintext" };
    let stored = match args.storing() {
        Some((Storing::Worker, path)) => format!(
            "; each move stored in {} through the server's storage worker",
            path.display()
        ),
        Some((Storing::Inline, path)) => format!(
            "; each move stored in {} from its pair's task, a commit a move",
            path.display()
        ),
        None => String::new(),
    };
    println!(
        "bare relay at {addr}, pid {} ({runtime_name}; {writes}; {carried}{stored})",
        child.id()
    );
    println!(
        "frames: move {} bytes, echo {}, copy {} (payload, each after a 4-byte length)",
        sizes.moves, sizes.echo, sizes.copy
    );
    if let Some(handshake) = options.handshake {
        println!(
            "fresh connections: hello {} bytes, welcome {}, create {}, created {}, join {}, \
             started {} to the creator and {} to the joiner (payload)",
            handshake.hello,
            handshake.welcome,
            handshake.create,
            handshake.created,
            handshake.join,
            handshake.started_creator,
            handshake.started_joiner
        );
    }
    let load_before = load_average().unwrap_or_else(|| "unknown".to_owned());
    let measured = play(args, options, addr, child.id());
    // Closing its standard input ends the relay, which first says what it counted; kill it in
    // case it does not end.
    drop(child.stdin.take());
    let mut counted = String::new();
    let _ = output.read_line(&mut counted);
    if child.try_wait().ok().flatten().is_none() {
        std::thread::sleep(Duration::from_millis(200));
        let _ = child.kill();
    }
    let _ = child.wait();
    let load_after = load_average().unwrap_or_else(|| "unknown".to_owned());
    report(args, measured?, &load_before, &load_after);
    match counted.trim() {
        "" => println!("relay counted: unknown (the relay did not say)"),
        line => println!("{line}"),
    }
    Ok(())
}

/// Starts this program again as the relay.
fn start_relay(args: &Args, sizes: FrameSizes) -> anyhow::Result<Relay> {
    let exe = std::env::current_exe().context("find this program to start the relay")?;
    let mut command = Command::new(exe);
    command.args([
        "--serve",
        "--relay",
        match args.relay {
            Runtime::MultiThread => "multi-thread",
            Runtime::CurrentThread => "current-thread",
        },
        "--move-bytes",
        &sizes.moves.to_string(),
        "--echo-bytes",
        &sizes.echo.to_string(),
        "--copy-bytes",
        &sizes.copy.to_string(),
    ]);
    if args.no_echo {
        command.arg("--no-echo");
    }
    if args.fresh_connections {
        command.arg("--fresh-connections");
    }
    if args.tls {
        command.arg("--tls");
    }
    if let Some((storing, path)) = args.storing()
        && let Some(name) = storing.to_possible_value()
    {
        command.args(["--store", name.get_name()]);
        command.arg("--db").arg(path);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("start the relay process")?;
    let mut line = String::new();
    let Some(stdout) = child.stdout.take() else {
        let _ = child.kill();
        let _ = child.wait();
        bail!("the relay's output could not be read");
    };
    let mut output = BufReader::new(stdout);
    output
        .read_line(&mut line)
        .context("read the relay's address")?;
    match line.trim().parse() {
        Ok(addr) => Ok(Relay {
            child,
            addr,
            output,
        }),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the relay did not say where it listens (it printed {line:?})");
        }
    }
}

/// Connects the pairs to the relay at `addr` (process `pid`), then plays them for the time
/// asked, measuring the relay's CPU over the play only. With fresh connections the pairs
/// connect in the play, for every match.
fn play(args: &Args, relay: RelayOptions, addr: SocketAddr, pid: u32) -> anyhow::Result<Measured> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("start the tokio runtime")?;
    let options = PlayOptions {
        think: Duration::from_millis(args.think_ms),
        sizes: relay.sizes,
        echo: relay.echo,
        wire: args.wire(),
    };
    runtime.block_on(async {
        let pairs = match relay.handshake {
            Some(_) => Vec::new(),
            None => players::connect_all(addr, args.pairs, args.wire())
                .await
                .context("connect the pairs")?,
        };
        let cpu_before = cpu_time(pid).context("read the relay's CPU time")?;
        let players_before = cpu_time(std::process::id());
        let started = Instant::now();
        let until = started + Duration::from_secs(args.secs);
        let tally = match relay.handshake {
            Some(handshake) => {
                let options = MatchOptions {
                    play: options,
                    handshake,
                };
                matches::play_all(addr, args.pairs, options, until).await
            }
            None => players::play_all(pairs, options, until).await,
        }
        .context("a pair failed")?;
        let elapsed = started.elapsed();
        let cpu = cpu_time(pid)
            .context("read the relay's CPU time")?
            .since(cpu_before);
        let players_cpu = cpu_time(std::process::id())
            .zip(players_before)
            .map(|(after, before)| after.since(before));
        Ok(Measured {
            tally,
            elapsed,
            cpu,
            players_cpu,
        })
    })
}

/// Prints what a run measured.
fn report(args: &Args, measured: Measured, load_before: &str, load_after: &str) {
    let Measured {
        mut tally,
        elapsed,
        cpu,
        players_cpu,
    } = measured;
    tally.latencies.sort();
    tally.handshakes.sort();
    let ms = |time: Duration| time.as_secs_f64() * 1000.0;
    let per_move = |time: Duration| time.as_secs_f64() * 1e6 / tally.moves.max(1) as f64;
    if args.fresh_connections {
        println!(
            "{} pairs (a match each at a time, on two new connections), think {} ms, {:.1} s",
            args.pairs,
            args.think_ms,
            elapsed.as_secs_f64()
        );
    } else {
        println!(
            "{} pairs ({} connections), think {} ms, {:.1} s",
            args.pairs,
            args.pairs * 2,
            args.think_ms,
            elapsed.as_secs_f64()
        );
    }
    println!("load average at start: {load_before}");
    println!(
        "moves: {}   moves/s: {:.0}   copies received: {}   echoes received: {}",
        tally.moves,
        tally.moves as f64 / elapsed.as_secs_f64(),
        tally.copies,
        tally.echoes
    );
    if args.fresh_connections {
        println!(
            "matches: {}   matches/s: {:.0}   moves a match: {:.2}",
            tally.matches,
            tally.matches as f64 / elapsed.as_secs_f64(),
            tally.moves as f64 / tally.matches.max(1) as f64
        );
        println!(
            "handshakes: {}   handshake ms (connect to welcome): p50 {:.3}   p99 {:.3}   max {:.3}",
            tally.handshakes.len(),
            ms(percentile(&tally.handshakes, 0.50)),
            ms(percentile(&tally.handshakes, 0.99)),
            ms(percentile(&tally.handshakes, 1.0))
        );
    }
    println!(
        "relay latency ms:  p50 {:.3}   p99 {:.3}   max {:.3}",
        ms(percentile(&tally.latencies, 0.50)),
        ms(percentile(&tally.latencies, 0.99)),
        ms(percentile(&tally.latencies, 1.0))
    );
    println!(
        "relay CPU: {:.2} s (user {:.2}, system {:.2}): {:.1} us per move (user {:.1}, system {:.1})",
        cpu.total().as_secs_f64(),
        cpu.user.as_secs_f64(),
        cpu.system.as_secs_f64(),
        per_move(cpu.total()),
        per_move(cpu.user),
        per_move(cpu.system)
    );
    if args.fresh_connections {
        let per_match = |time: Duration| time.as_secs_f64() * 1e6 / tally.matches.max(1) as f64;
        println!(
            "relay CPU per match: {:.1} us (user {:.1}, system {:.1})",
            per_match(cpu.total()),
            per_match(cpu.user),
            per_match(cpu.system)
        );
    }
    if let Some(players) = players_cpu {
        let line = players_line(players, cpu, "relay", tally.moves, elapsed);
        println!("{line}");
    }
    println!("load average at end: {load_after}");
}
