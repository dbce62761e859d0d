//! Another kingme binary's expert as a player: `kingme match --b-binary PATH` starts `PATH
//! engine` as a child process and asks it for each move through the line protocol of
//! [`super::engine_protocol`] (the game's start and every move since, so it sees the history
//! that repetition draws need). Its replies are read on a thread of their own with the protocol's
//! line limit, so that a binary that hangs or floods is reported with a clear error instead of
//! stopping the match for ever; whatever move it names is checked by the match against the rules.

use super::engine_protocol::{Budget, Command, GREETING, Info, Reply, Start, read_line};
use anyhow::Context;
use kingme_shared::ai::Report;
use kingme_shared::{AnyGame, GameKind};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long a binary may take to greet, and how long beyond its time budget to answer a move.
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `kingme engine` of another binary.
pub struct ExternalEngine {
    path: PathBuf,
    child: Child,
    input: ChildStdin,
    replies: Receiver<Result<Reply, String>>,
}

/// Options handed to the other binary's `kingme engine`.
#[derive(Debug, Clone, Default)]
pub struct EngineSetup {
    /// A checkers endgame database for it to consult.
    pub egdb_file: Option<PathBuf>,
    /// Keep it out of the opening book.
    pub no_book: bool,
}

/// The other engine's answer: the move's text and what its search said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    pub info: Info,
}

impl ExternalEngine {
    /// Starts `path engine` and waits for its greeting.
    pub fn start(path: &Path, setup: &EngineSetup) -> anyhow::Result<ExternalEngine> {
        let mut process = Process::new(path);
        process.arg("engine");
        if let Some(file) = &setup.egdb_file {
            process.arg("--egdb-file").arg(file);
        }
        if setup.no_book {
            process.arg("--no-book");
        }
        let mut child = process
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| {
                format!(
                    "cannot start {} engine: give --b-binary the path of a kingme binary",
                    path.display()
                )
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            anyhow::bail!("{} engine started without its pipes", path.display());
        };
        let (send, replies) = channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            while let Ok(Some(line)) = read_line(&mut output) {
                let reply = line
                    .and_then(|line| Reply::parse(&line))
                    .map_err(|err| err.to_string());
                if send.send(reply).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            path: path.to_owned(),
            child,
            input,
            replies,
        };
        match engine.next_reply(PATIENCE)? {
            Reply::Greeting(1) => Ok(engine),
            other => anyhow::bail!(
                "{} engine greeted with {:?}, not {GREETING:?}: it is not a kingme binary with \
                 the engine protocol (build the yardstick from a commit that has kingme engine)",
                path.display(),
                other.to_line()
            ),
        }
    }

    /// Asks for the move in `kind`'s game that starts at `start` and has `moves` played.
    pub fn ask(
        &mut self,
        kind: GameKind,
        start: &str,
        moves: &[String],
        budget: &Budget,
    ) -> anyhow::Result<Answer> {
        let position = Command::Position {
            kind,
            start: Start::Text(start.to_owned()),
            moves: moves.to_vec(),
        };
        for command in [position, Command::Go(*budget)] {
            writeln!(self.input, "{}", command.to_line())
                .and_then(|()| self.input.flush())
                .with_context(|| format!("{} engine stopped reading", self.path.display()))?;
        }
        let patience = PATIENCE + budget.time.unwrap_or(Duration::from_secs(1)) * 4;
        let mut info = Info::default();
        loop {
            match self.next_reply(patience)? {
                Reply::Info(said) => info = said,
                Reply::BestMove(text) => return Ok(Answer { text, info }),
                Reply::Error(message) => anyhow::bail!(
                    "{} engine refused the position {start} with {} moves: {message}",
                    self.path.display(),
                    moves.len()
                ),
                other => anyhow::bail!(
                    "{} engine answered {:?} where a move was expected",
                    self.path.display(),
                    other.to_line()
                ),
            }
        }
    }

    /// The engine's move for `game` (which started at `start` and has `moves` played), as a
    /// report: its move checked against the rules, and its search's figures as it gave them.
    pub fn report(
        &mut self,
        game: &AnyGame,
        start: &str,
        moves: &[String],
        budget: &Budget,
    ) -> anyhow::Result<Report> {
        let answer = self.ask(game.kind(), start, moves, budget)?;
        let best = game.parse_move(&answer.text).map_err(|err| {
            anyhow::anyhow!(
                "the other binary played {:?} in {}: {err}",
                answer.text,
                game.position_text()
            )
        })?;
        Ok(Report {
            best,
            text: answer.text,
            score: answer.info.score,
            depth: answer.info.depth,
            nodes: answer.info.nodes,
            pv: Vec::new(),
            elapsed: answer.info.time,
        })
    }

    /// The next reply, or an error if none comes within `patience` or it cannot be read.
    fn next_reply(&mut self, patience: Duration) -> anyhow::Result<Reply> {
        match self.replies.recv_timeout(patience) {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(message)) => anyhow::bail!(
                "{} engine sent a line that is not the protocol: {message}",
                self.path.display()
            ),
            Err(RecvTimeoutError::Timeout) => anyhow::bail!(
                "{} engine did not answer within {} s",
                self.path.display(),
                patience.as_secs()
            ),
            Err(RecvTimeoutError::Disconnected) => anyhow::bail!(
                "{} engine ended (exit status {:?})",
                self.path.display(),
                self.child.try_wait().ok().flatten()
            ),
        }
    }
}

impl Drop for ExternalEngine {
    /// Asks the engine to quit and waits a moment for its output to close; ends the child if it
    /// has not.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "{}", Command::Quit.to_line());
        let _ = self.input.flush();
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        let closed = loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.replies.recv_timeout(left) {
                Ok(_) => {}
                Err(RecvTimeoutError::Disconnected) => break true,
                Err(RecvTimeoutError::Timeout) => break false,
            }
        };
        if !closed {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
