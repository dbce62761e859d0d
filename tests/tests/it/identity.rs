//! The identity handshake against the real server over TCP, with every bad input a client can
//! send in it: a malformed or weak key, a signature that is wrong, short, replayed from another
//! connection or never sent, a proof out of turn, a guest carrying a key. Each is a clear fatal
//! error that closes only that connection; a good proof on the next connection still works.

use kingme_shared::identity::{self, ProofScope, SigningKey};
use kingme_shared::protocol::{ClientMessage, ErrorKind, PROTOCOL_VERSION, ServerMessage};
use kingme_testkit::{Client, start_server, test_config};
use std::net::SocketAddr;
use std::time::Duration;

fn hello(name: &str, public_key: Option<[u8; 32]>, guest: bool) -> ClientMessage {
    ClientMessage::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: name.to_owned(),
        public_key,
        legacy_secret: None,
        resume: None,
        guest,
    }
}

/// Says a person's hello with `key`'s public key; returns the connection and its challenge.
async fn challenged(addr: SocketAddr, name: &str, key: &SigningKey) -> (Client, String, [u8; 32]) {
    let mut client = Client::connect(addr).await;
    client
        .send(hello(name, Some(key.verifying_key().to_bytes()), false))
        .await;
    match client.recv().await {
        ServerMessage::Challenge { server_id, nonce } => (client, server_id, nonce),
        other => panic!("expected a challenge, got {other:?}"),
    }
}

/// What a proof made on `client`'s connection for this challenge covers.
fn scope<'a>(client: &Client, server_id: &'a str, nonce: &'a [u8; 32]) -> ProofScope<'a> {
    ProofScope {
        server_id,
        nonce,
        binding: client.binding(),
    }
}

/// Sends `signature` as the proof; returns the fatal error that must follow.
async fn refused_proof(mut client: Client, signature: Vec<u8>) -> (ErrorKind, String) {
    client.send(ClientMessage::Prove { signature }).await;
    client.fatal_error().await
}

#[tokio::test]
async fn bad_proofs_are_refused_and_only_the_key_holder_gets_in() {
    let server = start_server(test_config()).await;
    let addr = server.addr();
    let ann = SigningKey::from_bytes(&[4; 32]);
    // A bystander's game goes on undisturbed by everything below.
    let mut bystander = Client::hello(addr, "bystander").await;

    // Signed by another key than the hello named.
    let (client, server_id, nonce) = challenged(addr, "ann", &ann).await;
    let other = SigningKey::from_bytes(&[5; 32]);
    let forged = identity::sign_proof(&other, scope(&client, &server_id, &nonce), "ann");
    let (kind, message) = refused_proof(client, forged).await;
    assert_eq!(kind, ErrorKind::Unauthorized);
    assert!(
        message.contains("does not hold the name's key"),
        "{message}"
    );

    // A signature of the wrong length, or none at all.
    for signature in [vec![], vec![0; 63], vec![0; 65]] {
        let (client, _, _) = challenged(addr, "ann", &ann).await;
        let (kind, message) = refused_proof(client, signature.clone()).await;
        assert_eq!(kind, ErrorKind::Unauthorized, "{} bytes", signature.len());
        assert!(message.contains("a signature is 64 bytes"), "{message}");
    }

    // An oversized one does not even fit in a client's frame.
    let (client, _, _) = challenged(addr, "ann", &ann).await;
    let (kind, message) = refused_proof(client, vec![0; 8192]).await;
    assert_eq!(kind, ErrorKind::Malformed);
    assert!(message.contains("frame"), "{message}");

    // Signed for the right name, but over another name's proof.
    let (client, server_id, nonce) = challenged(addr, "ann", &ann).await;
    let wrong_name = identity::sign_proof(&ann, scope(&client, &server_id, &nonce), "bob");
    assert_eq!(
        refused_proof(client, wrong_name).await.0,
        ErrorKind::Unauthorized
    );

    // A proof recorded on one connection and replayed on another: the nonce differs.
    let (first, server_id, nonce) = challenged(addr, "ann", &ann).await;
    let recorded = identity::sign_proof(&ann, scope(&first, &server_id, &nonce), "ann");
    drop(first);
    let (second, _, fresh) = challenged(addr, "ann", &ann).await;
    assert_ne!(fresh, nonce, "every challenge has a fresh nonce");
    assert_eq!(
        refused_proof(second, recorded).await.0,
        ErrorKind::Unauthorized
    );

    // A weak key (the identity point) and bytes that are no point on the curve.
    let mut identity_point = [0_u8; 32];
    identity_point[0] = 1;
    let mut not_a_point = [0_u8; 32];
    not_a_point[0] = 2;
    for key in [identity_point, not_a_point] {
        let mut client = Client::connect(addr).await;
        client.send(hello("ann", Some(key), false)).await;
        let (kind, message) = client.fatal_error().await;
        assert_eq!(kind, ErrorKind::Malformed, "{message}");
        assert!(message.contains("not a valid Ed25519 key"), "{message}");
    }

    // Something else instead of the proof.
    let (mut client, _, _) = challenged(addr, "ann", &ann).await;
    client.send(ClientMessage::ListGames).await;
    let (kind, message) = client.fatal_error().await;
    assert_eq!(kind, ErrorKind::HandshakeRequired);
    assert!(message.contains("must be Prove"), "{message}");

    // A person without a key, and a guest with one.
    let mut keyless = Client::connect(addr).await;
    keyless.send(hello("ann", None, false)).await;
    let (kind, message) = keyless.fatal_error().await;
    assert_eq!(kind, ErrorKind::Unauthorized);
    assert!(message.contains("needs a public key"), "{message}");
    let mut keyed_guest = Client::connect(addr).await;
    keyed_guest
        .send(hello("visitor", Some(ann.verifying_key().to_bytes()), true))
        .await;
    assert_eq!(keyed_guest.fatal_error().await.0, ErrorKind::Malformed);

    // After all that the name is still free, and the real key holder gets in.
    let welcomed = Client::person(addr, "ann", &ann).await;
    assert_ne!(welcomed.player, bystander.player);
    // A proof sent again once welcomed is refused but changes nothing.
    let mut welcomed = welcomed;
    welcomed
        .send(ClientMessage::Prove {
            signature: vec![0; 64],
        })
        .await;
    let (kind, message) = welcomed.error().await;
    assert_eq!(kind, ErrorKind::NotAllowed);
    assert!(message.contains("none is open"), "{message}");
    bystander.send(ClientMessage::Ping { nonce: 1 }).await;
    assert!(matches!(
        bystander.recv().await,
        ServerMessage::Pong { nonce: 1 }
    ));
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_challenge_left_unanswered_times_out() {
    let server = start_server(test_config()).await;
    let ann = SigningKey::from_bytes(&[6; 32]);
    let (mut client, _, _) = challenged(server.addr(), "ann", &ann).await;
    tokio::time::advance(Duration::from_secs(11)).await;
    let (kind, message) = client.fatal_error().await;
    assert_eq!(kind, ErrorKind::HandshakeRequired);
    assert!(message.contains("no Prove within 10 s"), "{message}");
    server.shutdown().await;
}
