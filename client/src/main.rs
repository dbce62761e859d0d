//! The `kingme` binary: the terminal client and the engine tools (`perft`, later `analyze`,
//! `match`).

use clap::{Parser, Subcommand};

/// kingme: play checkers, Pente and noughts and crosses in the terminal.
#[derive(Debug, Parser)]
#[command(name = "kingme", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None => anyhow::bail!("the terminal client is not built yet; see README.md"),
    }
}
