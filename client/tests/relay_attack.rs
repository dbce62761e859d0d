//! The relay attack of issue 29, as a regression: a server M that a person connects to passes
//! the person's sign-in on, byte for byte, to another server S, hoping to be admitted there as
//! the person. M ends the person's TLS with a certificate of its own (it cannot present S's:
//! it does not hold S's key), so the real `kingme` client binds its proof to M's certificate,
//! and S, checking the proof against its own certificate, refuses it. A guest through the same
//! relay is let in, which shows the relay carries the protocol faithfully: only the proof's
//! binding stops the person.

#![allow(clippy::unwrap_used)]

mod common;

use common::{feed_and_wait, output_text as text};
use kingme_client::net::dial::{DialError, Security, dial};
use kingme_server::net::tls::ServerTls;
use kingme_server::{Config, Database, ServerHandle, TlsSettings};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use tokio::net::TcpListener;
use tokio::process::Command;

const KINGME: &str = env!("CARGO_BIN_EXE_kingme");

/// The relay M: accepts TLS on a port of its own with its own self-signed certificate, dials S
/// as a client would, and copies the bytes both ways, decoding nothing.
async fn start_relay(target: SocketAddr) -> SocketAddr {
    let own = ServerTls::open(&TlsSettings::default(), &Database::InMemory).unwrap();
    let certified = own.current().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let acceptor = certified.acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut victim) = acceptor.accept(stream).await else {
                    return;
                };
                let security = Security::Tls {
                    known_servers: None,
                };
                let Ok(server) = dial(&target.to_string(), &security).await else {
                    return;
                };
                let mut server = server.stream;
                let _ = tokio::io::copy_bidirectional(&mut victim, &mut server).await;
            });
        }
    });
    addr
}

/// `kingme --server ADDRESS --plain` with `args`, its files in `home`: lists the lobby and
/// quits; returns what it printed.
async fn visit(home: &Path, address: SocketAddr, args: &[&str]) -> String {
    let child = Command::new(KINGME)
        .args(["--server", &address.to_string(), "--plain"])
        .args(args)
        .env("NO_COLOR", "1")
        .env("KINGME_DATA_DIR", home)
        .env("KINGME_CONFIG_DIR", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    text(&feed_and_wait(child, "list\nquit\n").await)
}

#[tokio::test]
async fn a_relay_that_passes_a_sign_in_on_is_not_admitted_as_the_person() {
    let server = ServerHandle::start("127.0.0.1:0", Config::default())
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    // Ann signs in at the real server: her name is bound to her key there.
    let direct = visit(home.path(), server.addr(), &["--name", "ann"]).await;
    assert!(direct.contains("connected to the lobby"), "{direct}");
    let relay = start_relay(server.addr()).await;

    // Through the relay her proof names the relay's certificate, and the server refuses it.
    let relayed = visit(home.path(), relay, &["--name", "ann"]).await;
    assert!(
        relayed.contains(&format!("trusting {relay} on first use")),
        "{relayed}"
    );
    assert!(!relayed.contains("connected to the lobby"), "{relayed}");
    assert!(
        relayed.contains("signed for another connection"),
        "the refusal says why: {relayed}"
    );

    // A guest goes through the same relay: it passes the protocol faithfully.
    let guest = visit(home.path(), relay, &["--guest", "--name", "gus"]).await;
    assert!(guest.contains("connected to the lobby"), "{guest}");

    // And Ann, directly again, is still herself.
    let again = visit(home.path(), server.addr(), &["--name", "ann"]).await;
    assert!(again.contains("connected to the lobby"), "{again}");
    server.shutdown().await;
}

#[tokio::test]
async fn the_embedded_servers_own_certificate_is_the_only_one_its_client_trusts() {
    let server = ServerHandle::start("127.0.0.1:0", Config::default())
        .await
        .unwrap();
    let pinned = Security::Pinned(server.tls().current().unwrap().binding);
    assert!(dial(&server.addr().to_string(), &pinned).await.is_ok());
    // A relay shows another certificate: refused before a byte of the protocol.
    let relay = start_relay(server.addr()).await;
    let refused = dial(&relay.to_string(), &pinned).await.unwrap_err();
    assert!(matches!(refused, DialError::Refused(_)), "{refused}");
    server.shutdown().await;
}
