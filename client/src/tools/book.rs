//! `kingme book build`: builds the checkers opening book. Every position on the way through the
//! ACF three-move ballots (the start, the positions after one and two moves, and each ballot's
//! own position), and from each ballot some plies beyond along the search's own best moves, is
//! searched by the expert (out of book, `--nodes` nodes each) and its best move, score and depth
//! written to the book file ([`kingme_shared::ai::book`]), with a progress bar. The book shipped
//! with kingme is `shared/data/checkers-book.kmbook`, built by this command.

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use kingme_shared::ai::book::{Book, BookMove};
use kingme_shared::ai::{Level, Limits, think};
use kingme_shared::games::checkers::{Checkers, Position};
use kingme_shared::{AnyGame, AnyMove, Game};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `kingme book`.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// What `kingme book` does.
#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Search the opening positions and write the book file.
    Build {
        /// Nodes searched for each position (a node budget, not a time, so that the book does
        /// not depend on how busy the machine is).
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Plies followed beyond each ballot along the search's best moves.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=20))]
        beyond: u32,
        /// The file to write.
        #[arg(long, value_name = "FILE", default_value = "checkers-book.kmbook")]
        out: PathBuf,
    },
}

/// Runs `kingme book`.
pub fn run(args: &BookArgs) -> anyhow::Result<()> {
    match &args.command {
        BookCommand::Build { nodes, beyond, out } => {
            let limits = Limits {
                nodes: Some(*nodes),
                no_book: true,
                ..Limits::default()
            };
            build(&limits, *beyond, out, true)
        }
    }
}

/// The positions on the way through every ballot (before each of its moves), then each
/// ballot's own position, in that order, each once.
fn ballot_positions() -> anyhow::Result<(Vec<Checkers>, Vec<Checkers>)> {
    let mut on_the_way = Vec::new();
    let mut ends = Vec::new();
    let mut seen = HashSet::new();
    for ballot in super::ballots::all()? {
        let mut game = Checkers::from_position(Position::start());
        for text in ballot.moves.split_whitespace() {
            if seen.insert(*game.position()) {
                on_the_way.push(game.clone());
            }
            let mv = game
                .parse_move(text)
                .map_err(|err| anyhow::anyhow!("ballot {}: {text}: {err}", ballot.number))?;
            game.play(&mv)
                .map_err(|err| anyhow::anyhow!("ballot {}: {text}: {err}", ballot.number))?;
        }
        if seen.insert(*game.position()) {
            ends.push(game);
        }
    }
    Ok((on_the_way, ends))
}

/// The expert's move for a position, as a book entry.
fn search(game: &Checkers, limits: &Limits) -> anyhow::Result<Option<BookMove>> {
    let any = AnyGame::Checkers(game.clone());
    let Some(report) = think(&any, Level::Expert, limits, 0) else {
        return Ok(None);
    };
    let AnyMove::Checkers(mv) = report.best else {
        anyhow::bail!("the checkers search answered with another game's move");
    };
    Ok(Some(BookMove {
        position: *game.position(),
        mv,
        score: report.score,
        depth: report.depth,
    }))
}

fn build(limits: &Limits, beyond: u32, out: &Path, show_progress: bool) -> anyhow::Result<()> {
    let started = Instant::now();
    let (on_the_way, ends) = ballot_positions()?;
    let total = (on_the_way.len() + ends.len() * (1 + beyond as usize)) as u64;
    let bar = if show_progress {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions, {eta} left: {msg}",
        )
        .context("the progress style")?
        .progress_chars("=> "),
    );
    let mut entries = Vec::new();
    let mut seen = HashSet::new();
    let mut queue: Vec<(Checkers, u32)> = on_the_way.into_iter().map(|g| (g, 0)).collect();
    queue.extend(ends.into_iter().map(|g| (g, beyond)));
    queue.reverse();
    while let Some((game, further)) = queue.pop() {
        if !seen.insert(*game.position()) {
            bar.inc(u64::from(further) + 1);
            continue;
        }
        let Some(entry) = search(&game, limits)? else {
            bar.inc(u64::from(further) + 1);
            continue;
        };
        bar.set_message(format!(
            "{} scores {} at depth {}",
            game.move_text(&entry.mv),
            entry.score,
            entry.depth
        ));
        bar.inc(1);
        if further > 0 {
            let mut next = game.clone();
            next.play(&entry.mv)
                .map_err(|err| anyhow::anyhow!("the search's move cannot be played: {err}"))?;
            if next.outcome().is_none() {
                queue.push((next, further - 1));
            } else {
                bar.inc(u64::from(further));
            }
        }
        entries.push(entry);
    }
    bar.finish_and_clear();
    let book = Book::new(entries);
    let bytes = book.encode();
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the folder {}", parent.display()))?;
    }
    std::fs::write(out, &bytes).with_context(|| format!("cannot write {}", out.display()))?;
    if show_progress {
        println!(
            "{}: {} positions, {} bytes, built in {:.0} s",
            out.display(),
            book.len(),
            bytes.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::Side;

    #[test]
    fn the_ballots_give_every_opening_position_once() {
        let (on_the_way, ends) = ballot_positions().expect("the shipped ballots");
        // The start, Black's seven first moves, White's replies to them, and 174 ballots.
        assert_eq!(on_the_way[0].position(), &Position::start());
        assert_eq!(ends.len(), 174);
        assert!(ends.iter().all(|g| g.side_to_move() == Side::Second));
        let unique: HashSet<Position> = on_the_way
            .iter()
            .chain(&ends)
            .map(|g| *g.position())
            .collect();
        assert_eq!(unique.len(), on_the_way.len() + ends.len());
        assert_eq!(
            on_the_way
                .iter()
                .filter(|g| g.side_to_move() == Side::Second)
                .count(),
            7
        );
    }

    #[test]
    fn a_tiny_book_is_built_read_and_followed() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let out = dir.path().join("tiny.kmbook");
        let limits = Limits {
            depth: Some(2),
            no_book: true,
            ..Limits::default()
        };
        build(&limits, 1, &out, false).expect("built");
        let book = Book::parse(&std::fs::read(&out).expect("written")).expect("a whole book");
        // Every ballot position, and one ply beyond each ballot that did not transpose.
        assert!(book.len() > 174 + 7 + 1, "{}", book.len());
        let (on_the_way, ends) = ballot_positions().expect("ballots");
        for game in on_the_way.iter().chain(&ends) {
            let entry = book.lookup(game.position()).expect("in the book");
            assert!(game.legal_moves().contains(&entry.mv));
        }
    }
}
