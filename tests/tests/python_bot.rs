//! PROTOCOL.md's Python bot ("Write a bot in 40 lines"), taken from the page and run against the
//! real server's WebSocket door: as a guest it joins a terminal player's open seat and both play
//! to the end; as a person with a key file made by Rust (PKCS#8 PEM, as kingme keeps keys) it
//! opens a game of checkers against a bot and plays it out, and its name is then bound to its
//! key on the TCP door too.
//!
//! Behind the `python-bot` feature: `cargo test -p kingme-tests --features python-bot`. It needs
//! python3 with the `websockets` and `cryptography` packages; `KINGME_PYTHON` names the
//! interpreter (default `python3`). When the feature is on and they are missing, the test fails
//! saying so.

#![cfg(feature = "python-bot")]
#![allow(clippy::unwrap_used)]

use ed25519_dalek::pkcs8::EncodePrivateKey;
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use kingme_shared::GameKind;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::{ErrorKind, ServerMessage};
use kingme_tests::{Client, open_game, start_web_server, test_config};
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// The bot's source, exactly as PROTOCOL.md shows it.
fn bot_source() -> &'static str {
    let doc = include_str!("../../PROTOCOL.md");
    let start = doc
        .find("<!-- python bot -->")
        .expect("PROTOCOL.md has the bot");
    let block = &doc[start..];
    let code = &block[block.find("```python\n").expect("a python block") + "```python\n".len()..];
    &code[..code.find("```").expect("the block ends")]
}

fn python() -> String {
    std::env::var("KINGME_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Checks that the interpreter and both packages are there, failing loudly if not.
fn check_python() {
    let python = python();
    let found = std::process::Command::new(&python)
        .args(["-c", "import websockets, cryptography"])
        .output();
    let ok = found.as_ref().is_ok_and(|output| output.status.success());
    assert!(
        ok,
        "the python-bot feature runs PROTOCOL.md's bot with {python}, which needs the websockets \
         and cryptography packages (apt-get install python3-websockets python3-cryptography, then \
         KINGME_PYTHON=/usr/bin/python3; or pip install websockets cryptography): {found:?}"
    );
}

/// Runs the bot with `args` until it exits (at most two minutes).
async fn run_bot(script: &Path, args: &[&str]) -> Output {
    let child = tokio::process::Command::new(python())
        .arg(script)
        .args(args)
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(Duration::from_secs(120), child)
        .await
        .expect("the bot finishes its game in time")
        .expect("python runs")
}

fn assert_finished(output: &Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains(" over: "),
        "the bot failed: {}\nstdout: {stdout}\nstderr: {stderr}",
        output.status
    );
}

#[tokio::test]
async fn the_documented_python_bot_joins_a_game_and_plays_as_a_guest_and_as_a_person() {
    check_python();
    let folder = tempfile::tempdir().unwrap();
    let script = folder.path().join("bot.py");
    std::fs::write(&script, bot_source()).unwrap();
    let server = start_web_server(test_config()).await;
    let url = format!("ws://{}/ws", server.http_addr().unwrap());

    // A guest joins the open seat of a terminal player's game; both play it out.
    let mut ada = Client::hello(server.addr(), "ada").await;
    let created = ada.create(open_game(GameKind::TicTacToe)).await;
    let bot = tokio::spawn({
        let script = script.clone();
        let url = url.clone();
        async move { run_bot(&script, &[&url, "pybot", "TicTacToe"]).await }
    });
    let result = loop {
        match ada.turn_or_end(created.id).await {
            Ok(legal) => ada.play(created.id, &legal[0]).await,
            Err(result) => break result,
        }
    };
    let output = bot.await.unwrap();
    assert_finished(&output);
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains(&format!("game {} over", created.id)),
        "{said}"
    );
    assert!(
        said.contains(
            &serde_json::to_string(&result.winner)
                .unwrap()
                .replace(':', ": ")
        ),
        "the bot saw the result ada saw ({result:?}): {said}"
    );

    // A person with a key file opens a game of checkers against a bot.
    let key = SigningKey::from_bytes(&[42; 32]);
    let pem = key.to_pkcs8_pem(LineEnding::LF).unwrap();
    let key_file = folder.path().join("pyperson.pem");
    std::fs::write(&key_file, pem.as_bytes()).unwrap();
    let output = run_bot(
        &script,
        &[&url, "pyperson", "Checkers", key_file.to_str().unwrap()],
    )
    .await;
    assert_finished(&output);
    // The name is the key's now, whichever door: another key is refused.
    let other = SigningKey::from_bytes(&[43; 32]);
    let (_client, answer) = Client::sign_in(server.addr(), "pyperson", &other).await;
    assert!(
        matches!(
            answer,
            ServerMessage::Error {
                kind: ErrorKind::Unauthorized,
                ..
            }
        ),
        "{answer:?}"
    );
    server.shutdown().await;
}
