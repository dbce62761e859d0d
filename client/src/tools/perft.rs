//! `kingme perft`: counts the move sequences of a given length from a position and prints the
//! node count, the time taken and nodes per second, the figure engine authors compare.
//!
//! It goes through [`AnyGame::perft`], so each game uses its fastest counter (the bulk-counting
//! bitboard perft for checkers, the generic one otherwise). Games listed in [`GameKind`] but not
//! built into this version are refused with a clear error.

use anyhow::Context;
use kingme_shared::{AnyGame, GameKind};
use std::fmt;
use std::time::{Duration, Instant};

/// Arguments of `kingme perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The game: checkers, pente or tictactoe.
    #[arg(long, default_value = "checkers")]
    pub game: GameKind,
    /// Start here instead of the start position, in the game's position text (for checkers a
    /// PDN FEN such as "W:WK22:B9,10,17,18").
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
    /// Number of plies to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,
}

/// What one perft run found.
#[derive(Debug, Clone, PartialEq)]
pub struct PerftReport {
    pub game: GameKind,
    pub position: String,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl fmt::Display for PerftReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        writeln!(f, "game      {}", self.game)?;
        writeln!(f, "position  {}", self.position)?;
        writeln!(f, "depth     {}", self.depth)?;
        writeln!(f, "nodes     {}", self.nodes)?;
        writeln!(f, "time      {seconds:.3} s")?;
        if seconds > 0.0 {
            write!(
                f,
                "speed     {:.1} M nodes/s",
                self.nodes as f64 / seconds / 1e6
            )
        } else {
            write!(f, "speed     too fast to measure")
        }
    }
}

/// Runs `kingme perft` and prints the report.
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let report = perft(args.game, args.position.as_deref(), args.depth)?;
    println!("{report}");
    Ok(())
}

/// Counts and times perft of `depth` plies from `position` (the start if `None`).
pub fn perft(kind: GameKind, position: Option<&str>, depth: u32) -> anyhow::Result<PerftReport> {
    let game = match position {
        Some(text) => AnyGame::from_position_text(kind, text)
            .with_context(|| format!("cannot read the {kind} position {text:?}"))?,
        None => AnyGame::start(kind),
    };
    let timer = Instant::now();
    let nodes = game.perft(depth);
    let elapsed = timer.elapsed();
    Ok(PerftReport {
        game: kind,
        position: game.position_text(),
        depth,
        nodes,
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_counts_from_a_given_position() {
        let report = perft(GameKind::Checkers, Some("W:WK22:B9,10,17,18"), 1).expect("a FEN");
        assert_eq!(report.nodes, 2);
        assert_eq!(report.position, "W:WK22:B9,10,17,18");
        let start = perft(GameKind::Checkers, None, 4).expect("the start");
        assert_eq!(start.nodes, 1469);
        let text = start.to_string();
        assert!(text.contains("nodes     1469"), "{text}");
        assert!(text.contains("time "), "{text}");
    }

    #[test]
    fn every_game_is_counted() {
        for kind in GameKind::ALL {
            let report = perft(kind, None, 1).expect("every game has perft");
            assert_eq!(
                report.nodes,
                AnyGame::start(kind).legal_moves().len() as u64
            );
        }
    }

    #[test]
    fn a_bad_position_says_what_is_wrong() {
        let err = perft(GameKind::Checkers, Some("B:W1,2:B2"), 3).expect_err("square twice");
        let text = format!("{err:#}");
        assert!(text.contains("square 2 is listed twice"), "{text}");
    }
}
