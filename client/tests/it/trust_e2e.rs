//! Servers known by their certificates (issue 29), end to end with the real `kingme` binary
//! and the real server: first contact pins the certificate and says so, for `127.0.0.1` and
//! `localhost` alike; a changed certificate is refused with both fingerprints and the command
//! that accepts it, and `kingme trust` accepts it; a certificate from a CA the system trusts
//! (here a test CA given by `SSL_CERT_FILE`) is accepted without pinning; and over
//! `--plaintext` a person is not signed in without `--insecure`.

use crate::fixtures::run_kingme;
use kingme_server::host::{Config, ServerHandle, TlsSettings, TlsSource};
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// Runs `kingme ARGS` with its files in `home` and `env`, lists the lobby and quits; returns
/// what it printed.
async fn kingme(home: &Path, args: &[&str], env: &[(&str, &Path)]) -> String {
    run_kingme(home, args, env, "list\nquit\n").await
}

/// `kingme --server ADDRESS --plain --name ann` and `extra`.
async fn visit(home: &Path, address: &str, extra: &[&str]) -> String {
    let mut args = vec!["--server", address, "--plain", "--name", "ann"];
    args.extend_from_slice(extra);
    kingme(home, &args, &[]).await
}

fn known_servers(home: &Path) -> String {
    std::fs::read_to_string(home.join("known_servers")).unwrap_or_default()
}

/// Writes a new self-signed certificate and key for the loopback names to `dir`; returns
/// their paths.
fn self_signed(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let made =
        rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
    let (cert, key) = (
        dir.join(format!("{name}.crt")),
        dir.join(format!("{name}.key")),
    );
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
    (cert, key)
}

async fn server_with(source: TlsSource) -> ServerHandle {
    let config = Config {
        tls: TlsSettings {
            source,
            proxy_cert: None,
        },
        ..Config::default()
    };
    ServerHandle::start("127.0.0.1:0", config).await.unwrap()
}

fn fingerprint(server: &ServerHandle) -> String {
    server.tls().current().unwrap().binding.to_string()
}

#[tokio::test]
async fn first_contact_pins_a_changed_certificate_is_refused_and_trust_accepts_it() {
    let files = tempfile::tempdir().unwrap();
    let (cert, key) = self_signed(files.path(), "one");
    let server = server_with(TlsSource::Files {
        cert: cert.clone(),
        key: key.clone(),
    })
    .await;
    let first = fingerprint(&server);
    let home = tempfile::tempdir().unwrap();
    let address = server.addr().to_string();

    let seen = visit(home.path(), &address, &[]).await;
    assert!(seen.contains("connected to the lobby"), "{seen}");
    assert!(
        seen.contains(&format!(
            "trusting {address} on first use (certificate {first})"
        )),
        "{seen}"
    );
    assert!(known_servers(home.path()).contains(&format!("{address} {first}")));
    // The second time it is known: nothing to say.
    let again = visit(home.path(), &address, &[]).await;
    assert!(again.contains("connected to the lobby"), "{again}");
    assert!(!again.contains("trusting"), "{again}");
    // `localhost` is another address: pinned on its own first use.
    let port = server.addr().port();
    let by_name = visit(home.path(), &format!("localhost:{port}"), &[]).await;
    assert!(by_name.contains("connected to the lobby"), "{by_name}");
    assert!(by_name.contains(&format!("trusting localhost:{port} on first use")));

    // The host replaces the certificate (the files, then SIGHUP's reload).
    let (new_cert, new_key) = self_signed(files.path(), "two");
    std::fs::copy(&new_cert, &cert).unwrap();
    std::fs::copy(&new_key, &key).unwrap();
    server.tls().reload().unwrap();
    let second = fingerprint(&server);
    assert_ne!(first, second);
    let refused = visit(home.path(), &address, &[]).await;
    assert!(!refused.contains("connected to the lobby"), "{refused}");
    for part in [
        format!("the certificate of {address} changed"),
        first.clone(),
        second.clone(),
        format!("kingme trust {address}"),
    ] {
        assert!(refused.contains(&part), "{part:?} missing from: {refused}");
    }
    assert!(known_servers(home.path()).contains(&first), "the pin stays");

    // `kingme trust` with the wrong fingerprint pins nothing; with none, the new certificate.
    let wrong = kingme(
        home.path(),
        &["trust", &address, "--fingerprint", &first],
        &[],
    )
    .await;
    assert!(wrong.contains("nothing was pinned"), "{wrong}");
    let trusted = kingme(home.path(), &["trust", &address], &[]).await;
    assert!(
        trusted.contains(&format!(
            "now trusted with certificate {second} (was {first})"
        )),
        "{trusted}"
    );
    let back = visit(home.path(), &address, &[]).await;
    assert!(back.contains("connected to the lobby"), "{back}");
    assert!(known_servers(home.path()).contains(&format!("{address} {second}")));
    server.shutdown().await;
}

