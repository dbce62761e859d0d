//! The real `kingme-server` binary configured by a file (`--config`): started from the file
//! alone, the flags given on the command line laid over it, an unknown key refused with its
//! line, `--print-config` masking the database's password, and `contrib/kingme.toml` (every key,
//! its commented ones too) read as the server reads it, so the example cannot rot.

use crate::SERVER;
use kingme_server::host::ConfigFile;
use kingme_shared::protocol::{ClientMessage, ServerMessage};
use kingme_testkit::Client;
use kingme_testkit::server_process::{LogLines, line_containing, listening_address, spawn_logged};
use std::path::Path;
use tokio::process::Command;

/// Writes `text` as a configuration file in `dir`; returns its path.
fn write_config(dir: &Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("kingme.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Starts the binary from the configuration file `config` alone: the process, its log, and
/// the address it listens on.
pub(crate) async fn start_from(config: &Path) -> (tokio::process::Child, LogLines, String) {
    let (server, mut log) = spawn_logged(
        Command::new(SERVER)
            .arg("--config")
            .arg(config)
            .env("NO_COLOR", "1"),
    );
    let addr = listening_address(&line_containing(&mut log, "listening addr=").await);
    (server, log, addr)
}

/// Runs the binary with `args` to its end: whether it succeeded, its output and its errors.
async fn run(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let output = Command::new(SERVER)
        .args(args)
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .output()
        .await
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        output.status.success(),
        text(output.stdout),
        text(output.stderr),
    )
}

#[tokio::test]
async fn a_server_starts_from_a_config_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let config = write_config(
        dir.path(),
        &format!(
            "listen = \"127.0.0.1:0\"\ndb = {:?}\ngrace-secs = 5\nrate-burst = 50\n",
            db.display().to_string()
        ),
    );
    let (mut server, _log, addr) = start_from(&config).await;
    // It serves: a guest is welcomed, and the lobby answers.
    let mut alice = Client::connect(&addr).await.guest("alice").await;
    alice.send(ClientMessage::ListGames).await;
    alice
        .until(|message| matches!(message, ServerMessage::GameList { .. }).then_some(()))
        .await;
    // The database is the file's.
    assert!(db.exists(), "no database at {}", db.display());
    server.kill().await.unwrap();
}

#[tokio::test]
async fn flags_given_on_the_command_line_override_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // An address nobody can listen on: the server starts only if the flag wins.
    let config = write_config(
        dir.path(),
        "listen = \"192.0.2.1:1\"\ndb = \":memory:\"\ngrace-secs = 5\nrate-burst = 9\nfsync = false\n",
    );
    let (mut server, mut log) = spawn_logged(
        Command::new(SERVER)
            .arg("--config")
            .arg(&config)
            .args(["--listen", "127.0.0.1:0"])
            .env("NO_COLOR", "1"),
    );
    let addr = listening_address(&line_containing(&mut log, "listening addr=").await);
    Client::connect(&addr).await.guest("alice").await;
    server.kill().await.unwrap();

    let (ok, printed, errors) = run(&[
        "--config".as_ref(),
        config.as_os_str(),
        "--grace-secs".as_ref(),
        "7".as_ref(),
        "--fsync".as_ref(),
        "--print-config".as_ref(),
    ])
    .await;
    assert!(ok, "{errors}");
    let effective = ConfigFile::parse_bytes(printed.as_bytes()).unwrap();
    assert_eq!(effective.grace_secs, Some(7), "the flag wins: {printed}");
    assert_eq!(
        effective.rate_burst,
        Some(9),
        "the file's key stays: {printed}"
    );
    assert_eq!(
        effective.fsync,
        Some(true),
        "a switch given wins: {printed}"
    );
    assert_eq!(effective.listen.as_deref(), Some("192.0.2.1:1"));
    assert_eq!(
        effective.idle_timeout_secs,
        Some(30),
        "the default: {printed}"
    );
}

#[tokio::test]
async fn an_unknown_key_or_a_bad_value_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), "listen = \"127.0.0.1:0\"\n\ngrace_secs = 5\n");
    let (ok, _, errors) = run(&["--config".as_ref(), config.as_os_str()]).await;
    assert!(!ok);
    assert!(
        errors.contains("line 3: unknown field `grace_secs`"),
        "{errors}"
    );
    assert!(
        errors.contains("expected one of") && errors.contains("`grace-secs`"),
        "{errors}"
    );

    let config = write_config(dir.path(), "# limits\nmax-connections = \"many\"\n");
    let (ok, _, errors) = run(&["--config".as_ref(), config.as_os_str()]).await;
    assert!(!ok);
    assert!(
        errors.contains("line 2: invalid type: string \"many\""),
        "{errors}"
    );

    let config = write_config(dir.path(), "cluster = \"redis://127.0.0.1:1\"\n");
    let (ok, _, errors) = run(&["--config".as_ref(), config.as_os_str()]).await;
    assert!(!ok);
    assert!(
        errors.contains("cluster and advertise go together"),
        "{errors}"
    );
}

#[tokio::test]
async fn print_config_masks_the_database_password() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "db = \"postgres://kingme:s3cret@db.example:5432/kingme\"\n",
    );
    let (ok, printed, errors) = run(&[
        "--config".as_ref(),
        config.as_os_str(),
        "--print-config".as_ref(),
    ])
    .await;
    assert!(ok, "{errors}");
    assert!(!printed.contains("s3cret"), "{printed}");
    assert!(
        printed.contains("db = \"postgres://kingme:***@db.example:5432/kingme\""),
        "{printed}"
    );
}

/// Every key a configuration file may have, as the server's own refusal of an unknown key
/// lists them.
pub(crate) fn every_key() -> Vec<String> {
    let err = ConfigFile::parse_bytes(b"no-such-key = 1")
        .unwrap_err()
        .to_string();
    let (_, allowed) = err.split_once("expected one of").unwrap();
    allowed
        .split(',')
        .map(|key| key.trim().trim_matches('`').to_owned())
        .collect()
}

#[test]
fn the_example_configuration_has_every_key_and_reads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../contrib/kingme.toml");
    let example = std::fs::read_to_string(&path).unwrap();
    ConfigFile::parse_bytes(example.as_bytes()).unwrap();
    // Its commented keys, uncommented, read too: each is a key with a value of its type.
    let uncommented: String = example
        .lines()
        .map(|line| match line.strip_prefix("# ") {
            Some(rest)
                if rest
                    .split_once(" = ")
                    .is_some_and(|(key, _)| !key.contains(' ')) =>
            {
                rest
            }
            _ => line,
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let all = ConfigFile::parse_bytes(uncommented.as_bytes()).unwrap();
    let written = all.to_toml();
    for key in every_key() {
        assert!(
            written
                .lines()
                .any(|line| line.starts_with(&format!("{key} = "))),
            "contrib/kingme.toml has no `{key}`"
        );
    }
}
