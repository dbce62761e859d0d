//! The real `kingme-server` binary with the host's certificate files (`--tls-cert`,
//! `--tls-key`): SIGHUP reads renewed files again, new connections get the new certificate,
//! and the games in progress go on over the connections they had. A broken file at SIGHUP is
//! logged and the certificate in use kept.

use crate::SERVER;
use kingme_shared::identity::{ChannelBinding, SigningKey};
use kingme_shared::protocol::{ClientMessage, GameId, Opponent, TimeControl};
use kingme_testkit::link::{Wire, dial};
use kingme_testkit::server_process::{line_containing, listening_address, spawn_logged};
use kingme_testkit::{Client, tictactoe_options};
use std::path::Path;
use tokio::process::Command;

/// Writes a new self-signed certificate and its key to `cert` and `key`; returns its binding.
fn renew(cert: &Path, key: &Path) -> ChannelBinding {
    let made =
        rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
    std::fs::write(cert, made.cert.pem()).unwrap();
    std::fs::write(key, made.signing_key.serialize_pem()).unwrap();
    ChannelBinding::of_certificate(made.cert.der())
}

/// The certificate a new connection to `addr` is shown.
async fn shown(addr: &str) -> ChannelBinding {
    dial(addr, Wire::Tls).await.binding
}

/// Sends the process `pid` a SIGHUP.
pub(crate) fn hangup(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-HUP", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn sighup_reloads_a_renewed_certificate_without_dropping_games() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = (dir.path().join("server.crt"), dir.path().join("server.key"));
    let first = renew(&cert, &key);
    let (server, mut log) = spawn_logged(
        Command::new(SERVER)
            .args(["--listen", "127.0.0.1:0", "--db"])
            .arg(dir.path().join("kingme.db"))
            .arg("--tls-cert")
            .arg(&cert)
            .arg("--tls-key")
            .arg(&key)
            .env("NO_COLOR", "1"),
    );
    let pid = server.id().unwrap();
    let addr = listening_address(&line_containing(&mut log, "listening addr=").await);
    assert_eq!(shown(&addr).await, first);

    // A game in progress between two people.
    let mut alice = Client::person(&addr, "alice", &SigningKey::from_bytes(&[1; 32])).await;
    let mut bob = Client::person(&addr, "bob", &SigningKey::from_bytes(&[2; 32])).await;
    let open = tictactoe_options(Opponent::OpenSeat, TimeControl::Unlimited, false);
    alice.send(ClientMessage::CreateGame(open)).await;
    let game = alice.state_of(GameId(1)).await.id;
    bob.send(ClientMessage::Join { game }).await;
    bob.state_of(game).await;
    alice.play(game, "5").await;

    // The host renews the certificate and tells the server.
    let second = renew(&cert, &key);
    assert_ne!(first, second);
    hangup(pid);
    line_containing(&mut log, "certificate reloaded").await;
    assert_eq!(shown(&addr).await, second);
    // The game goes on over the connections made with the old certificate.
    bob.play(game, "1").await;
    alice.move_at(game, 2).await;
    // A person signing in anew proves against the new certificate.
    let carol = Client::person(&addr, "carol", &SigningKey::from_bytes(&[3; 32])).await;
    assert!(carol.games.is_empty());

    // A broken key file at the next SIGHUP: said, and the certificate in use kept.
    std::fs::write(&key, "not a key").unwrap();
    hangup(pid);
    line_containing(&mut log, "certificate not reloaded").await;
    assert_eq!(shown(&addr).await, second);
    alice.play(game, "3").await;
}
