//! The connection task against a scripted server on real TCP: the hello, answering pings,
//! forwarding messages, and after a dropped connection reconnecting with the resume token.
//! (The end-to-end tests against the real server are in `tests/`.)

#![allow(clippy::unwrap_used)]

use futures::{SinkExt, StreamExt};
use kingme_client::event::{Event, LinkEvent};
use kingme_client::net::{Net, NetConfig};
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
    issue(conn, None).await;
}

/// A welcome, issuing a name secret if `secret` is given.
async fn issue(conn: &mut Framed<tokio::net::TcpStream, ServerCodec>, secret: Option<&str>) {
    let welcome = ServerMessage::Welcome {
        protocol_version: PROTOCOL_VERSION,
        player: PlayerId(1),
        resume_token: "secret".to_owned(),
        secret: secret.map(str::to_owned),
    };
    conn.send(welcome).await.unwrap();
}

async fn next_link(events: &mut mpsc::Receiver<Event>) -> LinkEvent {
    loop {
        match events.recv().await.unwrap() {
            Event::Link(link) => return link,
            _ => continue,
        }
    }
}

#[tokio::test]
async fn a_dropped_connection_is_resumed_with_the_token() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (events_tx, mut events) = mpsc::channel(16);
    let shutdown = CancellationToken::new();
    let dir = tempfile::tempdir().unwrap();
    let secrets = dir.path().join("secrets");
    let config = NetConfig {
        retry: Duration::ZERO,
        secrets: Some(secrets.clone()),
        ..NetConfig::new(address.clone(), "ada".to_owned())
    };
    let net = Net::spawn(config, events_tx, shutdown.clone());

    let mut first = accept(&listener).await;
    let hello = first.next().await.unwrap().unwrap();
    assert_eq!(
        hello,
        ClientMessage::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: "ada".to_owned(),
            resume: None,
            secret: None,
            guest: false,
        }
    );
    // The server registers the name: the client keeps its secret in the secrets file.
    issue(&mut first, Some("0123abcd")).await;
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
    let mut second = accept(&listener).await;
    let hello = second.next().await.unwrap().unwrap();
    assert!(
        matches!(&hello, ClientMessage::Hello { resume: Some(token), secret: Some(secret), .. }
            if token == "secret" && secret == "0123abcd"),
        "{hello:?}"
    );
    let book = kingme_client::secrets::SecretBook::load(&secrets).unwrap();
    assert_eq!(book.secret(&address, "ada"), Some("0123abcd"));
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
