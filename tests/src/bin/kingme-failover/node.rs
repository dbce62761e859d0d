//! One node process of the cluster under test: started on its address with its log read for
//! takeovers (recorded in the ledger), killed with SIGKILL, started again.

use super::{Args, Shared, ledger};
use anyhow::Context;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// One node process.
pub(crate) struct Node {
    pub(crate) addr: String,
    pub(crate) child: Option<Child>,
}

impl Node {
    /// Starts the node on `addr`; its log is read for takeovers until it ends.
    pub(crate) async fn start(
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
pub(crate) fn field(line: &str, name: &str) -> Option<u64> {
    let (_, rest) = line.split_once(name)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

pub(crate) fn free_addr() -> anyhow::Result<String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.to_string())
}
