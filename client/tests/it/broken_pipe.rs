//! `kingme ... | head`: the real binary whose standard output is closed ends quietly with success,
//! with no panic message and no error: `println!` panics on a closed pipe and `writeln!(stdout)?`
//! returns an error, unless `main` says otherwise (`kingme_client::launch::broken_pipe`).

use crate::KINGME;
use std::io::Read;
use std::process::{Child, Command, Stdio};

#[test]
fn a_reader_that_goes_away_after_one_line_ends_the_command_quietly() {
    // 2,000 games of random against random print a line each, about 200 KB: far more than a pipe
    // holds, so the command is still printing when the read end closes.
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(KINGME)
        .args([
            "match",
            "--game",
            "tictactoe",
            "--a",
            "random",
            "--b",
            "random",
        ])
        .args(["--games", "2000"])
        .env("KINGME_DATA_DIR", home.path())
        .env("KINGME_CONFIG_DIR", home.path())
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0u8];
    while first.last() != Some(&b'\n') {
        assert_eq!(stdout.read(&mut byte).unwrap(), 1, "a first line");
        first.push(byte[0]);
    }
    assert!(
        String::from_utf8_lossy(&first).starts_with("random vs random"),
        "{}",
        String::from_utf8_lossy(&first)
    );
    drop(stdout);
    assert_quiet_success(child);
}

#[test]
fn a_reader_gone_before_the_answer_ends_history_quietly() {
    // `history` asks its embedded server, then writes with `writeln!(stdout)?`: its first write
    // already finds the pipe closed.
    let home = tempfile::tempdir().unwrap();
    let mut child = kingme(&home)
        .args(["--name", "tester", "history"])
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert_quiet_success(child);
}

/// `kingme` with its files in `home`, standard output and error piped.
fn kingme(home: &tempfile::TempDir) -> Command {
    let mut command = Command::new(KINGME);
    command
        .env("KINGME_DATA_DIR", home.path())
        .env("KINGME_CONFIG_DIR", home.path())
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Waits for `child` and checks that it succeeded and said nothing about the closed pipe.
fn assert_quiet_success(child: Child) {
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
}
