//! The limits of the configuration file read again on SIGHUP by the real `kingme-server`: a
//! lower rate limit holds for a connection already open and for a new one, a lower number of
//! games per player for the next game, the log says what changed, and a changed setting that
//! takes a restart is named as such.

use kingme_shared::protocol::{ClientMessage, ErrorKind, Opponent, ServerMessage, TimeControl};
use kingme_testkit::server_process::{LogLines, line_containing};
use kingme_testkit::{Client, tictactoe_options};
use std::path::Path;

/// Writes the configuration file `config` with the database in `dir` and `limits` (TOML lines).
fn write(config: &Path, dir: &Path, limits: &str) {
    let text = format!(
        "listen = \"127.0.0.1:0\"\ndb = {:?}\n{limits}",
        dir.join("kingme.db").display().to_string()
    );
    std::fs::write(config, text).unwrap();
}

/// Writes `limits` into the configuration file and sends the server `pid` a SIGHUP; the log's
/// line of what changed.
async fn reload(config: &Path, dir: &Path, limits: &str, pid: u32, log: &mut LogLines) -> String {
    write(config, dir, limits);
    crate::certificate_reload::hangup(pid);
    line_containing(log, "limits changed").await
}

/// Sends `count` requests at once; the fatal error they bring, if the connection is closed for
/// them, else `None` once each is answered.
async fn burst(client: &mut Client, count: usize) -> Option<(ErrorKind, String)> {
    for _ in 0..count {
        client.send(ClientMessage::ListGames).await;
    }
    let mut answered = 0;
    client
        .until(|message| match message {
            ServerMessage::GameList { .. } => {
                answered += 1;
                (answered == count).then_some(None)
            }
            ServerMessage::Error {
                kind,
                message,
                fatal: true,
            } => Some(Some((kind, message))),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn sighup_puts_the_files_new_limits_in_force_for_open_and_new_connections() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("kingme.toml");
    write(
        &config,
        dir.path(),
        "rate-burst = 200\nrate-per-second = 100\nmax-games-per-player = 4\ngrace-secs = 60\n",
    );
    let (mut server, mut log, addr) = crate::config_file::start_from(&config).await;
    let pid = server.id().unwrap();
    let mut ada = Client::connect(&addr).await.guest("ada").await;
    assert_eq!(burst(&mut ada, 20).await, None);

    // The host lowers the limits (and the grace, which takes a restart) and says SIGHUP.
    let lower = "rate-burst = 3\nrate-per-second = 1\nmax-games-per-player = 1\ngrace-secs = 7\n";
    let changed = reload(&config, dir.path(), lower, pid, &mut log).await;
    for said in [
        "max-games-per-player 4 -> 1",
        "rate-burst 200 -> 3",
        "rate-per-second 100 -> 1",
    ] {
        assert!(changed.contains(said), "{changed}");
    }
    assert!(!changed.contains("max-connections"), "{changed}");
    let restart = line_containing(&mut log, "only at a restart").await;
    assert!(restart.contains("keys=\"grace-secs\""), "{restart}");

    // The connection already open: the same burst is now a flood.
    let (kind, message) = burst(&mut ada, 20).await.expect("closed for the flood");
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(
        message.contains("more than 3 messages in a burst or 1 a second"),
        "{message}"
    );
    assert!(ada.is_closed().await);

    // A new connection: one game, not two, and the burst of three.
    let mut bob = Client::connect(&addr).await.guest("bob").await;
    let options = || tictactoe_options(Opponent::OpenSeat, TimeControl::Unlimited, false);
    bob.create(options()).await;
    bob.send(ClientMessage::CreateGame(options())).await;
    let (kind, message) = bob.error().await;
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(message.contains("in 1 open or running games"), "{message}");
    let (kind, _) = burst(&mut bob, 5).await.expect("closed for the flood");
    assert_eq!(kind, ErrorKind::LimitExceeded);

    // Raised again: a new connection's burst of twenty passes.
    let raised = "rate-burst = 50\nrate-per-second = 100\ngrace-secs = 7\n";
    let changed = reload(&config, dir.path(), raised, pid, &mut log).await;
    assert!(changed.contains("rate-burst 3 -> 50"), "{changed}");
    let mut cy = Client::connect(&addr).await.guest("cy").await;
    assert_eq!(burst(&mut cy, 20).await, None);
    server.kill().await.unwrap();
}

#[test]
fn every_live_key_is_a_key_of_the_file_and_in_the_hosting_guide() {
    let guide = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/hosting.md"),
    )
    .unwrap();
    let (_, table) = guide.split_once("### What SIGHUP re-reads").unwrap();
    for key in kingme_server::host::LIVE_KEYS {
        assert!(
            crate::config_file::every_key().contains(&key.to_owned()),
            "{key}"
        );
        assert!(table.contains(&format!("`{key}`")), "{key}");
    }
}
