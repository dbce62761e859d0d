//! `kingme bot` as a process of the test's own: started against a server with its home in a
//! temporary folder, the lines of its standard error read as they come (and shown with the
//! test's output), its end awaited; and the check that a bot ended well. The caller names the
//! `kingme` binary (`CARGO_BIN_EXE_kingme` in the client's tests).

use crate::patience;
use kingme_shared::protocol::GameId;
use std::net::SocketAddr;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

/// What a bot says when it has a seat.
pub const SEATED: &[&str] = &["opened game", "joined game"];

/// A `kingme bot` process and the lines of its standard error, as they come.
pub struct BotProcess {
    child: Child,
    notes: mpsc::UnboundedReceiver<String>,
    _home: tempfile::TempDir,
}

impl BotProcess {
    /// Starts `kingme bot` (the binary at `kingme`) against `addr` as `name`, with the further
    /// `arguments` (words separated by spaces).
    ///
    /// # Panics
    /// When the process cannot be started.
    #[must_use]
    pub fn start(kingme: &str, addr: SocketAddr, name: &str, arguments: &str) -> BotProcess {
        let home = tempfile::tempdir().expect("a temporary directory");
        let mut child = Command::new(kingme)
            .args(["bot", "--server", &addr.to_string(), "--name", name])
            .args(arguments.split_whitespace())
            .env("NO_COLOR", "1")
            .env("KINGME_DATA_DIR", home.path())
            .env("KINGME_CONFIG_DIR", home.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {kingme} bot: {err}"));
        let stderr = child
            .stderr
            .take()
            .expect("the bot's standard error is piped");
        let mut lines = BufReader::new(stderr).lines();
        let (tx, notes) = mpsc::unbounded_channel();
        let who = name.to_owned();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                // Shown with the test's output when it fails.
                eprintln!("[{who}] {line}");
                let _ = tx.send(line);
            }
        });
        BotProcess {
            child,
            notes,
            _home: home,
        }
    }

    /// Waits for a line of standard error containing one of `words`; returns the game number
    /// that follows "game " in it.
    ///
    /// # Panics
    /// When the bot ends, or says no such line in time, or the line names no game.
    pub async fn note(&mut self, words: &[&str]) -> GameId {
        tokio::time::timeout(patience::BOT, async {
            loop {
                let line = self.notes.recv().await.expect("the bot ended");
                if words.iter().any(|w| line.contains(w)) {
                    let number = line
                        .split("game ")
                        .nth(1)
                        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                        .and_then(|digits| digits.parse().ok())
                        .unwrap_or_else(|| panic!("no game number in {line:?}"));
                    return GameId(number);
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("the bot said none of {words:?} in time"))
    }

    /// Whether the process is still running (it has not ended, well or badly).
    ///
    /// # Panics
    /// When its state cannot be read.
    pub fn running(&mut self) -> bool {
        self.child
            .try_wait()
            .expect("the bot's state can be read")
            .is_none()
    }

    /// Waits for the process to end; returns whether it succeeded, its standard output and
    /// what else it said.
    ///
    /// # Panics
    /// When it does not end in time.
    pub async fn finish(mut self) -> (bool, String, String) {
        let mut out = String::new();
        let mut stdout = self.child.stdout.take().expect("the bot's output is piped");
        let status = tokio::time::timeout(patience::BOT, async {
            stdout
                .read_to_string(&mut out)
                .await
                .expect("the bot's output is text");
            self.child.wait().await.expect("the bot is reaped")
        })
        .await
        .expect("the bot did not finish");
        let mut notes = Vec::new();
        while let Ok(line) = self.notes.try_recv() {
            notes.push(line);
        }
        (status.success(), out, notes.join("\n"))
    }
}

/// Checks that a bot ended well, finished `games` games and resigned none; returns its results.
///
/// # Panics
/// When it did not.
pub async fn finished_well(bot: BotProcess, games: usize) -> Vec<String> {
    let (success, out, notes) = bot.finish().await;
    let context = format!("{out}\n--- stderr ---\n{notes}");
    assert!(success, "{context}");
    let results: Vec<String> = out
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(str::to_owned)
        .collect();
    assert_eq!(results.len(), games, "{context}");
    for line in &results {
        assert!(!line.contains("resignation"), "a bot resigned: {context}");
        assert!(
            !line.contains("abandoned"),
            "a game was abandoned: {context}"
        );
    }
    assert!(!notes.contains("slow down"), "{context}");
    results
}
