//! End to end: the real `kingme` binary against the real server over TCP. Plain mode driven
//! through standard input plays a whole noughts-and-crosses game and a short checkers game
//! against bots, answering bad lines with a message; the embedded mode starts its own server,
//! plays and shuts down; two `kingme bot` processes find each other and play.

use crate::KINGME;
use crate::fixtures::{feed_and_wait, output_text as text};
use kingme_server::host::ServerHandle;
use kingme_testkit::{start_server, test_config};
use std::process::{Output, Stdio};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

async fn server() -> ServerHandle {
    start_server(test_config()).await
}

/// Runs kingme with the words of `command_line` as arguments, writes `input` to its standard
/// input and closes it, and waits.
async fn kingme(command_line: &str, input: impl AsRef<[u8]>) -> Output {
    // The embedded server's database and the name secrets go to a directory of this run's own,
    // never the user's.
    let home = tempfile::tempdir().unwrap();
    let child = Command::new(KINGME)
        .args(command_line.split_whitespace())
        .env("NO_COLOR", "1")
        .env("KINGME_DATA_DIR", home.path())
        .env("KINGME_CONFIG_DIR", home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    feed_and_wait(child, input).await
}

/// Whether a noughts-and-crosses game's output shows it ended by the rules.
fn finished(out: &str) -> bool {
    out.contains("wins with three in a row") || out.contains("Drawn: the board is full")
}

/// Lines that try every square in turn, after some bad ones: each turn takes the first square
/// still free, so the game always runs to its end.
fn noughts_and_crosses_script() -> String {
    let mut script = String::from("hello\n\n99\n0\nc9\n");
    for square in 1..=9 {
        script.push_str(&format!("{square}\n"));
    }
    script
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_mode_plays_a_whole_game_of_noughts_and_crosses() {
    let server = server().await;
    let address = server.addr().to_string();
    let output = kingme(
        &format!(
            "--plain --server {address} --name ada play --game tictactoe --vs random --color x"
        ),
        &noughts_and_crosses_script(),
    )
    .await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(
        out.contains("game 1: tictactoe, X ada vs O bot random (0)"),
        "{out}"
    );
    assert!(out.contains("free squares: 1 2 3 4 5 6 7 8 9"), "{out}");
    // Each bad line got its own message, then the prompt again.
    assert!(out.contains("got \"hello\": that is not a square"), "{out}");
    assert!(out.contains("square 0 is not 1..9"), "{out}");
    assert!(
        out.contains("column c is not a..c") || out.contains("row 9 is not 1..3"),
        "{out}"
    );
    assert!(out.contains("X played 1"), "{out}");
    assert!(finished(&out), "{out}");

    // The finished game is in the server's history, exports as a text record, and the file
    // replays (printed position by position without a terminal).
    let ask = |command: &str| {
        let line = format!("--server {address} --guest --name reader {command}");
        async move { kingme(&line, "").await }
    };
    let history = ask("history --player ada").await;
    let listed = text(&history);
    assert!(history.status.success(), "{listed}");
    assert!(
        listed.contains("tictactoe  ada vs random (bot)"),
        "{listed}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game1.txt");
    let file = file.to_str().unwrap();
    let export = ask(&format!("export 1 --output {file}")).await;
    assert!(export.status.success(), "{}", text(&export));
    let record = std::fs::read_to_string(file).unwrap();
    assert!(record.starts_with("Game: tictactoe\n"), "{record}");
    assert!(record.contains("First: ada\n"), "{record}");
    let replay = kingme(&format!("import {file}"), "").await;
    let shown = text(&replay);
    assert!(replay.status.success(), "{shown}");
    assert!(shown.contains("start position (0 of"), "{shown}");
    assert!(shown.contains("move 1 of"), "{shown}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_that_is_not_utf8_is_refused_and_the_next_one_read() {
    let server = server().await;
    let address = server.addr().to_string();
    let mut script = b"\xff\xfe5\n".to_vec();
    script.extend(noughts_and_crosses_script().bytes());
    let output = kingme(
        &format!(
            "--plain --server {address} --name ada play --game tictactoe --vs random --color x"
        ),
        script,
    )
    .await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("error: that line is not UTF-8 text"), "{out}");
    assert!(finished(&out), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn end_of_input_ends_plain_mode_after_an_error_with_failure() {
    let server = server().await;
    let address = server.addr().to_string();
    let ended = tokio::time::timeout(
        kingme_testkit::patience::REPLY,
        kingme(
            &format!("--plain --server {address} --guest watch 9999"),
            "",
        ),
    )
    .await;
    let output = ended.expect("kingme --plain watch 9999 </dev/null waits forever");
    let out = text(&output);
    assert!(
        out.contains("there is no game 9999") || out.contains("9999"),
        "{out}"
    );
    assert!(!output.status.success(), "{out}");
    // Without an error, the end of input ends the lobby well.
    let output = tokio::time::timeout(
        kingme_testkit::patience::REPLY,
        kingme(&format!("--plain --server {address} --guest"), ""),
    )
    .await
    .expect("kingme --plain </dev/null waits forever");
    assert!(output.status.success(), "{}", text(&output));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_mode_plays_a_short_checkers_game_against_a_bot() {
    let server = server().await;
    let address = server.addr().to_string();
    // Three men a side; "1" always plays the first legal move, so the game ends by the rules
    // (a side without moves, or the forty-move rule) well within the lines given.
    let script = format!("11-99\nresign please\n{}", "1\n".repeat(200));
    let output = kingme(
        &format!("--plain --server {address} play --game checkers --vs random --color black --position B:W21,22,25:B5,9,10"),
        &script,
    )
    .await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(
        out.contains("error: \"11-99\" is not") || out.contains("square 99"),
        "{out}"
    );
    assert!(
        out.contains("error: resign takes nothing after it"),
        "{out}"
    );
    assert!(out.contains("Black played"), "{out}");
    assert!(out.contains("White played"), "{out}");
    assert!(out.contains(" wins") || out.contains("Drawn"), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_start_position_fails_with_the_reason() {
    let output = kingme(
        "--plain --server 127.0.0.1:9 play --game checkers --position B:W1,1:B5",
        "",
    )
    .await;
    assert!(!output.status.success());
    let out = text(&output);
    assert!(out.contains("square 1 is listed twice"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_server_starts_plays_and_shuts_down() {
    let output = kingme(
        "--plain --name ada play --game tictactoe --vs random",
        &noughts_and_crosses_script(),
    )
    .await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("game 1: tictactoe"), "{out}");
    assert!(finished(&out), "{out}");
    assert!(!out.contains("panicked"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_mid_game_leaves_cleanly() {
    let server = server().await;
    let address = server.addr().to_string();
    let output = kingme(
        &format!("--plain --server {address} play --game pente --vs random"),
        "K10\nquit\n",
    )
    .await;
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("first player played K10"), "{out}");
    assert!(out.contains("the game waits for you"), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bot_clients_find_each_other_and_report_each_game() {
    let server = server().await;
    let address = server.addr().to_string();
    let bot =
        |level: &str| format!("bot --server {address} --level {level} --game tictactoe --games 2");
    let (random, beginner) = (bot("random"), bot("beginner"));
    let (first, second) = tokio::join!(kingme(&random, ""), kingme(&beginner, ""));
    for output in [&first, &second] {
        let out = text(output);
        assert!(output.status.success(), "{out}");
        let results: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(results.len(), 2, "{out}");
        for line in results {
            assert!(
                line.ends_with(": won") || line.ends_with(": lost") || line.ends_with(": drawn"),
                "{line}"
            );
        }
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_client_needs_a_server() {
    let output = kingme("bot --level random", "").await;
    assert!(!output.status.success());
    assert!(
        text(&output).contains("--server HOST:PORT"),
        "{}",
        text(&output)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_watches_a_bot_client_play_a_built_in_bot() {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
    let server = server().await;
    let address = server.addr().to_string();
    // The creator only watches: the built-in bot takes the second seat, the first stays open
    // until the bot client joins it. The watcher's input is empty: it watches to the end.
    let home = tempfile::tempdir().unwrap();
    let mut watcher = Command::new(KINGME)
        .env("KINGME_DATA_DIR", home.path())
        .env("KINGME_CONFIG_DIR", home.path())
        .args([
            "--plain",
            "--server",
            &address,
            "--name",
            "cy",
            "play",
            "--game",
            "tictactoe",
            "--vs",
            "random",
            "--color",
            "watch",
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(watcher.stdout.take().unwrap());
    let mut watched = String::new();
    // Start the bot client only once the game is open, so it joins this one.
    while !watched.contains("you are watching") {
        assert!(
            stdout.read_line(&mut watched).await.unwrap() > 0,
            "{watched}"
        );
    }
    let played = kingme(
        &format!("bot --server {address} --level beginner --game tictactoe --games 1"),
        "",
    )
    .await;
    stdout.read_to_string(&mut watched).await.unwrap();
    assert!(watcher.wait().await.unwrap().success(), "{watched}");
    let played = text(&played);
    assert!(watched.contains("X played"), "{watched}");
    assert!(finished(&watched), "{watched}");
    assert!(
        played.lines().any(|l| l.starts_with("game 1 tictactoe")),
        "{played}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_meet_through_the_plain_lobby() {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
    let server = server().await;
    let address = server.addr().to_string();
    // Ada opens a seat and waits; her moves are written at once and taken turn by turn.
    let home = tempfile::tempdir().unwrap();
    let mut ada = Command::new(KINGME)
        .env("KINGME_DATA_DIR", home.path())
        .env("KINGME_CONFIG_DIR", home.path())
        .args([
            "--plain",
            "--server",
            &address,
            "--name",
            "ada",
            "play",
            "--game",
            "tictactoe",
            "--vs",
            "human",
            "--color",
            "x",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut ada_in = ada.stdin.take().unwrap();
    ada_in
        .write_all(noughts_and_crosses_script().as_bytes())
        .await
        .unwrap();
    drop(ada_in);
    let mut ada_out = BufReader::new(ada.stdout.take().unwrap());
    let mut ada_text = String::new();
    while !ada_text.contains("waiting for an opponent") {
        assert!(
            ada_out.read_line(&mut ada_text).await.unwrap() > 0,
            "{ada_text}"
        );
    }
    // Bob finds the game in the lobby and joins it.
    let bob_script = format!("list\njoin 1\n{}", noughts_and_crosses_script());
    let bob = kingme(
        &format!("--plain --server {address} --name bob"),
        &bob_script,
    )
    .await;
    ada_out.read_to_string(&mut ada_text).await.unwrap();
    assert!(ada.wait().await.unwrap().success(), "{ada_text}");
    let bob = text(&bob);
    assert!(bob.contains("ada") && bob.contains("open seat"), "{bob}");
    assert!(bob.contains("you play O"), "{bob}");
    for out in [&ada_text, &bob] {
        assert!(out.contains("O played"), "{out}");
        assert!(finished(out), "{out}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_and_http_are_options_of_the_modes_where_they_work() {
    let help = |command: &'static str| async move {
        let output = kingme(command, "").await;
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let bot = help("bot --help").await;
    assert!(bot.contains("--level"), "{bot}");
    // (`--plaintext`, a way to connect, is another option.)
    assert!(
        !bot.contains("--plain ") && !bot.contains("--http "),
        "{bot}"
    );
    for command in ["play --help", "watch --help", "--help"] {
        let text = help(command).await;
        assert!(
            text.contains("--plain ") && text.contains("--http "),
            "{command}: {text}"
        );
    }
    let output = kingme("--plain bot --server 127.0.0.1:1", "").await;
    let out = text(&output);
    assert!(!output.status.success(), "{out}");
    assert!(
        out.contains("--plain and --http are options of kingme"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_that_is_no_record_is_refused_with_its_cause_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("passwd");
    std::fs::write(&file, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let output = kingme(&format!("import {}", file.display()), "").await;
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{err}");
    assert_eq!(err.matches("is not a square number").count(), 1, "{err}");
    assert!(err.starts_with("Error: "), "{err}");
}
