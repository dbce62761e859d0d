//! `kingme engine`: the expert behind the line protocol of [`super::engine_protocol`] on
//! standard input and output, so that another build of kingme can play it (`kingme match
//! --b-binary`). Each `position` is replayed move by move through the rules (an illegal or
//! unreadable move is refused with its number), each `go` searches it with the expert and
//! answers `info` and `bestmove`; a bad line is answered `error ...` and the engine reads on.

use super::engine_protocol::{Budget, Command, GREETING, Info, Reply, Start, read_line};
use kingme_shared::AnyGame;
use kingme_shared::ai::egdb::Egdb;
use kingme_shared::ai::{Level, Limits, think};
use std::io::{BufRead, Write};
use std::sync::Arc;

/// Arguments of `kingme engine`.
#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// A checkers endgame database file the expert consults (default: none).
    #[arg(long, value_name = "FILE")]
    pub egdb_file: Option<std::path::PathBuf>,
    /// Keep the expert out of the checkers opening book.
    #[arg(long)]
    pub no_book: bool,
}

/// Runs `kingme engine` on standard input and output until `quit` or the end of the input.
pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    let egdb = match &args.egdb_file {
        Some(path) => Some(super::egdb::open(path)?),
        None => None,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(&mut stdin.lock(), &mut stdout.lock(), egdb, args.no_book)
}

/// The engine's loop over any input and output: what [`run`] does, and what the tests drive.
pub fn serve(
    input: &mut impl BufRead,
    output: &mut impl Write,
    egdb: Option<Arc<Egdb>>,
    no_book: bool,
) -> anyhow::Result<()> {
    writeln!(output, "{GREETING}")?;
    output.flush()?;
    let mut game: Option<AnyGame> = None;
    while let Some(line) = read_line(input)? {
        let answer = match line.and_then(|line| Command::parse(&line)) {
            Ok(None) => continue,
            Ok(Some(Command::Quit)) => break,
            Ok(Some(Command::IsReady)) => vec![Reply::ReadyOk],
            Ok(Some(Command::Position { kind, start, moves })) => {
                match replay(kind, &start, &moves) {
                    Ok(replayed) => {
                        game = Some(replayed);
                        Vec::new()
                    }
                    Err(message) => {
                        game = None;
                        vec![Reply::Error(message)]
                    }
                }
            }
            Ok(Some(Command::Go(budget))) => match &game {
                Some(game) => go(game, &budget, egdb.clone(), no_book),
                None => vec![Reply::Error(
                    "no position to search: send position GAME start|POSITION [moves ...] first"
                        .to_owned(),
                )],
            },
            Err(err) => vec![Reply::Error(err.to_string())],
        };
        for reply in answer {
            writeln!(output, "{}", reply.to_line())?;
        }
        output.flush()?;
    }
    Ok(())
}

/// The game at `start` with `moves` played, each checked by the rules; or what was wrong.
fn replay(
    kind: kingme_shared::GameKind,
    start: &Start,
    moves: &[String],
) -> Result<AnyGame, String> {
    let mut game = match start {
        Start::Initial => AnyGame::start(kind),
        Start::Text(text) => AnyGame::from_position_text(kind, text)
            .map_err(|err| format!("cannot read the {kind} position: {err}"))?,
    };
    for (number, text) in moves.iter().enumerate() {
        let mv = game
            .parse_move(text)
            .map_err(|err| format!("move {} ({text}): {err}", number + 1))?;
        game.play(&mv)
            .map_err(|err| format!("move {} ({text}): {err}", number + 1))?;
    }
    Ok(game)
}

/// The expert's answer for `game`: `info` and `bestmove`, or an error when the game is over.
fn go(game: &AnyGame, budget: &Budget, egdb: Option<Arc<Egdb>>, no_book: bool) -> Vec<Reply> {
    let limits = Limits {
        depth: budget.depth,
        time: budget.time,
        nodes: budget.nodes,
        egdb,
        no_book,
        ..Limits::default()
    };
    match think(game, Level::Expert, &limits, budget.seed) {
        Some(report) => vec![
            Reply::Info(Info {
                depth: report.depth,
                score: report.score,
                nodes: report.nodes,
                time: report.elapsed,
            }),
            Reply::BestMove(report.text),
        ],
        None => vec![Reply::Error(
            "the game is over in this position: there is no move to find".to_owned(),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's answers to `input`, one string a line.
    fn session(input: &str) -> Vec<String> {
        let mut output = Vec::new();
        serve(&mut input.as_bytes(), &mut output, None, false).unwrap();
        String::from_utf8(output)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn the_engine_answers_a_legal_move_and_refuses_bad_input_and_reads_on() {
        let lines = session(
            "isready\n\
             go depth 2\n\
             position tictactoe start moves 1 5\n\
             go depth 9 seed 3\n\
             position checkers start moves 11-15 12-16\n\
             go depth 3\n\
             position checkers B:W18,32 moves\n\
             position tictactoe XXXOO----\n\
             go depth 1\n\
             warp 9\n\
             position tictactoe start\n\
             go depth 2\n\
             quit\n\
             isready\n",
        );
        assert_eq!(lines[0], GREETING);
        assert_eq!(lines[1], "readyok");
        assert!(
            lines[2].starts_with("error no position to search"),
            "{lines:?}"
        );
        assert!(lines[3].starts_with("info depth "), "{lines:?}");
        let Ok(Reply::BestMove(mv)) = Reply::parse(&lines[4]) else {
            panic!("{lines:?}");
        };
        let mut game = replay(
            kingme_shared::GameKind::TicTacToe,
            &Start::Initial,
            &["1".into(), "5".into()],
        )
        .unwrap();
        let parsed = game.parse_move(&mv).unwrap();
        game.play(&parsed).unwrap();
        // The second move, 12-16, is Black's again: refused with its number.
        assert!(lines[5].starts_with("error move 2 (12-16)"), "{lines:?}");
        // After a refused position there is none to search.
        assert!(lines[6].starts_with("error no position"), "{lines:?}");
        assert!(
            lines[7].starts_with("error cannot read the checkers position"),
            "{lines:?}"
        );
        assert!(lines[8].starts_with("error the game is over"), "{lines:?}");
        assert!(
            lines[9].starts_with("error unknown command \"warp\""),
            "{lines:?}"
        );
        assert!(lines[10].starts_with("info"), "{lines:?}");
        assert!(lines[11].starts_with("bestmove "), "{lines:?}");
        assert_eq!(lines.len(), 12, "nothing after quit: {lines:?}");
    }
}
