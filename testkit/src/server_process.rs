//! The `kingme-server` binary as a process of the test's own: started with `RUST_LOG=info` and
//! its standard output (the log) piped, its standard error dropped, killed if the test drops
//! it; the wait for a line of that log; and the binary started on a database on a free port,
//! its address read from its log. The caller names the binary (`CARGO_BIN_EXE_kingme-server`
//! in the server's own tests) or a program that serves the same way.

use crate::patience;
use std::ffi::OsStr;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};

/// The log lines of a server started by [`spawn_logged`].
pub type LogLines = Lines<BufReader<ChildStdout>>;

/// Starts `command` (the server binary and its flags) with its log piped: the process and its
/// log's lines.
///
/// # Panics
/// When the program cannot be started.
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

/// Reads `lines` up to the first containing `text`, and returns it.
///
/// # Panics
/// When the log ends, or [`patience::SERVER_LOG`] passes, first.
pub async fn line_containing(lines: &mut LogLines, text: &str) -> String {
    tokio::time::timeout(patience::SERVER_LOG, async {
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

/// The address a `listening addr=...` line of the log names.
///
/// # Panics
/// When the line names none.
#[must_use]
pub fn listening_address(line: &str) -> String {
    let (_, rest) = line
        .split_once("listening addr=")
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    rest.split_whitespace()
        .next()
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned()
}

/// The server binary `program` on the database `db` (a `--db` value) with `server_args`
/// (`--fsync`, say), listening on a free port of 127.0.0.1; returns it and its address. Its log
/// is read on (and dropped) so the pipe never fills.
///
/// # Panics
/// When the server does not start and listen.
pub async fn start_server_process(
    program: &str,
    db: &OsStr,
    server_args: &[&str],
) -> (Child, String) {
    let (child, mut lines) = spawn_logged(
        Command::new(program)
            .args(["--listen", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(server_args)
            .env("NO_COLOR", "1"),
    );
    let addr = listening_address(&line_containing(&mut lines, "listening addr=").await);
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}
