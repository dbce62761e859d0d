//! End to end, identity (issue 12): the real `kingme` binary against the real server. A person
//! is their key, not the address they connect through nor the server's port: the play command
//! works twice without `$USER`, one name works through `127.0.0.1` and `localhost`, a server
//! restarted on another port with its database admits the same person, another key for the
//! name is refused with a message that says what to do, and a plain client killed in the
//! middle of a game is back in it when started again and plays on.

use crate::KINGME;
use crate::fixtures::{feed_and_wait, output_text as text};
use kingme_server::host::{Config, Database, ServerHandle};
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

async fn server_on(database: Database) -> ServerHandle {
    let config = Config {
        bot_think_time: Duration::from_millis(20),
        database,
        ..Config::default()
    };
    ServerHandle::start("127.0.0.1:0", config).await.unwrap()
}

/// `kingme` with `args`, its config and data directories in `home`, neither `$USER` nor
/// `$LOGNAME` set.
fn kingme(home: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(KINGME);
    command
        .args(args)
        .env("NO_COLOR", "1")
        .env("KINGME_DATA_DIR", home)
        .env("KINGME_CONFIG_DIR", home)
        .env_remove("USER")
        .env_remove("LOGNAME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    command
}

/// Runs `kingme` with `args` in `home`, writes `input` and closes it, and waits.
async fn run(home: &Path, args: &[&str], input: &str) -> Output {
    let child = kingme(home, args).spawn().unwrap();
    feed_and_wait(child, input).await
}

/// Every square in turn: each turn takes the first one still free, so the game ends.
const EVERY_SQUARE: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";

/// Reads the child's output into `seen` until `needle` has appeared `count` times (a prompt
/// ends in no newline, so this reads what arrives, not lines).
async fn read_until(
    stdout: &mut (impl tokio::io::AsyncRead + Unpin),
    seen: &mut String,
    needle: &str,
    count: usize,
) {
    let mut buffer = [0_u8; 4096];
    while seen.matches(needle).count() < count {
        let read = stdout.read(&mut buffer).await.unwrap();
        assert!(read > 0, "the output ended before {needle:?}: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
    }
}

fn finished(out: &str) -> bool {
    out.contains("wins with three in a row") || out.contains("the board is full")
}

/// `kingme play` of noughts and crosses against a random bot, as X.
const PLAY_X_AGAINST_RANDOM: [&str; 7] = [
    "play",
    "--game",
    "tictactoe",
    "--vs",
    "random",
    "--color",
    "x",
];

/// The arguments of a plain-mode client of `address` playing as `name`
/// ([`PLAY_X_AGAINST_RANDOM`]).
fn plain_play<'a>(address: &'a str, name: &'a str) -> Vec<&'a str> {
    let mut args = vec!["--plain", "--server", address, "--name", name];
    args.extend(PLAY_X_AGAINST_RANDOM);
    args
}

/// Plays a whole noughts-and-crosses game against a bot through `address` as `name`.
async fn play_one(home: &Path, address: &str, name: &str) -> Output {
    run(home, &plain_play(address, name), EVERY_SQUARE).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_play_command_works_twice_without_user() {
    // The embedded server, a new port each time; no $USER, no --name: the name is the
    // account's, the key made on the first run proves it on the second.
    let home = tempfile::tempdir().unwrap();
    let mut args = vec!["--plain"];
    args.extend(PLAY_X_AGAINST_RANDOM);
    for run_number in 1..=2 {
        let output = run(home.path(), &args, EVERY_SQUARE).await;
        let out = text(&output);
        assert!(output.status.success(), "run {run_number}: {out}");
        assert!(finished(&out), "run {run_number}: {out}");
        assert!(!out.contains("player"), "no shared default name: {out}");
    }
    assert_eq!(
        std::fs::read_dir(home.path().join("identities"))
            .unwrap()
            .count(),
        1,
        "one key, made once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_is_the_same_person_through_any_address_and_port() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("server.db");
    let home = tempfile::tempdir().unwrap();
    let server = server_on(Database::File(db.clone())).await;
    let port = server.addr().port();
    // Registered through 127.0.0.1, then through localhost.
    for address in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let output = play_one(home.path(), &address, "ann").await;
        let out = text(&output);
        assert!(output.status.success(), "{address}: {out}");
        assert!(finished(&out), "{address}: {out}");
    }
    server.shutdown().await;
    // The server restarted on another port with the same database admits the same person.
    let server = server_on(Database::File(db)).await;
    assert_ne!(server.addr().port(), port);
    let output = play_one(home.path(), &server.addr().to_string(), "ann").await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(finished(&out), "{out}");

    // Someone else, with another key, is refused the name and told what to do.
    let other = tempfile::tempdir().unwrap();
    let output = play_one(other.path(), &server.addr().to_string(), "ann").await;
    let out = text(&output);
    assert!(!output.status.success(), "{out}");
    assert!(
        out.contains("the name \"ann\" belongs to another key (fingerprint"),
        "{out}"
    );
    assert!(out.contains("use --name to choose another"), "{out}");
    // The fingerprint named is the first person's, as `kingme identity show` prints it.
    let shown = run(home.path(), &["--name", "ann", "identity", "show"], "").await;
    let shown = text(&shown);
    let fingerprint = shown
        .lines()
        .find_map(|line| line.strip_prefix("fingerprint: "))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(out.contains(&fingerprint[..8]), "{fingerprint} in {out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_moved_to_another_machine_is_the_same_person() {
    let server = server_on(Database::InMemory).await;
    let address = server.addr().to_string();
    let first = tempfile::tempdir().unwrap();
    let output = play_one(first.path(), &address, "bea").await;
    assert!(output.status.success(), "{}", text(&output));
    // Export on the first machine, import on the second: bea plays there too.
    let carried = tempfile::tempdir().unwrap();
    let file = carried.path().join("bea.pem");
    let file = file.to_str().unwrap();
    let export = run(
        first.path(),
        &["identity", "export", "bea", "--output", file],
        "",
    )
    .await;
    assert!(export.status.success(), "{}", text(&export));
    let second = tempfile::tempdir().unwrap();
    let import = run(second.path(), &["identity", "import", file], "").await;
    let imported = text(&import);
    assert!(import.status.success(), "{imported}");
    assert!(imported.contains("imported the key of bea"), "{imported}");
    let output = play_one(second.path(), &address, "bea").await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(finished(&out), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_client_killed_mid_game_is_back_in_it_when_started_again() {
    let server = server_on(Database::InMemory).await;
    let address = server.addr().to_string();
    let home = tempfile::tempdir().unwrap();
    // Ann plays one move, then her client is killed at her next turn.
    let mut first = kingme(home.path(), &plain_play(&address, "ann"))
        .spawn()
        .unwrap();
    let mut stdin = first.stdin.take().unwrap();
    stdin.write_all(b"5\n").await.unwrap();
    let mut stdout = first.stdout.take().unwrap();
    let mut seen = String::new();
    read_until(&mut stdout, &mut seen, "your move (", 2).await;
    assert!(seen.contains("X played 5"), "{seen}");
    first.kill().await.unwrap();
    drop(stdin);

    // Started again without a subcommand: the board, the prompt, and the next move is played.
    let output = run(
        home.path(),
        &["--plain", "--server", &address, "--name", "ann"],
        EVERY_SQUARE,
    )
    .await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("game 1 is in progress: back to it"), "{out}");
    assert!(out.contains("you play X"), "{out}");
    let back = out.find("back to it").unwrap();
    assert!(out[back..].contains("your move ("), "{out}");
    assert!(out[back..].contains("X played"), "{out}");
    assert!(finished(&out), "{out}");

    // `kingme play` while a game is in progress says so: start one, kill, play again.
    let mut third = kingme(home.path(), &plain_play(&address, "ann"))
        .spawn()
        .unwrap();
    let mut stdout = third.stdout.take().unwrap();
    let mut seen = String::new();
    read_until(&mut stdout, &mut seen, "your move (", 1).await;
    third.kill().await.unwrap();
    let output = run(
        home.path(),
        &[
            "--plain", "--server", &address, "--name", "ann", "play", "--game", "checkers",
        ],
        EVERY_SQUARE,
    )
    .await;
    let out = text(&output);
    assert!(
        out.contains("game 2 is in progress: back to it (finish or resign it"),
        "{out}"
    );
    assert!(finished(&out), "the noughts and crosses went on: {out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_key_file_is_a_clear_error() {
    let server = server_on(Database::InMemory).await;
    let address = server.addr().to_string();
    let home = tempfile::tempdir().unwrap();
    let output = play_one(home.path(), &address, "cy").await;
    assert!(output.status.success(), "{}", text(&output));
    let key = home.path().join("identities").join("cy.pem");
    let whole = std::fs::read(&key).unwrap();
    std::fs::write(&key, &whole[..whole.len() / 2]).unwrap();
    let output = play_one(home.path(), &address, "cy").await;
    let out = text(&output);
    assert!(!output.status.success(), "{out}");
    assert!(out.contains("cut short"), "{out}");
    assert!(out.contains(key.to_str().unwrap()), "{out}");
    server.shutdown().await;
}
