//! The connection task against a scripted server on real TCP (plaintext, signing in with
//! `--insecure`'s setting): the hello, answering pings,
//! forwarding messages, after a dropped connection signing in again with the same key, and a
//! guest whose resume token is no longer known starting afresh.
//! (The end-to-end tests against the real server are in `tests/`.)

use futures::{SinkExt, StreamExt};
use kingme_client::net::event::{Event, LinkEvent};
use kingme_client::net::{Net, NetConfig, Security};
use kingme_shared::identity::{self, ChannelBinding, ProofScope};
use kingme_shared::protocol::{
    ClientMessage, ErrorKind, PROTOCOL_VERSION, PlayerId, ServerCodec, ServerMessage,
};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_util::codec::Framed;
use tokio_util::sync::CancellationToken;

async fn accept(listener: &TcpListener) -> Framed<tokio::net::TcpStream, ServerCodec> {
    let (stream, _) = listener.accept().await.unwrap();
    Framed::new(stream, ServerCodec::server())
}

async fn welcome(conn: &mut Framed<tokio::net::TcpStream, ServerCodec>) {
    let welcome = ServerMessage::Welcome {
        protocol_version: PROTOCOL_VERSION,
        player: PlayerId(1),
        resume_token: String::new(),
        games: vec![],
    };
    conn.send(welcome).await.unwrap();
}

/// Reads a person's hello, challenges it and checks the proof; returns the hello.
async fn challenge(conn: &mut Framed<tokio::net::TcpStream, ServerCodec>) -> ClientMessage {
    let hello = conn.next().await.unwrap().unwrap();
    let ClientMessage::Hello {
        name,
        public_key: Some(public_key),
        ..
    } = &hello
    else {
        panic!("a person's hello carries a key: {hello:?}");
    };
    let nonce = [5_u8; 32];
    conn.send(ServerMessage::Challenge {
        server_id: "test-server".to_owned(),
        nonce,
    })
    .await
    .unwrap();
    let ClientMessage::Prove { signature } = conn.next().await.unwrap().unwrap() else {
        panic!("the challenge is answered by Prove");
    };
    // The scripted server speaks plaintext: the proof binds no certificate.
    let scope = ProofScope {
        server_id: "test-server",
        nonce: &nonce,
        binding: ChannelBinding::Unencrypted,
    };
    identity::verify_proof(public_key, scope, name, &signature).unwrap();
    hello
}

/// The next link event but notices (the warning of a sign-in without encryption).
async fn next_link(events: &mut mpsc::Receiver<Event>) -> LinkEvent {
    loop {
        match events.recv().await.unwrap() {
            Event::Link(LinkEvent::Notice { .. }) => continue,
            Event::Link(link) => return link,
            _ => continue,
        }
    }
}

