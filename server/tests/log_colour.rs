//! The server's log written to a pipe or file carries no ANSI colour codes (colour is only for
//! a terminal), even when the environment does not ask for plain text with `NO_COLOR`.
#![allow(clippy::unwrap_used)]

use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

/// A guard against a hung server, not a measurement.
const PATIENCE: Duration = Duration::from_secs(30);

#[tokio::test]
async fn a_log_written_to_a_pipe_has_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kingme-server"))
        .args(["--listen", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("games.db"))
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(PATIENCE, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line.contains("listening") {
                return line;
            }
        }
        panic!("the server ended without listening");
    })
    .await
    .unwrap();
    assert!(!line.contains('\u{1b}'), "{line:?}");
    assert!(line.contains("listening addr=127.0.0.1:"), "{line:?}");
    child.kill().await.unwrap();
}
