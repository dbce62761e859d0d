//! The real `kingme-server` binary on a temporary database, killed with SIGKILL in the middle of
//! two games and started again: every acknowledged move is still there, the clocks stand where
//! they stood, the bot plays on, and the players come back with their resume tokens and finish.
//! Also: names are protected by their secrets, and finished games can be listed and exported.
#![allow(clippy::unwrap_used)]

use futures::{SinkExt, StreamExt};
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, EndReason, ErrorKind, GameId, GameOptions, GameState, GameStatus,
    Opponent, PROTOCOL_VERSION, SeatChoice, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side, WinReason};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio_util::codec::Framed;

/// A guard against a hung server, not a measurement: nothing here should take a fraction of it.
const PATIENCE: Duration = Duration::from_secs(30);

/// The server binary on `db`, listening on a free port; returns it and its address.
async fn start_server(db: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kingme-server"))
        .args(["--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = tokio::time::timeout(PATIENCE, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some((_, rest)) = line.split_once("listening addr=") {
                return rest.split_whitespace().next().unwrap().to_owned();
            }
        }
        panic!("the server ended without listening");
    })
    .await
    .unwrap();
    // Keep reading its log so the pipe never fills.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

struct Client {
    frames: Framed<TcpStream, ClientCodec>,
}

impl Client {
    async fn connect(addr: &str) -> Client {
        let stream = TcpStream::connect(addr).await.unwrap();
        Client {
            frames: Framed::new(stream, ClientCodec::client()),
        }
    }

    async fn send(&mut self, message: ClientMessage) {
        self.frames.send(message).await.unwrap();
    }

    /// The next message that `pick` accepts; others are skipped.
    async fn expect<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
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

    /// Says hello; returns the resume token and the secret issued, if any.
    async fn hello(
        addr: &str,
        name: &str,
        resume: Option<String>,
        secret: Option<String>,
        guest: bool,
    ) -> (Client, String, Option<String>) {
        let mut client = Client::connect(addr).await;
        client
            .send(ClientMessage::Hello {
                protocol_version: PROTOCOL_VERSION,
                name: name.to_owned(),
                resume,
                secret,
                guest,
            })
            .await;
        let (token, secret) = client
            .expect(|message| match message {
                ServerMessage::Welcome {
                    resume_token,
                    secret,
                    ..
                } => Some((resume_token, secret)),
                _ => None,
            })
            .await;
        (client, token, secret)
    }

    /// A hello the server must refuse; returns the error.
    async fn refused_hello(addr: &str, name: &str, secret: Option<String>, guest: bool) -> String {
        let mut client = Client::connect(addr).await;
        client
            .send(ClientMessage::Hello {
                protocol_version: PROTOCOL_VERSION,
                name: name.to_owned(),
                resume: None,
                secret,
                guest,
            })
            .await;
        let message = tokio::time::timeout(PATIENCE, client.frames.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        match message {
            ServerMessage::Error {
                kind: ErrorKind::Unauthorized,
                message,
                fatal: true,
            } => message,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    async fn state(&mut self, game: GameId) -> GameState {
        self.expect(|message| match message {
            ServerMessage::State(state) if state.id == game => Some(state),
            _ => None,
        })
        .await
    }

    /// Plays a move and waits until the server announces it: then it is acknowledged.
    async fn play(&mut self, game: GameId, text: &str) -> ServerMessage {
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
    async fn move_played(&mut self, game: GameId, ply: u32) -> String {
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

fn options(opponent: Opponent, time_control: TimeControl, rated: bool) -> GameOptions {
    GameOptions {
        kind: GameKind::TicTacToe,
        seat: SeatChoice::Side(Side::First),
        opponent,
        time_control,
        start_position: None,
        pente_tournament_rule: true,
        rated,
    }
}

#[tokio::test]
async fn games_survive_a_kill_and_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kingme.db");
    let (mut server, addr) = start_server(&db).await;

    let (mut alice, alice_token, alice_secret) =
        Client::hello(&addr, "alice", None, None, false).await;
    let alice_secret = alice_secret.expect("a new name is issued a secret");
    let (mut bob, bob_token, bob_secret) = Client::hello(&addr, "bob", None, None, true).await;
    assert_eq!(bob_secret, None, "guests get no secret");

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
    let (mut server, addr) = start_server(&db).await;

    let (mut alice, _, _) = Client::hello(&addr, "alice", Some(alice_token), None, false).await;
    let (mut bob, _, _) = Client::hello(&addr, "bob", Some(bob_token), None, true).await;
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

    // Impersonation: alice's name without her secret, with a wrong one, or as a guest.
    let refusal = Client::refused_hello(&addr, "alice", None, false).await;
    assert!(refusal.contains("registered"), "{refusal}");
    let wrong = Client::refused_hello(&addr, "alice", Some("0".repeat(64)), false).await;
    assert!(wrong.contains("not the one issued"), "{wrong}");
    Client::refused_hello(&addr, "alice", None, true).await;
    // With the secret she is welcome, and no new secret is issued.
    let (_, _, issued) = Client::hello(&addr, "alice", None, Some(alice_secret), false).await;
    assert_eq!(issued, None);

    server.start_kill().unwrap();
    server.wait().await.unwrap();
}