#[tokio::test]
async fn a_certificate_from_a_trusted_ca_is_accepted_without_pinning() {
    let files = tempfile::tempdir().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "kingme test CA");
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let ca_file = files.path().join("ca.pem");
    std::fs::write(&ca_file, ca.pem()).unwrap();
    let key = KeyPair::generate().unwrap();
    let params =
        CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
    let leaf = params.signed_by(&key, &ca).unwrap();
    let (cert, key_file) = (files.path().join("leaf.crt"), files.path().join("leaf.key"));
    // The chain: the server's certificate, then its CA's.
    std::fs::write(&cert, format!("{}{}", leaf.pem(), ca.pem())).unwrap();
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    let server = server_with(TlsSource::Files {
        cert,
        key: key_file,
    })
    .await;
    let home = tempfile::tempdir().unwrap();
    let address = server.addr().to_string();
    let args = ["--server", address.as_str(), "--plain", "--name", "ann"];
    let seen = kingme(home.path(), &args, &[("SSL_CERT_FILE", &ca_file)]).await;
    assert!(seen.contains("connected to the lobby"), "{seen}");
    assert!(!seen.contains("trusting"), "{seen}");
    assert!(!known_servers(home.path()).contains(&address));
    // Without the CA in the system's store the same certificate is pinned on first use.
    let other = tempfile::tempdir().unwrap();
    let pinned = kingme(
        other.path(),
        &args,
        &[("SSL_CERT_FILE", Path::new("/nonexistent"))],
    )
    .await;
    assert!(pinned.contains("trusting"), "{pinned}");
    server.shutdown().await;
}

#[tokio::test]
async fn over_plaintext_a_person_signs_in_only_with_insecure() {
    let server = server_with(TlsSource::Plaintext).await;
    let home = tempfile::tempdir().unwrap();
    let address: SocketAddr = server.addr();
    let address = address.to_string();
    let refused = visit(home.path(), &address, &["--plaintext"]).await;
    assert!(!refused.contains("connected to the lobby"), "{refused}");
    assert!(refused.contains("is not encrypted"), "{refused}");
    assert!(refused.contains("--insecure"), "{refused}");

    let insecure = visit(home.path(), &address, &["--plaintext", "--insecure"]).await;
    assert!(insecure.contains("connected to the lobby"), "{insecure}");
    assert!(insecure.contains("warning: signing in as ann without encryption"));

    let args = [
        "--server",
        &address,
        "--plain",
        "--name",
        "gus",
        "--plaintext",
        "--guest",
    ];
    let guest = kingme(home.path(), &args, &[]).await;
    assert!(guest.contains("connected to the lobby"), "{guest}");

    // Without --plaintext the client expects TLS, and says what to do.
    let tls = visit(home.path(), &address, &[]).await;
    assert!(tls.contains("does not speak TLS"), "{tls}");
    assert!(tls.contains("--plaintext"), "{tls}");
    server.shutdown().await;
}
