//! What the `kingme bot` tests share: a `kingme bot` process and the lines it says, the check
//! that a bot ended well, and a plain protocol client for the tests' own requests.

use futures::{SinkExt, StreamExt};
use kingme_client::net::dial::{Security, ServerStream, dial};
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, GameId, GameStatus, PROTOCOL_VERSION, ServerMessage,
};
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

const KINGME: &str = env!("CARGO_BIN_EXE_kingme");

/// What a bot says when it has a seat.
pub const SEATED: &[&str] = &["opened game", "joined game"];

/// A guard against a hung test, not a measurement.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// A `kingme bot` process and the lines of its standard error, as they come.
pub struct BotProcess {
    child: Child,
    notes: mpsc::UnboundedReceiver<String>,
    _home: tempfile::TempDir,
}

impl BotProcess {
    pub fn start(addr: SocketAddr, name: &str, arguments: &str) -> BotProcess {
        let home = tempfile::tempdir().unwrap();
        let mut child = Command::new(KINGME)
            .args(["bot", "--server", &addr.to_string(), "--name", name])
            .args(arguments.split_whitespace())
            .env("NO_COLOR", "1")
            .env("KINGME_DATA_DIR", home.path())
            .env("KINGME_CONFIG_DIR", home.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let (tx, notes) = mpsc::unbounded_channel();
        let who = name.to_owned();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                // Shown with the test's output when it fails.
                eprintln!("[{who}] {line}");
                let _ = tx.send(line);
            }
        });
        BotProcess {
            child,
            notes,
            _home: home,
        }
    }

    /// Waits for a line of standard error containing one of `words`; returns the game number
    /// that follows "game " in it.
    pub async fn note(&mut self, words: &[&str]) -> GameId {
        tokio::time::timeout(PATIENCE, async {
            loop {
                let line = self.notes.recv().await.expect("the bot ended");
                if words.iter().any(|w| line.contains(w)) {
                    let number = line
                        .split("game ")
                        .nth(1)
                        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                        .and_then(|digits| digits.parse().ok())
                        .unwrap();
                    return GameId(number);
                }
            }
        })
        .await
        .unwrap()
    }

    /// Waits for the process to end; returns its standard output and what else it said.
    pub async fn finish(mut self) -> (bool, String, String) {
        let mut out = String::new();
        let mut stdout = self.child.stdout.take().unwrap();
        let status = tokio::time::timeout(PATIENCE, async {
            stdout.read_to_string(&mut out).await.unwrap();
            self.child.wait().await.unwrap()
        })
        .await
        .expect("the bot did not finish");
        let mut notes = Vec::new();
        while let Ok(line) = self.notes.try_recv() {
            notes.push(line);
        }
        (status.success(), out, notes.join("\n"))
    }
}

/// Checks that a bot ended well, finished `games` games and resigned none; returns its results.
pub async fn finished_well(bot: BotProcess, games: usize) -> Vec<String> {
    let (success, out, notes) = bot.finish().await;
    let context = format!("{out}\n--- stderr ---\n{notes}");
    assert!(success, "{context}");
    let results: Vec<String> = out
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(str::to_owned)
        .collect();
    assert_eq!(results.len(), games, "{context}");
    for line in &results {
        assert!(!line.contains("resignation"), "a bot resigned: {context}");
        assert!(
            !line.contains("abandoned"),
            "a game was abandoned: {context}"
        );
    }
    assert!(!notes.contains("slow down"), "{context}");
    results
}

/// A plain protocol client for the test's own requests.
pub struct Client {
    frames: Framed<ServerStream, ClientCodec>,
}

impl Client {
    /// Connects over TLS (the certificate trusted on first use, for this connection only) and
    /// says hello as the guest `name`.
    pub async fn connect(addr: SocketAddr, name: &str) -> Client {
        let security = Security::Tls {
            known_servers: None,
        };
        let dialed = dial(&addr.to_string(), &security).await.unwrap();
        let mut client = Client {
            frames: Framed::new(dialed.stream, ClientCodec::client()),
        };
        client
            .send(ClientMessage::Hello {
                protocol_version: PROTOCOL_VERSION,
                name: name.to_owned(),
                resume: None,
                public_key: None,
                legacy_secret: None,
                guest: true,
            })
            .await;
        client
            .expect(|m| matches!(m, ServerMessage::Welcome { .. }).then_some(()))
            .await;
        client
    }

    pub async fn send(&mut self, message: ClientMessage) {
        self.frames.send(message).await.unwrap();
    }

    /// Waits for the message `pick` takes, answering the server's keep-alive pings meanwhile
    /// (a slow machine may take longer than the idle timeout to produce it).
    pub async fn expect<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
        tokio::time::timeout(PATIENCE, async {
            loop {
                let message = self.frames.next().await.unwrap().unwrap();
                if let ServerMessage::Ping { nonce } = message {
                    self.send(ClientMessage::Pong { nonce }).await;
                    continue;
                }
                if let Some(found) = pick(message) {
                    return found;
                }
            }
        })
        .await
        .unwrap()
    }

    /// The game of `kind` the lobby lists as started (playing, or already over: fast bots may
    /// finish a game in a moment), asking again until there is one.
    pub async fn game_started(&mut self, kind: GameKind) -> GameId {
        tokio::time::timeout(PATIENCE, async {
            loop {
                self.send(ClientMessage::ListGames).await;
                let games = self
                    .expect(|m| match m {
                        ServerMessage::GameList { games } => Some(games),
                        _ => None,
                    })
                    .await;
                if let Some(game) = games
                    .iter()
                    .find(|g| g.spec.kind() == kind && g.status != GameStatus::Open)
                {
                    return game.id;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
        .await
        .unwrap()
    }

    /// Seats a built-in random bot in the open seat of `game`.
    pub async fn attach_bot(&mut self, game: GameId) {
        self.send(ClientMessage::AttachBot {
            game,
            level: Level::Random,
        })
        .await;
        self.expect(|m| match m {
            ServerMessage::SeatChanged { game: g, .. } if g == game => Some(()),
            ServerMessage::Error { message, .. } => panic!("{message}"),
            _ => None,
        })
        .await;
    }
}