#[tokio::test]
async fn a_dropped_connection_signs_in_again_with_the_same_key() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (events_tx, mut events) = mpsc::channel(16);
    let shutdown = CancellationToken::new();
    let dir = tempfile::tempdir().unwrap();
    let secrets = dir.path().join("secrets");
    let config = NetConfig {
        retry: Duration::ZERO,
        secrets: Some(secrets.clone()),
        keys: None,
        resume_tokens: None,
        security: Security::Plaintext { sign_in: true },
        ..NetConfig::new(address.clone(), "ada".to_owned())
    };
    let net = Net::spawn(config, events_tx, shutdown.clone());

    // A protocol-2 secret this client holds for the name goes along, to bind the key to it.
    kingme_client::local::secrets::SecretBook::remember(&secrets, &address, "ada", "0123abcd")
        .unwrap();
    let mut first = accept(&listener).await;
    let hello = challenge(&mut first).await;
    assert!(
        matches!(&hello, ClientMessage::Hello { protocol_version: PROTOCOL_VERSION, name,
            legacy_secret: Some(secret), resume: None, guest: false, .. }
            if name == "ada" && secret == "0123abcd"),
        "{hello:?}"
    );
    welcome(&mut first).await;
    assert_eq!(
        next_link(&mut events).await,
        LinkEvent::Connected { resumed: false }
    );

    // Pings are answered by the connection itself; other messages are forwarded.
    first.send(ServerMessage::Ping { nonce: 42 }).await.unwrap();
    assert_eq!(
        first.next().await.unwrap().unwrap(),
        ClientMessage::Pong { nonce: 42 }
    );
    net.outgoing.send(ClientMessage::ListGames).await.unwrap();
    assert_eq!(
        first.next().await.unwrap().unwrap(),
        ClientMessage::ListGames
    );
    first
        .send(ServerMessage::GameList { games: vec![] })
        .await
        .unwrap();
    assert!(matches!(
        events.recv().await.unwrap(),
        Event::Server(ServerMessage::GameList { .. })
    ));

    drop(first);
    assert!(matches!(
        next_link(&mut events).await,
        LinkEvent::Lost { .. }
    ));
    // Back with the same key: the identity, not a token, takes the seats back.
    let mut second = accept(&listener).await;
    let again = challenge(&mut second).await;
    let key_of = |hello: &ClientMessage| match hello {
        ClientMessage::Hello { public_key, .. } => *public_key,
        _ => None,
    };
    assert_eq!(key_of(&again), key_of(&hello));
    welcome(&mut second).await;
    assert_eq!(
        next_link(&mut events).await,
        LinkEvent::Connected { resumed: true }
    );

    // Closing sends what was queued first.
    net.outgoing.send(ClientMessage::ListGames).await.unwrap();
    net.close().await;
    assert_eq!(
        second.next().await.unwrap().unwrap(),
        ClientMessage::ListGames
    );
    assert!(second.next().await.is_none(), "the client hung up");
}

#[tokio::test]
async fn a_refused_hello_is_final_and_says_why() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (events_tx, mut events) = mpsc::channel(16);
    let net = Net::spawn(
        NetConfig {
            secrets: None,
            keys: None,
            resume_tokens: None,
            security: Security::Plaintext { sign_in: true },
            ..NetConfig::new(address, "ada".to_owned())
        },
        events_tx,
        CancellationToken::new(),
    );
    let mut conn = accept(&listener).await;
    conn.next().await.unwrap().unwrap();
    conn.send(ServerMessage::Error {
        kind: ErrorKind::VersionMismatch,
        message: "this server speaks protocol 2, the client 1".to_owned(),
        fatal: true,
    })
    .await
    .unwrap();
    assert_eq!(
        next_link(&mut events).await,
        LinkEvent::Closed {
            reason: "this server speaks protocol 2, the client 1".to_owned()
        }
    );
    net.close().await;
}

#[tokio::test]
async fn an_unreachable_server_is_reported_at_once() {
    // Bind and drop to get a port nobody listens on.
    let address = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap().to_string()
    };
    let (events_tx, mut events) = mpsc::channel(16);
    let net = Net::spawn(
        NetConfig {
            secrets: None,
            keys: None,
            resume_tokens: None,
            security: Security::Plaintext { sign_in: true },
            ..NetConfig::new(address.clone(), "ada".to_owned())
        },
        events_tx,
        CancellationToken::new(),
    );
    let LinkEvent::Closed { reason } = next_link(&mut events).await else {
        panic!("expected the connection to be given up");
    };
    assert!(
        reason.contains(&format!("cannot connect to {address}")),
        "{reason}"
    );
    net.close().await;
}

