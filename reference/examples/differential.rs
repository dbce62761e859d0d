//! Runs the differential rules comparison at scale and prints what it checked:
//!
//!     cargo run --release -p kingme-reference --example differential -- [POSITIONS] [SEED]
//!
//! POSITIONS (default 1,000,000) positions for each of checkers and Pente.

use anyhow::{Context, anyhow};
use kingme_reference::differential;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let positions: u64 = match args.next() {
        Some(text) => text.parse().context("POSITIONS must be a number")?,
        None => 1_000_000,
    };
    let seed: u64 = match args.next() {
        Some(text) => text.parse().context("SEED must be a number")?,
        None => 1,
    };

    let started = Instant::now();
    let checkers = differential::checkers(seed, positions).map_err(|err| anyhow!(err))?;
    println!(
        "checkers: {} positions and {} moves agree ({} playouts; {} positions with a forced \
         capture, {} multi-jumps, {} positions with kings, {} lost positions) in {:.1} s",
        checkers.positions,
        checkers.moves,
        checkers.playouts,
        checkers.capture_positions,
        checkers.multi_jumps,
        checkers.king_positions,
        checkers.lost_positions,
        started.elapsed().as_secs_f64()
    );

    let started = Instant::now();
    let pente = differential::pente(seed, positions).map_err(|err| anyhow!(err))?;
    println!(
        "pente: {} positions and {} moves agree ({} playouts: {} won by five, {} by captures, {} \
         full boards; {} capturing moves, {} winning moves) in {:.1} s",
        pente.positions,
        pente.moves,
        pente.playouts,
        pente.fives,
        pente.capture_wins,
        pente.full_boards,
        pente.capturing_moves,
        pente.winning_moves,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
