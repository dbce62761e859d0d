//! The line protocol of `kingme engine`, both ways, so that `kingme match --b-binary` can play
//! another build of kingme (a frozen yardstick) through its standard input and output. One
//! command or reply a line, words split by spaces; lines are read through [`read_line`], which
//! refuses a line longer than [`MAX_LINE`] bytes instead of growing without end. Input is
//! hostile: every malformed line is a [`ProtocolError`] naming what was wrong, never a panic.
//!
//! To the engine: `position GAME start|POSITION [moves MOVE...]`, `go [time SECONDS]
//! [depth PLIES] [nodes N] [seed N]`, `isready`, `quit`. From it: `kingme-engine 1` once at
//! start, `info ...` and `bestmove MOVE` after a `go`, `readyok`, `error MESSAGE`. The moves are
//! the game's own notation from the given position, so the engine sees the history the
//! repetition draws need. docs/engine.md has the whole protocol.

use kingme_shared::GameKind;
use std::io::BufRead;
use std::time::Duration;

/// The greeting an engine prints first: its name and the protocol's version.
pub const GREETING: &str = "kingme-engine 1";

/// The longest line either side accepts, in bytes: room for the moves of a long game (a
/// 400-ply checkers game is about 3,000 bytes), not for a flood.
pub const MAX_LINE: usize = 64 * 1024;

/// The most moves a `position` line may list.
const MAX_MOVES: usize = 4_000;

/// The longest time a `go` may ask for, in seconds.
const MAX_SECONDS: f64 = 3_600.0;

/// The deepest search a `go` may ask for, in plies.
const MAX_DEPTH: u32 = 80;

/// What a line of the protocol could not be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// A line over [`MAX_LINE`] bytes.
    #[error("a line longer than {MAX_LINE} bytes was refused")]
    TooLong,
    /// A line that is not UTF-8.
    #[error("a line that is not UTF-8 text was refused")]
    NotText,
    /// A first word no command or reply starts with.
    #[error("unknown command {0:?}: expected position, go, isready or quit")]
    Unknown(String),
    /// A command that lacks a part or has one wrong.
    #[error("{0}")]
    Malformed(String),
}

/// Reads one line of at most [`MAX_LINE`] bytes, without its line ending: `Ok(None)` at the end
/// of the input. A longer line is consumed to its end and refused, so the next line reads
/// cleanly.
pub fn read_line(
    reader: &mut impl BufRead,
) -> std::io::Result<Option<Result<String, ProtocolError>>> {
    let mut line = Vec::new();
    // Bytes of the line so far, line ending excluded; only the first MAX_LINE are kept.
    let mut length = 0usize;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            if length == 0 {
                return Ok(None);
            }
            break;
        }
        let (taken, content, ended) = match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => (end + 1, end, true),
            None => (buffer.len(), buffer.len(), false),
        };
        length = length.saturating_add(content);
        if length <= MAX_LINE {
            line.extend_from_slice(&buffer[..content]);
        }
        reader.consume(taken);
        if ended {
            break;
        }
    }
    if length > MAX_LINE {
        return Ok(Some(Err(ProtocolError::TooLong)));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(
        String::from_utf8(line).map_err(|_| ProtocolError::NotText),
    ))
}

/// Where a position starts: the game's start or a position in its notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The game's usual start.
    Initial,
    /// A position text (`B:W18,32:B14,1`), one word.
    Text(String),
}

/// What a search may use; unset limits are the expert's defaults (one second).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    /// The time for the move.
    pub time: Option<Duration>,
    /// The deepest search, in plies.
    pub depth: Option<u32>,
    /// The most nodes.
    pub nodes: Option<u64>,
    /// The seed of the search's random choices.
    pub seed: u64,
}

/// A command to the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// The position to search: a game, where it starts, and the moves played since.
    Position {
        kind: GameKind,
        start: Start,
        moves: Vec<String>,
    },
    /// Search the position and answer `bestmove`.
    Go(Budget),
    /// Answer `readyok`.
    IsReady,
    /// End the engine.
    Quit,
}

