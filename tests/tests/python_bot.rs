//! PROTOCOL.md's Python bot ("Write a bot in 60 lines"), taken from the page and run against the
//! real server's WebSocket door over TLS (`wss://`, the server's certificate pinned by its
//! fingerprint): as a guest it joins a terminal player's open seat and both play to the end; as
//! a person with a key file made by Rust (PKCS#8 PEM, as kingme keeps keys) it opens a game of
//! checkers against a bot and plays it out, and its name is then bound to its key on the TCP
//! door too.
//!
//! The relay attack of issue 29 as a regression: a relay with a certificate of its own that
//! passes the bot's text frames verbatim to the real server (and the server's back) does not get
//! the bot admitted as a person, because the bot's proof names the relay's certificate; the same
//! bot with the same key is admitted directly.
//!
//! Behind the `python-bot` feature: `cargo test -p kingme-tests --features python-bot`. It needs
//! python3 with the `websockets` and `cryptography` packages; `KINGME_PYTHON` names the
//! interpreter (default `python3`). When the feature is on and they are missing, the test fails
//! saying so.

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]
use ed25519_dalek::pkcs8::EncodePrivateKey;
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use futures::{SinkExt, StreamExt};
use kingme_server::host::ServerTls;
use kingme_server::host::{Database, ServerHandle, TlsSettings};
use kingme_server::test_support::accept_tls;
use kingme_shared::GameKind;
use kingme_shared::identity::{ChannelBinding, SigningKey};
use kingme_shared::protocol::{ErrorKind, ServerMessage};
use kingme_testkit::link::{Link, Wire};
use kingme_testkit::{Client, open_game, patience, start_web_server, test_config};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Output;
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

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

/// Runs the bot with `args` until it exits (at most [`patience::BOT`]).
async fn run_bot(script: &Path, args: &[&str]) -> Output {
    let child = tokio::process::Command::new(python())
        .arg(script)
        .args(args)
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(patience::BOT, child)
        .await
        .expect("the bot finishes its game in time")
        .expect("python runs")
}

/// Checks python, writes the bot into a new folder and starts a server with its web door; the
/// folder (removed when dropped), the bot's path and the server.
async fn bot_and_server() -> (tempfile::TempDir, PathBuf, ServerHandle) {
    check_python();
    let folder = tempfile::tempdir().unwrap();
    let script = folder.path().join("bot.py");
    std::fs::write(&script, bot_source()).unwrap();
    (folder, script, start_web_server(test_config()).await)
}

/// The URL of `server`'s WebSocket door and its certificate's fingerprint, as the bot takes
/// them (the fingerprint is what `kingme-server` prints at start).
fn door(server: &ServerHandle) -> (String, String) {
    let tls = server.tls();
    let binding = tls.binding(tls.current().as_deref());
    assert!(matches!(binding, ChannelBinding::TlsServerEndPoint(_)));
    let url = format!("wss://{}/ws", server.http_addr().unwrap());
    (url, binding.to_string())
}

