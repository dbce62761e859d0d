//! The `kingme` binary: the terminal client and the engine tools (`perft`, later `analyze`,
//! `match`). This file only declares the command line and hands each subcommand to its module.

mod tools;

use clap::{Parser, Subcommand};
use kingme_client::launch::{self, Action, GlobalArgs};
use std::process::ExitCode;

/// kingme: play checkers, Pente and noughts and crosses in the terminal.
#[derive(Debug, Parser)]
#[command(name = "kingme", version, about)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
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
    Bot(kingme_client::bot_client::BotArgs),
    /// Count the move sequences of a given length (perft) and print nodes, time and speed.
    Perft(tools::perft::PerftArgs),
}

fn main() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let action = match cli.command {
        Some(Command::Perft(args)) => return tools::perft::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Play(args)) => Action::Play(args),
        Some(Command::Watch(args)) => Action::Watch(args),
        Some(Command::Bot(args)) => Action::Bot(args),
        None => Action::Lobby,
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
