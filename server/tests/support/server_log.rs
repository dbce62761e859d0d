//! A `kingme-server` process with its log read: started with `RUST_LOG=info` and its standard
//! output (the log) piped, its standard error dropped, killed if the test drops it; and the wait
//! for a line of that log. Shared by the tests that start the server binary (`restart_scenario.rs`,
//! `cluster_node.rs`, `log_colour.rs`); each test crate declares it once, through `#[path]`.
#![allow(dead_code)]

use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};

/// A guard against a hung server, not a measurement: nothing here should take a fraction of it.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// The log lines of a server started by [`spawn_logged`].
pub type LogLines = Lines<BufReader<ChildStdout>>;

/// Starts `command` (the server binary and its flags) with its log piped: the process and its
/// log's lines.
pub fn spawn_logged(command: &mut Command) -> (Child, LogLines) {
    let mut child = command
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|err| panic!("cannot start the server: {err}"));
    let log = child.stdout.take().expect("the log is piped");
    (child, BufReader::new(log).lines())
}

/// Reads `lines` up to the first containing `text`, and returns it; panics if the log ends or
/// [`PATIENCE`] passes first.
pub async fn line_containing(lines: &mut LogLines, text: &str) -> String {
    tokio::time::timeout(PATIENCE, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(text) {
                return line;
            }
        }
        panic!("the server ended without logging {text:?}");
    })
    .await
    .unwrap_or_else(|_| panic!("no {text:?} in the server's log"))
}