/// Writes `key` as kingme keeps a key (PKCS#8 PEM) into `folder`, named `name.pem`.
fn key_file(folder: &Path, name: &str, key: &SigningKey) -> PathBuf {
    let pem = key.to_pkcs8_pem(LineEnding::LF).unwrap();
    let path = folder.join(format!("{name}.pem"));
    std::fs::write(&path, pem.as_bytes()).unwrap();
    path
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
    let (folder, script, server) = bot_and_server().await;
    let (url, fingerprint) = door(&server);

    // A guest joins the open seat of a terminal player's game; both play it out.
    let mut ada = Client::hello(server.addr(), "ada").await;
    let created = ada.create(open_game(GameKind::TicTacToe)).await;
    let bot = tokio::spawn({
        let script = script.clone();
        let (url, fingerprint) = (url.clone(), fingerprint.clone());
        async move { run_bot(&script, &[&url, "pybot", "TicTacToe", "-", &fingerprint]).await }
    });
    let result = loop {
        match ada.turn_or_end(created.id).await {
            Ok(legal) => ada.send_move(created.id, &legal[0]).await,
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
    let key = key_file(
        folder.path(),
        "pyperson",
        &SigningKey::from_bytes(&[42; 32]),
    );
    let output = run_bot(
        &script,
        &[
            &url,
            "pyperson",
            "Checkers",
            key.to_str().unwrap(),
            &fingerprint,
        ],
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

/// A relay M between the bot and the real server S: a WebSocket server over TLS with a
/// self-signed certificate of its own (it does not hold S's key), which opens a WebSocket to S
/// for every connection and passes text frames both ways verbatim, the hello, the challenge and
/// the proof among them.
struct Relay {
    url: String,
    fingerprint: String,
}

impl Relay {
    async fn start(server: SocketAddr) -> Relay {
        let tls = ServerTls::open(&TlsSettings::default(), &Database::InMemory).unwrap();
        let certified = tls.current().unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("wss://{}/ws", listener.local_addr().unwrap());
        let fingerprint = certified.binding.to_string();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let certified = std::sync::Arc::clone(&certified);
                tokio::spawn(async move {
                    let stream = accept_tls(&certified, stream).await.unwrap();
                    let bot = tokio_tungstenite::accept_async(stream).await.unwrap();
                    let Link::WebSocket(upstream, _) = Link::websocket(server, Wire::Tls).await
                    else {
                        unreachable!("a WebSocket link")
                    };
                    pass_text(bot, *upstream).await;
                });
            }
        });
        Relay { url, fingerprint }
    }
}

/// Passes text frames between `bot` and `server` until either side closes, then closes the other.
async fn pass_text<B, S>(
    bot: tokio_tungstenite::WebSocketStream<B>,
    server: tokio_tungstenite::WebSocketStream<S>,
) where
    B: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let (mut to_bot, mut from_bot) = bot.split();
    let (mut to_server, mut from_server) = server.split();
    let up = async {
        while let Some(Ok(frame)) = from_bot.next().await {
            if frame.is_text() && to_server.send(frame).await.is_err() {
                return;
            }
        }
    };
    let down = async {
        while let Some(Ok(frame)) = from_server.next().await {
            if frame.is_text() && to_bot.send(frame).await.is_err() {
                return;
            }
        }
    };
    tokio::select! {
        () = up => {}
        () = down => {}
    }
    let _ = to_bot.send(Message::Close(None)).await;
    let _ = to_server.send(Message::Close(None)).await;
}

#[tokio::test]
async fn the_python_bot_is_refused_through_a_relay_and_admitted_directly() {
    let (folder, script, server) = bot_and_server().await;
    let (url, fingerprint) = door(&server);
    let relay = Relay::start(server.http_addr().unwrap()).await;
    assert_ne!(
        relay.fingerprint, fingerprint,
        "the relay has its own certificate"
    );
    let key = key_file(folder.path(), "pyada", &SigningKey::from_bytes(&[44; 32]));
    let key = key.to_str().unwrap();

    // The bot trusts the relay (the person chose to visit it) and signs in there as a person:
    // the relay passes the hello to the server, the server's challenge to the bot and the bot's
    // proof back, verbatim. The proof names the relay's certificate, and the server refuses it.
    let relayed = run_bot(
        &script,
        &[&relay.url, "pyada", "TicTacToe", key, &relay.fingerprint],
    )
    .await;
    let stdout = String::from_utf8_lossy(&relayed.stdout);
    let stderr = String::from_utf8_lossy(&relayed.stderr);
    assert!(
        !relayed.status.success()
            && !stdout.contains(" over: ")
            && stderr.contains("kingme refused")
            && stderr.contains("Unauthorized")
            && stderr.contains("another connection"),
        "the relayed bot was not refused for its proof: {}\nstdout: {stdout}\nstderr: {stderr}",
        relayed.status
    );

    // The same bot with the same key, straight to the server, is admitted and plays.
    let direct = run_bot(&script, &[&url, "pyada", "TicTacToe", key, &fingerprint]).await;
    assert_finished(&direct);

    // A pin that is not the server's certificate stops the bot before it says anything.
    let pinned_wrong = run_bot(
        &script,
        &[&url, "pyada", "TicTacToe", key, &relay.fingerprint],
    )
    .await;
    let stderr = String::from_utf8_lossy(&pinned_wrong.stderr);
    assert!(
        !pinned_wrong.status.success() && stderr.contains("is not the pinned"),
        "{stderr}"
    );
    server.shutdown().await;
}
