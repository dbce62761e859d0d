//! The real `kingme-server` binary on a temporary database, killed with SIGKILL in the middle of
//! two games and started again: every acknowledged move is still there, the clocks stand where
//! they stood, the bot plays on, and the players come back (a person by proving their key, on
//! another port and address; a guest with its resume token) and finish. Also: a name belongs to
//! its key, a second client of a person takes over, and finished games can be listed and
//! exported.
//!
//! The scenario is shared: `postgres.rs` runs it on PostgreSQL (feature `postgres-tests`), and
//! uses its client and server helpers for two servers on one database.
#![allow(clippy::unwrap_used)]

use futures::{SinkExt, StreamExt};
use kingme_client::net::dial::{Security, ServerStream, dial};
use kingme_shared::ai::Level;
use kingme_shared::identity::{self, ChannelBinding, ProofScope, SigningKey};
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, EndReason, ErrorKind, GameId, GameOptions, GameState, GameStatus,
    Opponent, PROTOCOL_VERSION, SeatChoice, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side, WinReason};
use std::ffi::OsStr;
use tokio::process::{Child, Command};
use tokio_util::codec::Framed;

use crate::server_log::{PATIENCE, line_containing, spawn_logged};

/// The server binary on `db` with `server_args` (`--fsync`, say), listening on a free port;
/// returns it and its address.
pub async fn start_server(db: &OsStr, server_args: &[&str]) -> (Child, String) {
    let (child, mut lines) = spawn_logged(
        Command::new(env!("CARGO_BIN_EXE_kingme-server"))
            .args(["--listen", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(server_args)
            .env("NO_COLOR", "1"),
    );
    let line = line_containing(&mut lines, "listening addr=").await;
    let (_, rest) = line.split_once("listening addr=").unwrap();
    let addr = rest.split_whitespace().next().unwrap().to_owned();
    // Keep reading its log so the pipe never fills.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

pub struct Client {
    frames: Framed<ServerStream, ClientCodec>,
    binding: ChannelBinding,
}

impl Client {
    /// Connects over TLS as the kingme client does (trusting the server's certificate on first
    /// use, pinned for this connection only).
    pub async fn connect(addr: &str) -> Client {
        let security = Security::Tls {
            known_servers: None,
        };
        let dialed = dial(addr, &security).await.unwrap();
        Client {
            frames: Framed::new(dialed.stream, ClientCodec::client()),
            binding: dialed.binding,
        }
    }

    pub async fn send(&mut self, message: ClientMessage) {
        self.frames.send(message).await.unwrap();
    }

    /// The next message that `pick` accepts; others are skipped.
    pub async fn expect<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
        tokio::time::timeout(PATIENCE, async {
            loop {
                let message = self.frames.next().await.unwrap().unwrap();
                if let ServerMessage::Error { fatal: true, .. } = &message {
                    panic!("fatal error: {message:?}");
                }
                if let Some(found) = pick(message) {
                    return found;
                }
            }
        })
        .await
        .unwrap()
    }

    /// The next message, whatever it is.
    pub async fn next(&mut self) -> ServerMessage {
        tokio::time::timeout(PATIENCE, self.frames.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap()
    }

    /// Says hello as a guest; returns the resume token.
    pub async fn guest(addr: &str, name: &str, resume: Option<String>) -> (Client, String) {
        let mut client = Client::connect(addr).await;
        client.send(hello(name, None, resume)).await;
        let token = client
            .expect(|message| match message {
                ServerMessage::Welcome { resume_token, .. } => Some(resume_token),
                _ => None,
            })
            .await;
        (client, token)
    }

    /// Signs in as the person `name` with `key`; returns the server's answer to the proof (a
    /// `Welcome` or the refusal).
    pub async fn sign_in(addr: &str, name: &str, key: &SigningKey) -> (Client, ServerMessage) {
        let mut client = Client::connect(addr).await;
        client
            .send(hello(name, Some(key.verifying_key().to_bytes()), None))
            .await;
        let ServerMessage::Challenge { server_id, nonce } = client.next().await else {
            panic!("a person's hello is challenged");
        };
        let scope = ProofScope {
            server_id: &server_id,
            nonce: &nonce,
            binding: client.binding,
        };
        let signature = identity::sign_proof(key, scope, name);
        client.send(ClientMessage::Prove { signature }).await;
        let answer = client.next().await;
        (client, answer)
    }

    /// Signs in as the person `name` with `key`, who must be welcomed; returns the games the
    /// welcome names.
    pub async fn person(addr: &str, name: &str, key: &SigningKey) -> (Client, Vec<GameId>) {
        let (client, answer) = Client::sign_in(addr, name, key).await;
        match answer {
            ServerMessage::Welcome { games, .. } => (client, games),
            other => panic!("expected Welcome, got {other:?}"),
        }
    }

    /// A sign-in the server must refuse; returns the error.
    pub async fn refused(addr: &str, name: &str, key: &SigningKey) -> String {
        match Client::sign_in(addr, name, key).await.1 {
            ServerMessage::Error {
                kind: ErrorKind::Unauthorized,
                message,
                fatal: true,
            } => message,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    pub async fn state(&mut self, game: GameId) -> GameState {
        self.expect(|message| match message {
            ServerMessage::State(state) if state.id == game => Some(state),
            _ => None,
        })
        .await
    }

    /// Plays a move and waits until the server announces it: then it is acknowledged.
    pub async fn play(&mut self, game: GameId, text: &str) -> ServerMessage {
        self.send(ClientMessage::Move {
            game,
            text: text.to_owned(),
        })
        .await;
        self.expect(|message| match &message {
            ServerMessage::MovePlayed {
                game: g, record, ..
            } if *g == game && record.text == text => Some(message),
            ServerMessage::MoveRejected { reason, .. } => panic!("{text} rejected: {reason}"),
            _ => None,
        })
        .await
    }

    /// Waits for the announcement of move `ply` of `game`.
    pub async fn move_played(&mut self, game: GameId, ply: u32) -> String {
        self.expect(|message| match message {
            ServerMessage::MovePlayed {
                game: g,
                ply: p,
                record,
                ..
            } if g == game && p == ply => Some(record.text),
            _ => None,
        })
        .await
    }
}

pub fn hello(name: &str, public_key: Option<[u8; 32]>, resume: Option<String>) -> ClientMessage {
    ClientMessage::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: name.to_owned(),
        guest: public_key.is_none(),
        public_key,
        legacy_secret: None,
        resume,
    }
}

pub fn options(opponent: Opponent, time_control: TimeControl, rated: bool) -> GameOptions {
    GameOptions {
        spec: GameKind::TicTacToe.into(),
        seat: SeatChoice::Side(Side::First),
        opponent,
        time_control,
        start_position: None,
        rated,
    }
}

/// The first legal move in a game's `State` (by the rules, from its position).
pub fn first_legal(state: &GameState) -> String {
    let game = state.spec.start(Some(&state.position)).unwrap();
    game.legal_move_texts().into_iter().next().unwrap()
}

/// Two games, a kill, a restart on the same database `db` (a `--db` value), and play on.
pub async fn games_survive_a_kill_and_a_restart(db: &OsStr, server_args: &[&str]) {
    let (mut server, addr) = start_server(db, server_args).await;

    let alice_key = SigningKey::from_bytes(&[1; 32]);
    let (mut alice, games) = Client::person(&addr, "alice", &alice_key).await;
    assert_eq!(games, []);
    let (mut bob, bob_token) = Client::guest(&addr, "bob", None).await;

    // Game 1: alice (X) against bob (O), with clocks.
    let clocks = TimeControl::Incremental {
        initial_secs: 600,
        increment_secs: 2,
    };
    alice
        .send(ClientMessage::CreateGame(options(
            Opponent::OpenSeat,
            clocks,
            true,
        )))
        .await;
    let people = alice.state(GameId(1)).await.id;
    bob.send(ClientMessage::Join { game: people }).await;
    bob.state(people).await;
    alice.play(people, "5").await;
    bob.play(people, "1").await;
    let last = alice.play(people, "3").await;
    let ServerMessage::MovePlayed {
        clocks: clocks_before,
        ..
    } = last
    else {
        unreachable!()
    };
    // Game 2: alice (X) against a bot that answers at once.
    alice
        .send(ClientMessage::CreateGame(options(
            Opponent::Bot(Level::Random),
            TimeControl::Unlimited,
            true,
        )))
        .await;
    let bot_game = alice.state(GameId(2)).await.id;
    alice.play(bot_game, "5").await;
    let bot_reply = alice.move_played(bot_game, 2).await;

    // Killed outright: no chance to save anything more.
    server.start_kill().unwrap();
    server.wait().await.unwrap();
    drop((alice, bob));
    // Back on another port, and through another name for the same host: the key, not the
    // address or a token, says who alice is, and the welcome names her games.
    let (mut server, addr) = start_server(db, server_args).await;
    let by_name = addr.replace("127.0.0.1", "localhost");
    let (mut alice, mut games) = Client::person(&by_name, "alice", &alice_key).await;
    games.sort();
    assert_eq!(games, [GameId(1), GameId(2)]);
    let (mut bob, _) = Client::guest(&addr, "bob", Some(bob_token)).await;
    // Both games' states arrive, in either order.
    let mut states: Vec<GameState> = Vec::new();
    while states.len() < 2 {
        let state = alice
            .expect(|message| match message {
                ServerMessage::State(state) => Some(state),
                _ => None,
            })
            .await;
        states.retain(|known| known.id != state.id);
        states.push(state);
    }
    states.sort_by_key(|state| state.id);
    let resumed_bot = states.pop().unwrap();
    let resumed = states.pop().unwrap();
    assert_eq!((resumed.id, resumed_bot.id), (people, bot_game));
    let texts = |state: &GameState| -> Vec<String> {
        state.moves.iter().map(|mv| mv.text.clone()).collect()
    };
    assert_eq!(texts(&resumed), ["5", "1", "3"]);
    assert_eq!(resumed.status, GameStatus::Playing);
    assert_eq!(resumed.side_to_move, Side::Second);
    // X's clock was stopped after its move and stays exactly where it was; O's runs again
    // from where it stood, the downtime charged to nobody.
    assert_eq!(
        resumed.clocks.remaining_ms[0],
        clocks_before.remaining_ms[0]
    );
    assert_eq!(resumed.clocks.running, Some(Side::Second));
    assert!(resumed.clocks.remaining_ms[1] <= clocks_before.remaining_ms[1]);
    assert_eq!(texts(&resumed_bot), ["5".to_owned(), bot_reply]);

    // Play on and finish: O 2, X 7 completes the diagonal 3-5-7.
    bob.state(people).await;
    bob.play(people, "2").await;
    alice.play(people, "7").await;
    let result = alice
        .expect(|message| match message {
            ServerMessage::GameOver { game, result, .. } if game == people => Some(result),
            _ => None,
        })
        .await;
    assert_eq!(result.winner, Some(Side::First));
    assert_eq!(result.reason, EndReason::Win(WinReason::ThreeInARow));
    // The bot was seated again: it answers a new move.
    let free = ["1", "2", "3", "4", "6", "7", "8", "9"]
        .into_iter()
        .find(|square| **square != *texts(&resumed_bot)[1])
        .unwrap();
    alice.play(bot_game, free).await;
    alice.move_played(bot_game, 4).await;

    // The finished game is in the history and exports with every move.
    alice
        .send(ClientMessage::History {
            player: Some("bob".into()),
            kind: None,
        })
        .await;
    let history = alice
        .expect(|message| match message {
            ServerMessage::History { games } => Some(games),
            _ => None,
        })
        .await;
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].id, people);
    assert_eq!(history[0].players, ["alice", "bob (guest)"]);
    alice.send(ClientMessage::Export { game: people }).await;
    let record = alice
        .expect(|message| match message {
            ServerMessage::Record { record, .. } => Some(record),
            _ => None,
        })
        .await;
    assert_eq!(record.moves, ["5", "1", "3", "2", "7"]);

    // Impersonation: alice's name with another key, or as a guest.
    let mallory = SigningKey::from_bytes(&[2; 32]);
    let refusal = Client::refused(&addr, "alice", &mallory).await;
    let expected = format!(
        "the name \"alice\" belongs to another key (fingerprint {}); use --name to choose \
         another, or import alice's key",
        identity::fingerprint(&alice_key.verifying_key().to_bytes())
    );
    assert!(refusal.starts_with(&expected), "{refusal}");
    let mut posing = Client::connect(&addr).await;
    posing.send(hello("alice", None, None)).await;
    let posed = posing.next().await;
    assert!(
        matches!(&posed, ServerMessage::Error { kind: ErrorKind::Unauthorized, message, .. }
            if message.contains("registered person")),
        "{posed:?}"
    );
    // A second client of alice's takes over her session; the first is told why and closed.
    let (mut second, _) = Client::person(&addr, "alice", &alice_key).await;
    let told = tokio::time::timeout(PATIENCE, async {
        loop {
            if let ServerMessage::Error {
                message,
                fatal: true,
                ..
            } = alice.frames.next().await.unwrap().unwrap()
            {
                return message;
            }
        }
    })
    .await
    .unwrap();
    assert!(
        told.contains("another kingme signed in as \"alice\""),
        "{told}"
    );
    second.send(ClientMessage::Ping { nonce: 9 }).await;
    second
        .expect(|message| matches!(message, ServerMessage::Pong { nonce: 9 }).then_some(()))
        .await;

    server.start_kill().unwrap();
    server.wait().await.unwrap();
}
