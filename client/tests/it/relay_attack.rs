//! The relay attack of issue 29, as a regression: a server M that a person connects to passes
//! the person's sign-in on, byte for byte, to another server S, hoping to be admitted there as
//! the person. M ends the person's TLS with a certificate of its own (it cannot present S's:
//! it does not hold S's key), so the real `kingme` client binds its proof to M's certificate,
//! and S, checking the proof against its own certificate, refuses it. A guest through the same
//! relay is let in, which shows the relay carries the protocol faithfully: only the proof's
//! binding stops the person.

use crate::fixtures::run_kingme;
use kingme_client::net::dial::{DialError, Security, dial};
use kingme_server::host::ServerTls;
use kingme_server::host::{Config, Database, ServerHandle, TlsSettings, TlsSource};
use std::net::SocketAddr;
use std::path::Path;
use tokio::net::TcpListener;

/// The relay M: accepts TLS on a port of its own with its own self-signed certificate, dials S
/// as a client would, and copies the bytes both ways, decoding nothing.
async fn start_relay(target: SocketAddr) -> SocketAddr {
    let own = ServerTls::open(&TlsSettings::default(), &Database::InMemory).unwrap();
    let upstream = Security::Tls {
        known_servers: None,
    };
    start_forwarding(own, target, upstream).await
}

/// Accepts TLS with `own`'s certificate and copies the bytes to `target`, dialled with
/// `upstream`: a relay (TLS on to another server), or a reverse proxy that ends TLS in front of
/// a `--plaintext` server.
async fn start_forwarding(own: ServerTls, target: SocketAddr, upstream: Security) -> SocketAddr {
    let certified = own.current().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let acceptor = certified.acceptor.clone();
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let Ok(mut victim) = acceptor.accept(stream).await else {
                    return;
                };
                let Ok(server) = dial(&target.to_string(), &upstream).await else {
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
    let address = address.to_string();
    let mut all = vec!["--server", address.as_str(), "--plain"];
    all.extend_from_slice(args);
    run_kingme(home, &all, &[], "list\nquit\n").await
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

#[tokio::test]
async fn behind_a_proxy_that_ends_tls_the_server_checks_proofs_against_the_proxys_certificate() {
    // The proxy's certificate, in a PEM file the server is given with --proxy-cert.
    let files = tempfile::tempdir().unwrap();
    let (certificate, key) = kingme_server::host::self_signed_pem().unwrap();
    let (cert_file, key_file) = (
        files.path().join("proxy.crt"),
        files.path().join("proxy.key"),
    );
    std::fs::write(&cert_file, certificate).unwrap();
    std::fs::write(&key_file, key).unwrap();
    let proxied = |proxy_cert| Config {
        tls: TlsSettings {
            source: TlsSource::Plaintext,
            proxy_cert,
        },
        ..Config::default()
    };
    let server = ServerHandle::start("127.0.0.1:0", proxied(Some(cert_file.clone())))
        .await
        .unwrap();
    let proxy_tls = TlsSettings {
        source: TlsSource::Files {
            cert: cert_file.clone(),
            key: key_file.clone(),
        },
        proxy_cert: None,
    };
    let open_proxy = || ServerTls::open(&proxy_tls, &Database::InMemory).unwrap();
    let plain = Security::Plaintext { sign_in: true };
    let proxy = start_forwarding(open_proxy(), server.addr(), plain.clone()).await;
    let home = tempfile::tempdir().unwrap();
    let through = visit(home.path(), proxy, &["--name", "ann"]).await;
    assert!(through.contains("connected to the lobby"), "{through}");

    // The same proxy in front of a server not told of it: every sign-in is refused.
    let unaware = ServerHandle::start("127.0.0.1:0", proxied(None))
        .await
        .unwrap();
    let proxy = start_forwarding(open_proxy(), unaware.addr(), plain).await;
    let refused = visit(home.path(), proxy, &["--name", "bea"]).await;
    assert!(!refused.contains("connected to the lobby"), "{refused}");
    assert!(refused.contains("--proxy-cert"), "{refused}");
    server.shutdown().await;
    unaware.shutdown().await;
}
