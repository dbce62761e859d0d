//! The server's log written to a pipe or file carries no ANSI colour codes (colour is only for
//! a terminal), even when the environment does not ask for plain text with `NO_COLOR`; with
//! `--log-format json` each event is a JSON object on its line.

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

#[tokio::test]
async fn a_json_log_is_one_object_an_event() {
    let (mut child, mut lines) = spawn_logged(
        Command::new(SERVER)
            .args(["--listen", "127.0.0.1:0", "--db", ":memory:"])
            .args(["--log-format", "json"]),
    );
    let line = line_containing(&mut lines, "kingme server listening").await;
    let event: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(event["level"], "INFO", "{line}");
    assert_eq!(
        event["fields"]["message"], "kingme server listening",
        "{line}"
    );
    let addr = event["fields"]["addr"].as_str().unwrap();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    assert!(event["timestamp"].is_string(), "{line}");
    child.kill().await.unwrap();
}
