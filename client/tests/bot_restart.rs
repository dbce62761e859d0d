//! `kingme bot` processes through what a server does to them: killed outright (SIGKILL) in the
//! middle of a game and of a wait, and started again on the same database and port. The waiting
//! bot's open game is closed at the restart and it must find another; the playing bots finish
//! their game without resigning.
//!
//! This file has its own `main` (`harness = false`): the test binary is also the server process
//! (started again with `KINGME_TEST_SERVER` set, it serves through `kingme_server`'s library),
//! because another package's binary cannot be named from here, and a server in a runtime of the
//! test's own is not killed the way a process is.
//!
//! Its own `main` is not a test target's, so `cfg(test)` does not hold here: it says `expect`
//! where the other test files may say `unwrap`.

use kingme_server::host::{Config, Database, ServerHandle};
use kingme_shared::GameKind;
use kingme_shared::protocol::{ClientMessage, GameStatus, ServerMessage};
use kingme_testkit::bot::{BotProcess, finished_well};
use kingme_testkit::{Client, patience};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The `kingme` binary the bots run.
const KINGME: &str = env!("CARGO_BIN_EXE_kingme");

/// Set in the environment of the server process, with the address to listen on.
const SERVER_ENV: &str = "KINGME_TEST_SERVER";

fn main() {
    if let Some(listen) = std::env::var_os(SERVER_ENV) {
        let database = std::env::args_os().nth(1).expect("the database's path");
        return serve(&listen.to_string_lossy(), Path::new(&database));
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(bots_survive_a_kill_and_a_restart_and_a_waiting_bot_finds_another_game());
    println!("test bots_survive_a_kill_and_a_restart_and_a_waiting_bot_finds_another_game ... ok");
}

/// The server process: listens on `listen` with the database file `database`, prints the
/// address it listens on, and serves until it is killed.
fn serve(listen: &str, database: &Path) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let config = Config {
            database: Database::File(database.to_owned()),
            ..Config::default()
        };
        let handle = ServerHandle::start(listen, config)
            .await
            .expect("the server starts");
        println!("listening {}", handle.addr());
        std::future::pending::<()>().await;
    });
}

/// A server in a process of its own, to be killed outright.
struct ServerProcess {
    child: Child,
    addr: SocketAddr,
}

impl ServerProcess {
    async fn start(listen: &str, database: &Path) -> ServerProcess {
        let mut child = Command::new(std::env::current_exe().expect("this test binary's path"))
            .arg(database)
            .env(SERVER_ENV, listen)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the server process starts");
        let stdout = child.stdout.take().expect("its output is piped");
        let mut lines = BufReader::new(stdout).lines();
        let line = tokio::time::timeout(patience::SERVER_LOG, lines.next_line())
            .await
            .expect("the server process listens in time")
            .expect("its output is text")
            .expect("the server process ended before it listened");
        let addr = line
            .strip_prefix("listening ")
            .and_then(|addr| addr.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        ServerProcess { child, addr }
    }

    /// Kills the process (SIGKILL) and waits for it; returns the address it listened on.
    async fn kill(mut self) -> SocketAddr {
        self.child
            .kill()
            .await
            .expect("the server process is killed");
        self.addr
    }
}

async fn bots_survive_a_kill_and_a_restart_and_a_waiting_bot_finds_another_game() {
    let home = tempfile::tempdir().expect("a temporary directory");
    let database = home.path().join("kingme.db");
    let server = ServerProcess::start("127.0.0.1:0", &database).await;
    let addr = server.addr;
    // One bot waits alone in an open game of noughts and crosses...
    let mut waiting = BotProcess::start(KINGME, addr, "waiter", "--level random --game tictactoe");
    let open = waiting.note(&["opened game"]).await;
    // ... while two others play checkers, slowly enough (a beginner's game takes a fraction of
    // a second) that the server is killed in the middle of it.
    let checkers = "--level beginner --game checkers --move-delay-ms 150";
    let first = BotProcess::start(KINGME, addr, "first", checkers);
    let second = BotProcess::start(KINGME, addr, "second", checkers);
    // The two may each open a game at the same moment before one moves to the other's: the game
    // they play is the one the lobby shows as started, not the first one either bot opened.
    let mut watcher = Client::hello(addr, "watcher").await;
    let playing = watcher.game_started(GameKind::Checkers).await;
    assert_ne!(playing, open);
    watcher.send(ClientMessage::Watch { game: playing }).await;
    watcher
        .until(|m| match m {
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
    let addr = server.kill().await;
    let server = ServerProcess::start(&addr.to_string(), &database).await;
    // The waiting bot's game was closed at the restart: it opens another, which a new bot joins.
    let partner = BotProcess::start(KINGME, addr, "partner", "--level random --game tictactoe");
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