impl Command {
    /// Reads a command line; blank lines are `Ok(None)`.
    pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Ok(None);
        };
        let command = match first {
            "position" => parse_position(words)?,
            "go" => Command::Go(parse_budget(words)?),
            "isready" => no_more(words, Command::IsReady)?,
            "quit" => no_more(words, Command::Quit)?,
            other => return Err(ProtocolError::Unknown(shorten(other))),
        };
        Ok(Some(command))
    }

    /// The command as a line (without its line ending), as [`Command::parse`] reads it.
    #[must_use]
    pub fn to_line(&self) -> String {
        match self {
            Command::Position { kind, start, moves } => {
                let start = match start {
                    Start::Initial => "start",
                    Start::Text(text) => text,
                };
                let mut line = format!("position {kind} {start}");
                if !moves.is_empty() {
                    line.push_str(" moves ");
                    line.push_str(&moves.join(" "));
                }
                line
            }
            Command::Go(budget) => {
                let mut line = "go".to_owned();
                if let Some(time) = budget.time {
                    line.push_str(&format!(" time {}", time.as_secs_f64()));
                }
                if let Some(depth) = budget.depth {
                    line.push_str(&format!(" depth {depth}"));
                }
                if let Some(nodes) = budget.nodes {
                    line.push_str(&format!(" nodes {nodes}"));
                }
                line.push_str(&format!(" seed {}", budget.seed));
                line
            }
            Command::IsReady => "isready".to_owned(),
            Command::Quit => "quit".to_owned(),
        }
    }
}

/// A reply from the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// What the search found, before its `bestmove`.
    Info(Info),
    /// The move chosen, in the game's notation.
    BestMove(String),
    /// The answer to `isready`.
    ReadyOk,
    /// The greeting, with the protocol version.
    Greeting(u32),
    /// What the engine refused, and why.
    Error(String),
}

/// The figures of an `info` line: `info depth D score S nodes N time MICROSECONDS`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
}

impl Reply {
    /// Reads a reply line.
    pub fn parse(line: &str) -> Result<Reply, ProtocolError> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("info") => parse_info(words).map(Reply::Info),
            Some("bestmove") => {
                let mv = words
                    .next()
                    .ok_or_else(|| malformed("bestmove names no move"))?;
                no_more(words, Reply::BestMove(mv.to_owned()))
            }
            Some("readyok") => no_more(words, Reply::ReadyOk),
            Some("kingme-engine") => {
                let version = number(words.next(), "the greeting's version")?;
                no_more(words, Reply::Greeting(version))
            }
            Some("error") => Ok(Reply::Error(
                line.trim_start()
                    .trim_start_matches("error")
                    .trim()
                    .to_owned(),
            )),
            Some(other) => Err(ProtocolError::Unknown(shorten(other))),
            None => Err(malformed("an empty reply")),
        }
    }

    /// The reply as a line, as [`Reply::parse`] reads it.
    #[must_use]
    pub fn to_line(&self) -> String {
        match self {
            Reply::Info(info) => format!(
                "info depth {} score {} nodes {} time {}",
                info.depth,
                info.score,
                info.nodes,
                info.time.as_micros()
            ),
            Reply::BestMove(mv) => format!("bestmove {mv}"),
            Reply::ReadyOk => "readyok".to_owned(),
            Reply::Greeting(version) => format!("kingme-engine {version}"),
            Reply::Error(message) => format!("error {}", message.replace(['\n', '\r'], " ")),
        }
    }
}

fn parse_position<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<Command, ProtocolError> {
    let game = words.next().ok_or_else(|| {
        malformed("position names no game: position GAME start|POSITION [moves ...]")
    })?;
    let kind: GameKind = game.parse().map_err(|_| {
        malformed(format!(
            "unknown game {:?}: checkers, pente or tictactoe",
            shorten(game)
        ))
    })?;
    let start = match words.next() {
        Some("start") => Start::Initial,
        Some(text) => Start::Text(text.to_owned()),
        None => {
            return Err(malformed(
                "position gives no start: start or a position text",
            ));
        }
    };
    let moves = match words.next() {
        None => Vec::new(),
        Some("moves") => words.map(str::to_owned).collect(),
        Some(other) => {
            return Err(malformed(format!(
                "expected moves after the start, got {:?}",
                shorten(other)
            )));
        }
    };
    if moves.len() > MAX_MOVES {
        return Err(malformed(format!(
            "{} moves are more than the {MAX_MOVES} a position may list",
            moves.len()
        )));
    }
    Ok(Command::Position { kind, start, moves })
}

