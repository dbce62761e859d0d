//! The server's log written to a pipe or file carries no ANSI colour codes (colour is only for
//! a terminal), even when the environment does not ask for plain text with `NO_COLOR`.

use crate::SERVER;
use kingme_testkit::server_process::{line_containing, spawn_logged};
use tokio::process::Command;

#[tokio::test]
async fn a_log_written_to_a_pipe_has_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, mut lines) = spawn_logged(
        Command::new(SERVER)
            .args(["--listen", "127.0.0.1:0", "--db"])
            .arg(dir.path().join("games.db"))
            .env_remove("NO_COLOR"),
    );
    let line = line_containing(&mut lines, "listening").await;
    assert!(!line.contains('\u{1b}'), "{line:?}");
    assert!(line.contains("listening addr=127.0.0.1:"), "{line:?}");
    child.kill().await.unwrap();
}