#[tokio::test]
async fn a_guest_whose_token_is_refused_starts_afresh() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (events_tx, mut events) = mpsc::channel(16);
    let shutdown = CancellationToken::new();
    let config = NetConfig {
        retry: Duration::ZERO,
        guest: true,
        secrets: None,
        keys: None,
        resume_tokens: None,
        security: Security::Plaintext { sign_in: true },
        ..NetConfig::new(address.clone(), "guest-ada".to_owned())
    };
    let net = Net::spawn(config, events_tx, shutdown.clone());
    let resume_of = |hello: ClientMessage| match hello {
        ClientMessage::Hello {
            resume,
            guest: true,
            public_key: None,
            ..
        } => resume,
        other => panic!("not a guest's hello: {other:?}"),
    };

    let mut first = accept(&listener).await;
    assert_eq!(resume_of(first.next().await.unwrap().unwrap()), None);
    let welcome_with = |token: &str| ServerMessage::Welcome {
        protocol_version: PROTOCOL_VERSION,
        player: PlayerId(2),
        resume_token: token.to_owned(),
        games: vec![],
    };
    first.send(welcome_with("token-1")).await.unwrap();
    assert_eq!(
        next_link(&mut events).await,
        LinkEvent::Connected { resumed: false }
    );
    drop(first);
    assert!(matches!(
        next_link(&mut events).await,
        LinkEvent::Lost { .. }
    ));

    // The token comes back; the server no longer knows it.
    let mut second = accept(&listener).await;
    assert_eq!(
        resume_of(second.next().await.unwrap().unwrap()),
        Some("token-1".to_owned())
    );
    second
        .send(ServerMessage::Error {
            kind: ErrorKind::Unauthorized,
            message: "that resume token is unknown".to_owned(),
            fatal: true,
        })
        .await
        .unwrap();
    // A new connection without the token, welcomed as a guest again (a client that gave up
    // instead would never connect: the guard fails the test rather than hang).
    let mut third = tokio::time::timeout(Duration::from_secs(10), accept(&listener))
        .await
        .expect("the guest came back on a new connection");
    assert_eq!(resume_of(third.next().await.unwrap().unwrap()), None);
    third.send(welcome_with("token-2")).await.unwrap();
    assert_eq!(
        next_link(&mut events).await,
        LinkEvent::Connected { resumed: true }
    );
    net.close().await;
}

/// The next link event but the notices (the plaintext sign-in warning).
async fn link_past_notices(events: &mut mpsc::Receiver<Event>) -> LinkEvent {
    loop {
        match next_link(events).await {
            LinkEvent::Notice { .. } => continue,
            link => return link,
        }
    }
}

#[tokio::test]
async fn a_server_shutting_down_is_signed_in_to_again_once_it_is_back() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (events_tx, mut events) = mpsc::channel(16);
    let config = NetConfig {
        retry: Duration::ZERO,
        secrets: None,
        keys: None,
        resume_tokens: None,
        security: Security::Plaintext { sign_in: true },
        ..NetConfig::new(address, "ada".to_owned())
    };
    let net = Net::spawn(config, events_tx, CancellationToken::new());
    let script = async {
        let mut first = accept(&listener).await;
        challenge(&mut first).await;
        welcome(&mut first).await;
        assert_eq!(
            link_past_notices(&mut events).await,
            LinkEvent::Connected { resumed: false }
        );
        // A graceful shutdown: the games are kept, the server says so and goes.
        first
            .send(ServerMessage::ShuttingDown {
                message: "your games are kept".to_owned(),
            })
            .await
            .unwrap();
        drop(first);
        assert!(
            matches!(link_past_notices(&mut events).await, LinkEvent::Lost { .. }),
            "a shutdown is a lost connection, not the end"
        );
        // Still going down when the client comes back: it tries again.
        let mut second = accept(&listener).await;
        second.next().await.unwrap().unwrap();
        second
            .send(ServerMessage::Error {
                kind: ErrorKind::ShuttingDown,
                message: "the server is shutting down".to_owned(),
                fatal: true,
            })
            .await
            .unwrap();
        drop(second);
        assert!(matches!(
            link_past_notices(&mut events).await,
            LinkEvent::Lost { .. }
        ));
        // Back: the same key signs in again.
        let mut third = accept(&listener).await;
        challenge(&mut third).await;
        welcome(&mut third).await;
        assert_eq!(
            link_past_notices(&mut events).await,
            LinkEvent::Connected { resumed: true }
        );
    };
    tokio::time::timeout(Duration::from_secs(20), script)
        .await
        .expect("the client came back within the time");
    net.close().await;
}
