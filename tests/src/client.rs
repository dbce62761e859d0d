//! A small protocol client over real TCP (or the WebSocket door: [`crate::link`]), used by every
//! end-to-end test and the load generator: it says hello, sends messages, and reads the server's
//! answering pings for itself.

use crate::link::{Link, Wire};
use bytes::BytesMut;
use kingme_shared::identity::{self, ChannelBinding, ProofScope, SigningKey};
use kingme_shared::protocol::{
    ClientMessage, ErrorKind, GameId, GameOptions, GameResult, GameState, PROTOCOL_VERSION,
    PlayerId, ServerMessage,
};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How long a test waits for a message before failing instead of hanging.
const PATIENCE: Duration = Duration::from_secs(120);

/// A connected client.
#[derive(Debug)]
pub struct Client {
    link: Link,
    /// The id and token from `Welcome` (zero and empty before the hello).
    pub player: PlayerId,
    pub token: String,
}

impl Client {
    /// Connects over TLS without saying hello.
    pub async fn connect(addr: SocketAddr) -> Client {
        Client::over(Link::tcp(addr, Wire::Tls).await)
    }

    /// Connects to a `--plaintext` server without saying hello.
    pub async fn connect_plaintext(addr: SocketAddr) -> Client {
        Client::over(Link::tcp(addr, Wire::Plaintext).await)
    }

    /// Opens a WebSocket (WSS) to the HTTP door at `addr` without saying hello.
    pub async fn connect_websocket(addr: SocketAddr) -> Client {
        Client::over(Link::websocket(addr, Wire::Tls).await)
    }

    /// A client over a link opened by the caller.
    #[must_use]
    pub fn over(link: Link) -> Client {
        Client {
            link,
            player: PlayerId(0),
            token: String::new(),
        }
    }

    /// What a person's proof on this connection signs.
    #[must_use]
    pub fn binding(&self) -> ChannelBinding {
        self.link.binding()
    }

    /// The connection itself (for tests that send what the protocol does not).
    pub fn link(&mut self) -> &mut Link {
        &mut self.link
    }

    /// Opens a WebSocket to the HTTP door at `addr` and says hello as the guest `name`.
    pub async fn websocket_guest(addr: SocketAddr, name: &str) -> Client {
        Client::connect_websocket(addr).await.guest(name).await
    }

    /// Connects and says hello as a guest named `name` (guests may share a name, so tests need
    /// not invent unique ones).
    pub async fn hello(addr: SocketAddr, name: &str) -> Client {
        Client::connect(addr).await.guest(name).await
    }

    /// Says hello on this connection as a guest named `name`; welcomed.
    pub async fn guest(mut self, name: &str) -> Client {
        self.send(ClientMessage::Hello {
            protocol_version: PROTOCOL_VERSION,
            name: name.to_owned(),
            public_key: None,
            legacy_secret: None,
            resume: None,
            guest: true,
        })
        .await;
        self.expect_welcome().await;
        self
    }

    /// Connects as the person `name` holding `key`: hello, the challenge signed, welcomed.
    pub async fn person(addr: SocketAddr, name: &str, key: &SigningKey) -> Client {
        let (client, answer) = Client::sign_in(addr, name, key).await;
        assert!(
            matches!(answer, ServerMessage::Welcome { .. }),
            "expected Welcome, got {answer:?}"
        );
        client
    }

    /// Connects as the person `name` holding `key` and answers the challenge; returns the
    /// server's answer to the proof (`Welcome`, or the refusal).
    pub async fn sign_in(
        addr: SocketAddr,
        name: &str,
        key: &SigningKey,
    ) -> (Client, ServerMessage) {
        Client::connect(addr).await.prove(name, key).await
    }

    /// Says hello on this connection as the person `name` holding `key` and answers the
    /// challenge; returns the server's answer to the proof (`Welcome`, or the refusal).
    pub async fn prove(self, name: &str, key: &SigningKey) -> (Client, ServerMessage) {
        let mut client = self;
        client
            .send(ClientMessage::Hello {
                protocol_version: PROTOCOL_VERSION,
                name: name.to_owned(),
                public_key: Some(key.verifying_key().to_bytes()),
                legacy_secret: None,
                resume: None,
                guest: false,
            })
            .await;
        let (server_id, nonce) = match client.recv().await {
            ServerMessage::Challenge { server_id, nonce } => (server_id, nonce),
            other => return (client, other),
        };
        client
            .send(ClientMessage::Prove {
                signature: identity::sign_proof(
                    key,
                    ProofScope {
                        server_id: &server_id,
                        nonce: &nonce,
                        binding: client.link.binding(),
                    },
                    name,
                ),
            })
            .await;
        let answer = client.recv().await;
        if let ServerMessage::Welcome {
            player,
            resume_token,
            ..
        } = &answer
        {
            client.player = *player;
            client.token = resume_token.clone();
        }
        (client, answer)
    }

    /// Connects and resumes a session with its token; the server's answer to the hello.
    pub async fn resume(addr: SocketAddr, token: &str) -> (Client, ServerMessage) {
        let mut client = Client::connect(addr).await;
        client
            .send(ClientMessage::Hello {
                protocol_version: PROTOCOL_VERSION,
                name: "ignored".to_owned(),
                public_key: None,
                legacy_secret: None,
                resume: Some(token.to_owned()),
                guest: true,
            })
            .await;
        let answer = client.recv().await;
        if let ServerMessage::Welcome {
            player,
            resume_token,
            ..
        } = &answer
        {
            client.player = *player;
            client.token = resume_token.clone();
        }
        (client, answer)
    }

