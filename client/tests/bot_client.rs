//! `kingme bot` processes against a real server through what a server does to them: a kill and
//! a restart in the middle of a game and of a wait (the waiting bot's open game is closed at the
//! restart and it must find another; the playing bots finish without resigning), two bots racing
//! for one seat (the loser looks again), and fast random bots playing many short games beside
//! each other without tripping the server's message limit.

#![allow(clippy::unwrap_used)]

use futures::{SinkExt, StreamExt};
use kingme_server::{Config, Database, ServerHandle};
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, GameId, GameOptions, GameStatus, Opponent, PROTOCOL_VERSION,
    SeatChoice, ServerMessage, TimeControl,
};
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

const KINGME: &str = env!("CARGO_BIN_EXE_kingme");

/// What a bot says when it has a seat.
const SEATED: &[&str] = &["opened game", "joined game"];

/// A guard against a hung test, not a measurement.
const PATIENCE: Duration = Duration::from_secs(90);

/// A server in a runtime of its own, so that the test can kill it at once (every task dropped
/// mid-flight, as SIGKILL would) and start another on the same database and port.
struct Killable {
    runtime: Option<tokio::runtime::Runtime>,
    addr: SocketAddr,
}

impl Killable {
    fn start(addr: &str, config: Config) -> Killable {
        let addr = addr.to_owned();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            let handle = runtime
                .block_on(ServerHandle::start(addr.as_str(), config))
                .unwrap();
            let addr = handle.addr();
            // Never shut down cleanly: the handle is leaked with the runtime's tasks.
            std::mem::forget(handle);
            Killable {
                runtime: Some(runtime),
                addr,
            }
        })
        .join()
        .unwrap()
    }

    fn kill(mut self) -> SocketAddr {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
        self.addr
    }
}

impl Drop for Killable {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// A `kingme bot` process and the lines of its standard error, as they come.
struct BotProcess {
    child: Child,
    notes: mpsc::UnboundedReceiver<String>,
    _home: tempfile::TempDir,
}

impl BotProcess {
    fn start(addr: SocketAddr, name: &str, arguments: &str) -> BotProcess {
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
    async fn note(&mut self, words: &[&str]) -> GameId {
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
    async fn finish(mut self) -> (bool, String, String) {
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
async fn finished_well(bot: BotProcess, games: usize) -> Vec<String> {
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
struct Client {
    frames: Framed<TcpStream, ClientCodec>,
}

impl Client {
    async fn connect(addr: SocketAddr, name: &str) -> Client {
        let stream = TcpStream::connect(addr).await.unwrap();
        let mut client = Client {
            frames: Framed::new(stream, ClientCodec::client()),
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

    async fn send(&mut self, message: ClientMessage) {
        self.frames.send(message).await.unwrap();
    }

    /// Waits for the message `pick` takes, answering the server's keep-alive pings meanwhile
    /// (a slow machine may take longer than the idle timeout to produce it).
    async fn expect<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
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
    async fn game_started(&mut self, kind: GameKind) -> GameId {
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
    async fn attach_bot(&mut self, game: GameId) {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_survive_a_kill_and_a_restart_and_a_waiting_bot_finds_another_game() {
    let home = tempfile::tempdir().unwrap();
    let config = Config {
        database: Database::File(home.path().join("kingme.db")),
        ..Config::default()
    };
    let server = Killable::start("127.0.0.1:0", config.clone());
    let addr = server.addr;
    // One bot waits alone in an open game of noughts and crosses...
    let mut waiting = BotProcess::start(addr, "waiter", "--level random --game tictactoe");
    let open = waiting.note(&["opened game"]).await;
    // ... while two others play checkers, slowly enough (a beginner's game takes a fraction of
    // a second) that the server is killed in the middle of it.
    let checkers = "--level beginner --game checkers --move-delay-ms 150";
    let first = BotProcess::start(addr, "first", checkers);
    let second = BotProcess::start(addr, "second", checkers);
    // The two may each open a game at the same moment before one moves to the other's: the game
    // they play is the one the lobby shows as started, not the first one either bot opened.
    let mut watcher = Client::connect(addr, "watcher").await;
    let playing = watcher.game_started(GameKind::Checkers).await;
    assert_ne!(playing, open);
    watcher.send(ClientMessage::Watch { game: playing }).await;
    watcher
        .expect(|m| match m {
            ServerMessage::MovePlayed { .. } => Some(()),
            ServerMessage::State(state) if !state.moves.is_empty() => {
                assert_eq!(state.status, GameStatus::Playing, "over before the kill");
                Some(())
            }
            ServerMessage::Error { message, .. } => panic!("watching game {playing}: {message}"),
            _ => None,
        })
        .await;
    drop(watcher);
    // Killed mid-game and mid-wait, and started again on the same database and port.
    let addr = server.kill();
    let server = Killable::start(&addr.to_string(), config);
    // The waiting bot's game was closed at the restart: it opens another, which a new bot joins.
    let partner = BotProcess::start(addr, "partner", "--level random --game tictactoe");
    let (played, waited, partnered) = tokio::join!(
        async {
            let mut results = finished_well(first, 1).await;
            results.extend(finished_well(second, 1).await);
            results
        },
        finished_well(waiting, 1),
        finished_well(partner, 1),
    );
    for line in &played {
        assert!(line.starts_with(&format!("game {playing} ")), "{line}");
    }
    assert!(
        !waited[0].starts_with(&format!("game {open} ")),
        "{waited:?}"
    );
    assert_eq!(waited[0].split(':').next(), partnered[0].split(':').next());
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_racing_for_one_seat_both_end_up_playing() {
    let server = ServerHandle::start("127.0.0.1:0", Config::default())
        .await
        .unwrap();
    let addr = server.addr();
    let mut host = Client::connect(addr, "host").await;
    // One open seat, a built-in bot in the other; the host only watches.
    host.send(ClientMessage::CreateGame(GameOptions {
        spec: GameKind::TicTacToe.into(),
        seat: SeatChoice::Spectate,
        opponent: Opponent::Bot(Level::Random),
        time_control: TimeControl::Unlimited,
        start_position: None,
        rated: false,
    }))
    .await;
    host.expect(|m| matches!(m, ServerMessage::State(_)).then_some(()))
        .await;
    let arguments = "--level random --game tictactoe";
    let mut one = BotProcess::start(addr, "one", arguments);
    let mut two = BotProcess::start(addr, "two", arguments);
    // One of them gets the seat; the other is refused it (or finds it taken) and opens a game of
    // its own, where the host seats a built-in bot.
    let (a, b) = tokio::join!(one.note(SEATED), two.note(SEATED));
    for game in [a, b] {
        if game != GameId(1) {
            host.attach_bot(game).await;
        }
    }
    assert!(a == GameId(1) || b == GameId(1), "{a} {b}");
    let (one, two) = tokio::join!(finished_well(one, 1), finished_well(two, 1));
    assert_ne!(one, two);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fast_random_bots_playing_many_games_stay_inside_the_message_limit() {
    // The server's default limits; the games are as short and quick as games get.
    let server = ServerHandle::start("127.0.0.1:0", Config::default())
        .await
        .unwrap();
    let addr = server.addr();
    let arguments = "--level random --game tictactoe --games 30";
    let one = BotProcess::start(addr, "quick", arguments);
    let two = BotProcess::start(addr, "quicker", arguments);
    let (one, two) = tokio::join!(finished_well(one, 30), finished_well(two, 30));
    assert_eq!(one.len() + two.len(), 60);
    server.shutdown().await;
}
