//! The `kingme` binary: the terminal client and the engine tools (`perft`, `analyze`,
//! `match`, `engine`, `ladder`, `egdb`, `book`). This file only declares the command line and hands each subcommand to its module.

mod tools;

use clap::{Parser, Subcommand};
use kingme_client::archive;
use kingme_client::launch::broken_pipe;
use kingme_client::launch::{self, Action, GlobalArgs, ModeArgs};
use std::process::ExitCode;

/// kingme: play checkers, Pente and noughts and crosses in the terminal.
#[derive(Debug, Parser)]
#[command(name = "kingme", version, about)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(flatten)]
    mode: ModeArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands; each one's arguments and code live in their own module.
#[derive(Debug, Subcommand)]
enum Command {
    /// Create a game and play it (against a bot unless --vs human).
    Play(Box<launch::PlayArgs>),
    /// Watch a game.
    Watch(launch::WatchArgs),
    /// Play as a bot over the network (needs --server): join or open games, print each result.
    Bot(kingme_client::bot::BotArgs),
    /// Count the move sequences of a given length (perft) and print nodes, time and speed.
    Perft(tools::perft::PerftArgs),
    /// Search one position and print the best move, score, depth, nodes, speed and line.
    Analyze(tools::analyze::AnalyzeArgs),
    /// Play games between two AI levels and print wins, draws, losses and the score.
    Match(tools::engine_match::MatchArgs),
    /// The expert on standard input and output, for another kingme's `match --b-binary`.
    Engine(tools::engine::EngineArgs),
    /// Play a round robin between the AI levels and print their fitted Elo ratings.
    Ladder(tools::ladder::LadderArgs),
    /// Checkers endgame databases: `egdb build --pieces N`.
    Egdb(tools::egdb::EgdbArgs),
    /// The checkers opening book: `book build`.
    Book(tools::book::BookArgs),
    /// Fit the checkers evaluation's weights to self-play results (Texel's way) and write them.
    Tune(tools::tune::TuneArgs),
    /// List finished games from the server's history, newest first.
    History(archive::HistoryArgs),
    /// Show the rating leaderboard (Elo, K = 32) of people and bot levels.
    Leaderboard(archive::LeaderboardArgs),
    /// Write a stored game as PDN (checkers) or the kingme text record (Pente, noughts and crosses).
    Export(archive::ExportArgs),
    /// Step through a stored game: forward, back, start, end.
    Replay(archive::ReplayArgs),
    /// Step through a game from a PDN or kingme text record file.
    Import(archive::ImportArgs),
    /// Review a stored game (or --file PATH) move by move with the engine: marks, best moves,
    /// an evaluation graph.
    Review(archive::review::ReviewArgs),
    /// Your identity (a key pair per name): show it, export it, import it on another machine.
    Identity(kingme_client::identity::command::IdentityArgs),
    /// Moderate a server you are an admin of: ban, unban, mute, unmute, close, announce, log.
    Admin(kingme_client::admin::AdminArgs),
    /// Accept the certificate a server shows now (after its host renewed it), replacing the
    /// one pinned for it on first use.
    Trust(kingme_client::net::trust::TrustArgs),
}

/// Runs one of the commands on stored games on a small runtime.
fn on_runtime(
    command: impl std::future::Future<Output = anyhow::Result<()>>,
) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(command)?;
    runtime.shutdown_background();
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    // One place for every command: a closed standard output ends the program quietly.
    broken_pipe::quiet_panics();
    broken_pipe::exit_code(run())
}

/// Runs the command the command line names.
fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let showing_games = matches!(
        cli.command,
        None | Some(Command::Play(_) | Command::Watch(_))
    );
    if cli.mode.is_given() && !showing_games {
        anyhow::bail!(
            "--plain and --http are options of kingme (the lobby), kingme play and kingme watch"
        );
    }
    let action = match cli.command {
        Some(Command::Perft(args)) => return tools::perft::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Analyze(args)) => {
            return tools::analyze::run(&args).map(|()| ExitCode::SUCCESS);
        }
        Some(Command::Match(args)) => {
            return tools::engine_match::run(&args).map(|()| ExitCode::SUCCESS);
        }
        Some(Command::Engine(args)) => {
            return tools::engine::run(&args).map(|()| ExitCode::SUCCESS);
        }
        Some(Command::Ladder(args)) => {
            return tools::ladder::run(&args).map(|()| ExitCode::SUCCESS);
        }
        Some(Command::Egdb(args)) => return tools::egdb::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Book(args)) => return tools::book::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Tune(args)) => return tools::tune::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Import(args)) => {
            return archive::import(&cli.global, &args).map(|()| ExitCode::SUCCESS);
        }
        Some(Command::Identity(args)) => {
            let text = kingme_client::identity::command::run(&args, cli.global.name.as_deref())?;
            print!("{text}");
            return Ok(ExitCode::SUCCESS);
        }
        Some(Command::Trust(args)) => {
            return on_runtime(async move {
                print!("{}", kingme_client::net::trust::run(&args).await?);
                Ok(())
            });
        }
        Some(Command::History(args)) => return on_runtime(archive::history(&cli.global, &args)),
        Some(Command::Admin(args)) => {
            return on_runtime(kingme_client::admin::run(&cli.global, &args));
        }
        Some(Command::Leaderboard(args)) => {
            return on_runtime(archive::leaderboard(&cli.global, &args));
        }
        Some(Command::Export(args)) => return on_runtime(archive::export(&cli.global, &args)),
        Some(Command::Replay(args)) => return on_runtime(archive::replay(&cli.global, &args)),
        Some(Command::Review(args)) => {
            return on_runtime(archive::review::review(&cli.global, &args));
        }
        Some(Command::Play(mut args)) => {
            args.mode = args.mode.or(cli.mode);
            Action::Play(args)
        }
        Some(Command::Watch(mut args)) => {
            args.mode = args.mode.or(cli.mode);
            Action::Watch(args)
        }
        Some(Command::Bot(args)) => Action::Bot(args),
        None => Action::Lobby(cli.mode),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let ok = runtime.block_on(launch::run(cli.global, action))?;
    // The stdin reader of plain mode may still be blocked in a read; do not wait for it.
    runtime.shutdown_background();
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