fn parse_budget<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<Budget, ProtocolError> {
    let mut budget = Budget::default();
    while let Some(word) = words.next() {
        let value = words.next();
        match word {
            "time" => {
                let seconds: f64 = number(value, "time")?;
                if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS) {
                    return Err(malformed(format!(
                        "time must be seconds above 0 and at most {MAX_SECONDS}, got {seconds}"
                    )));
                }
                budget.time = Some(Duration::from_secs_f64(seconds));
            }
            "depth" => {
                let depth: u32 = number(value, "depth")?;
                if !(1..=MAX_DEPTH).contains(&depth) {
                    return Err(malformed(format!(
                        "depth must be 1 to {MAX_DEPTH} plies, got {depth}"
                    )));
                }
                budget.depth = Some(depth);
            }
            "nodes" => {
                let nodes: u64 = number(value, "nodes")?;
                if nodes == 0 {
                    return Err(malformed("nodes must be at least 1"));
                }
                budget.nodes = Some(nodes);
            }
            "seed" => budget.seed = number(value, "seed")?,
            other => {
                return Err(malformed(format!(
                    "go takes time, depth, nodes and seed, not {:?}",
                    shorten(other)
                )));
            }
        }
    }
    Ok(budget)
}

fn parse_info<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<Info, ProtocolError> {
    let mut info = Info::default();
    while let Some(word) = words.next() {
        let value = words.next();
        match word {
            "depth" => info.depth = number(value, "depth")?,
            "score" => info.score = number(value, "score")?,
            "nodes" => info.nodes = number(value, "nodes")?,
            "time" => info.time = Duration::from_micros(number(value, "time")?),
            // Later versions may say more; what this one does not know is skipped.
            _ => {}
        }
    }
    Ok(info)
}

/// The number after a keyword, or what was wrong with it.
fn number<T: std::str::FromStr>(word: Option<&str>, what: &str) -> Result<T, ProtocolError> {
    let word = word.ok_or_else(|| malformed(format!("{what} needs a number after it")))?;
    word.parse()
        .map_err(|_| malformed(format!("{what} must be a number, got {:?}", shorten(word))))
}

/// `value` if nothing follows, or the error naming what did.
fn no_more<'a, T>(mut words: impl Iterator<Item = &'a str>, value: T) -> Result<T, ProtocolError> {
    match words.next() {
        None => Ok(value),
        Some(extra) => Err(malformed(format!(
            "unexpected {:?} at the end",
            shorten(extra)
        ))),
    }
}

fn malformed(message: impl Into<String>) -> ProtocolError {
    ProtocolError::Malformed(message.into())
}

