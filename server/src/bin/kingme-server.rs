//! The `kingme-server` binary: parses the command line and starts the judge.

use clap::Parser;

/// The kingme game server: hosts checkers, Pente and noughts-and-crosses games over TCP.
#[derive(Debug, Parser)]
#[command(name = "kingme-server", version, about)]
struct Args {
    /// Address to listen on; use 0.0.0.0:7878 to host for other machines.
    #[arg(long, default_value = "127.0.0.1:7878")]
    listen: String,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    anyhow::bail!(
        "the kingme server is not built yet (would listen on {}); see README.md",
        args.listen
    )
}
