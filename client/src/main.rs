//! The `kingme` binary: the terminal client and the engine tools (`perft`, later `analyze`,
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
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => tools::perft::run(&args),
        None => anyhow::bail!("the terminal client is not built yet; see README.md"),
    }
}
