//! The `kingme` binary: the terminal client and the engine tools (`perft`, `analyze`,
//! `match`). This file only declares the command line and hands each subcommand to its module.

mod tools;

use clap::{Parser, Subcommand};

/// kingme: play checkers, Pente and noughts and crosses in the terminal.
#[derive(Debug, Parser)]
#[command(name = "kingme", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands; each one's arguments and code live in its own file under `tools/`.
#[derive(Debug, Subcommand)]
enum Command {
    /// Count the move sequences of a given length (perft) and print nodes, time and speed.
    Perft(tools::perft::PerftArgs),
    /// Search one position and print the best move, score, depth, nodes, speed and line.
    Analyze(tools::analyze::AnalyzeArgs),
    /// Play games between two AI levels and print wins, draws, losses and the score.
    Match(tools::engine_match::MatchArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => tools::perft::run(&args),
        Some(Command::Analyze(args)) => tools::analyze::run(&args),
        Some(Command::Match(args)) => tools::engine_match::run(&args),
        None => anyhow::bail!("the terminal client is not built yet; see README.md"),
    }
}