/// A word as an error quotes it: at most 40 characters, so a hostile word cannot flood the
/// error line.
fn shorten(word: &str) -> String {
    word.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Command {
        Command::parse(line).unwrap().unwrap()
    }

    fn refused(line: &str) -> String {
        Command::parse(line).unwrap_err().to_string()
    }

    #[test]
    fn commands_read_back_from_their_own_lines() {
        let cases = [
            Command::Position {
                kind: GameKind::Checkers,
                start: Start::Initial,
                moves: vec!["11-15".into(), "23-19".into(), "8-11".into()],
            },
            Command::Position {
                kind: GameKind::Pente,
                start: Start::Text("1:K10,M10:L10,M11:0,0".into()),
                moves: Vec::new(),
            },
            Command::Go(Budget {
                time: Some(Duration::from_millis(100)),
                depth: Some(7),
                nodes: Some(5_000),
                seed: 42,
            }),
            Command::Go(Budget::default()),
            Command::IsReady,
            Command::Quit,
        ];
        for case in cases {
            assert_eq!(command(&case.to_line()), case, "{}", case.to_line());
        }
        assert_eq!(Command::parse("   ").unwrap(), None);
        assert_eq!(
            command("  position   tictactoe  start  \t"),
            Command::Position {
                kind: GameKind::TicTacToe,
                start: Start::Initial,
                moves: Vec::new()
            }
        );
    }

    #[test]
    fn bad_commands_are_refused_with_what_was_wrong() {
        let check = |line: &str, expected: &str| {
            let message = refused(line);
            assert!(message.contains(expected), "{line:?}: {message}");
        };
        check("fly", "unknown command \"fly\"");
        check("position", "names no game");
        check("position chess start", "unknown game \"chess\"");
        check("position checkers", "gives no start");
        check(
            "position checkers start 11-15",
            "expected moves after the start",
        );
        check("go time", "time needs a number");
        check("go time fast", "time must be a number");
        check("go time -1", "time must be seconds above 0");
        check("go time NaN", "time must be seconds above 0");
        check("go time 1e9", "at most 3600");
        check("go depth 0", "depth must be 1 to 80");
        check("go depth 99999999999", "depth must be a number");
        check("go nodes 0", "nodes must be at least 1");
        check("go ponder", "go takes time, depth, nodes and seed");
        check("quit now", "unexpected \"now\"");
        let long_word = "x".repeat(10_000);
        assert!(
            refused(&long_word).len() < 120,
            "the error quotes a short part"
        );
        let many = format!(
            "position checkers start moves {}",
            "1-5 ".repeat(MAX_MOVES + 1)
        );
        check(&many, "more than the 4000");
    }

    #[test]
    fn replies_read_back_and_bad_ones_are_refused() {
        let cases = [
            Reply::Info(Info {
                depth: 12,
                score: -35,
                nodes: 123_456,
                time: Duration::from_micros(99_876),
            }),
            Reply::BestMove("9x18x27".into()),
            Reply::ReadyOk,
            Reply::Greeting(1),
            Reply::Error("the move 1-5 is not legal".into()),
        ];
        for case in cases {
            assert_eq!(Reply::parse(&case.to_line()).unwrap(), case);
        }
        assert_eq!(Reply::parse(GREETING).unwrap(), Reply::Greeting(1));
        // An error's message cannot break the line in two.
        let split = Reply::Error("one\ntwo".into()).to_line();
        assert!(!split.contains('\n'));
        assert!(Reply::parse("bestmove").is_err());
        assert!(Reply::parse("bestmove 1-5 2-6").is_err());
        assert!(Reply::parse("info depth many").is_err());
        assert!(Reply::parse("kingme-engine one").is_err());
        assert!(Reply::parse("hello").is_err());
        assert!(Reply::parse("").is_err());
        // Unknown info words are skipped, for later versions.
        assert_eq!(
            Reply::parse("info depth 3 hashfull 10").unwrap(),
            Reply::Info(Info {
                depth: 3,
                ..Info::default()
            })
        );
    }

    #[test]
    fn lines_are_read_within_the_limit_and_a_long_one_is_skipped_whole() {
        let long = "y".repeat(MAX_LINE + 10);
        let exact = "z".repeat(MAX_LINE);
        let input = format!("isready\r\n{long}\n{exact}\nquit");
        // A small buffer, so that lines arrive in many pieces.
        let mut reader = std::io::BufReader::with_capacity(7, input.as_bytes());
        let mut read = || read_line(&mut reader).unwrap();
        assert_eq!(read(), Some(Ok("isready".to_owned())));
        assert_eq!(read(), Some(Err(ProtocolError::TooLong)));
        assert_eq!(read(), Some(Ok(exact.clone())));
        assert_eq!(
            read(),
            Some(Ok("quit".to_owned())),
            "a last line without its end"
        );
        assert_eq!(read(), None);
        let mut bytes: &[u8] = b"\xff\xfe\n";
        assert_eq!(
            read_line(&mut bytes).unwrap(),
            Some(Err(ProtocolError::NotText))
        );
    }
}