    async fn expect_welcome(&mut self) {
        match self.recv().await {
            ServerMessage::Welcome {
                player,
                resume_token,
                ..
            } => {
                self.player = player;
                self.token = resume_token;
            }
            other => panic!("expected Welcome, got {other:?}"),
        }
    }

    /// Sends a message.
    pub async fn send(&mut self, message: ClientMessage) {
        self.link.send(message).await;
    }

    /// Writes raw bytes, bypassing the codec (for hostile-input tests).
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        let Link::Tcp(frames, _) = &mut self.link else {
            panic!("raw bytes go to the TCP door");
        };
        let stream = frames.get_mut();
        stream.write_all(bytes).await.expect("write raw bytes");
        stream.flush().await.expect("flush");
    }

    /// The next message, or `None` when the server closed the connection. Pings are answered
    /// and skipped.
    pub async fn next(&mut self) -> Option<ServerMessage> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.link.next())
                .await
                .expect("a message from the server in time")?;
            match message.expect("a well-formed message from the server") {
                ServerMessage::Ping { nonce } => self.send(ClientMessage::Pong { nonce }).await,
                message => return Some(message),
            }
        }
    }

    /// The next message; the connection must stay open.
    pub async fn recv(&mut self) -> ServerMessage {
        self.next().await.expect("the server closed the connection")
    }

    /// The next message without answering pings (for the idle-timeout test).
    pub async fn recv_raw(&mut self) -> Option<ServerMessage> {
        tokio::time::timeout(PATIENCE, self.link.next())
            .await
            .expect("a message from the server in time")
            .map(|message| message.expect("a well-formed message"))
    }

    /// Skips messages until `pick` accepts one. The wait is bounded as a whole, so answered
    /// pings cannot keep a test waiting forever for a message that never comes.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        let wait = async {
            loop {
                let message = self.recv().await;
                if let Some(picked) = pick(&message) {
                    return picked;
                }
            }
        };
        tokio::time::timeout(PATIENCE, wait)
            .await
            .expect("the awaited message in time")
    }

    /// Reads until the server closes the connection; every message read on the way.
    pub async fn until_closed(&mut self) -> Vec<ServerMessage> {
        let mut seen = Vec::new();
        while let Some(message) = self.next().await {
            seen.push(message);
        }
        seen
    }

    /// Whether the server closed the connection (reading raw bytes, so undecodable leftovers
    /// do not matter).
    pub async fn is_closed(&mut self) -> bool {
        let mut rest = BytesMut::new();
        let Link::Tcp(frames, _) = &mut self.link else {
            return self.next().await.is_none();
        };
        let stream = frames.get_mut();
        loop {
            match tokio::time::timeout(PATIENCE, stream.read_buf(&mut rest)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return true,
                Ok(Ok(_)) => {}
                Err(_) => return false,
            }
        }
    }

    /// Reads up to the fatal error and the close; the error's kind and message.
    pub async fn fatal_error(&mut self) -> (ErrorKind, String) {
        let seen = self.until_closed().await;
        seen.into_iter()
            .find_map(|message| match message {
                ServerMessage::Error {
                    kind,
                    message,
                    fatal: true,
                } => Some((kind, message)),
                _ => None,
            })
            .expect("a fatal error before the close")
    }

    /// The next `State`.
    pub async fn state(&mut self) -> GameState {
        self.until(|message| match message {
            ServerMessage::State(state) => Some(state.clone()),
            _ => None,
        })
        .await
    }

    /// Creates a game; its state as the server sent it.
    pub async fn create(&mut self, options: GameOptions) -> GameState {
        self.send(ClientMessage::CreateGame(options)).await;
        self.state().await
    }

    /// The legal moves of the next `YourTurn` in `game`.
    pub async fn your_turn(&mut self, game: GameId) -> Vec<String> {
        self.until(|message| match message {
            ServerMessage::YourTurn {
                game: id,
                legal_moves,
                ..
            } if *id == game => Some(legal_moves.clone()),
            _ => None,
        })
        .await
    }

    /// The legal moves of the next `YourTurn` in `game`, or its result if it ends first.
    pub async fn turn_or_end(&mut self, game: GameId) -> Result<Vec<String>, GameResult> {
        self.until(|message| match message {
            ServerMessage::YourTurn {
                game: id,
                legal_moves,
                ..
            } if *id == game => Some(Ok(legal_moves.clone())),
            ServerMessage::GameOver {
                game: id, result, ..
            } if *id == game => Some(Err(*result)),
            _ => None,
        })
        .await
    }

    /// Proposes a move.
    pub async fn play(&mut self, game: GameId, text: &str) {
        self.send(ClientMessage::Move {
            game,
            text: text.to_owned(),
        })
        .await;
    }

    /// The next `MovePlayed` in `game`: its ply and text.
    pub async fn move_played(&mut self, game: GameId) -> (u32, String) {
        self.until(|message| match message {
            ServerMessage::MovePlayed {
                game: id,
                ply,
                record,
                ..
            } if *id == game => Some((*ply, record.text.clone())),
            _ => None,
        })
        .await
    }

    /// The result of `game`, skipping everything before its `GameOver`.
    pub async fn game_over(&mut self, game: GameId) -> GameResult {
        self.until(|message| match message {
            ServerMessage::GameOver {
                game: id, result, ..
            } if *id == game => Some(*result),
            _ => None,
        })
        .await
    }

    /// The next error (fatal or not).
    pub async fn error(&mut self) -> (ErrorKind, String) {
        self.until(|message| match message {
            ServerMessage::Error { kind, message, .. } => Some((*kind, message.clone())),
            _ => None,
        })
        .await
    }
}
