//! `kingme review GAME` (a stored game fetched from the server, as `kingme replay` does) and
//! `kingme review --file PATH` (a PDN or kingme text record, as `kingme import` reads): every
//! move looked at by the expert within a bound per position, then the review board.
//!
//! In a terminal it is a full-screen view (the keys of the replay, and m for the next
//! mistake); otherwise the review is printed as text, one line per move.

pub mod board;
pub mod compute;
pub mod text;
pub mod view;

use crate::launch::GlobalArgs;
use crate::tui::theme::Theme;
use anyhow::bail;
use board::{ReviewBoard, go_of_key};
pub use compute::DEFAULT_TIME;
use kingme_shared::record::GameRecord;
use kingme_shared::review::has_exact_results;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

/// The longest time per position `--time` accepts.
const MAX_TIME: f64 = 600.0;

/// `kingme review`: look at every move of a game with the engine's eye.
#[derive(Debug, Clone, clap::Args)]
pub struct ReviewArgs {
    /// The game's number, as `kingme history` lists it.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub game: Option<u64>,
    /// Review a PDN (checkers) or kingme text record file instead of a stored game.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Search each position this many plies deep.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Search each position this many seconds (default 0.25 without --depth).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// A checkers endgame database (from `kingme egdb build`; default: the largest in the data
    /// directory's egdb folder): exact results in the review, exact scores in the search.
    #[arg(long, value_name = "FILE")]
    pub egdb: Option<PathBuf>,
}

/// `kingme review`: fetches or reads the game, reviews it on a thread, and shows the review.
pub async fn review(global: &GlobalArgs, args: &ReviewArgs) -> anyhow::Result<()> {
    let record = match (&args.file, args.game) {
        (Some(path), _) => super::read_record(path)?,
        (None, Some(game)) => super::fetch(global, game).await?,
        (None, None) => bail!("name a game (its number in kingme history) or --file PATH"),
    };
    let args = args.clone();
    let flipped = super::seen_flipped(&record, super::my_name(global).as_deref());
    tokio::task::spawn_blocking(move || review_record(record, &args, flipped)).await?
}

/// Reviews a record and shows it (blocking: the review's thread, then the terminal), drawn
/// flipped when `flipped`.
fn review_record(record: GameRecord, args: &ReviewArgs, flipped: bool) -> anyhow::Result<()> {
    let time = match args.time {
        Some(seconds) if !(seconds > 0.0 && seconds <= MAX_TIME) => {
            bail!(
                "--time is the seconds per position, above 0 and at most {MAX_TIME}: got {seconds}"
            )
        }
        Some(seconds) => Some(Duration::from_secs_f64(seconds)),
        None if args.depth.is_none() => Some(DEFAULT_TIME),
        None => None,
    };
    let kind = record.kind();
    let egdb = match &args.egdb {
        Some(_) if !has_exact_results(kind) => {
            bail!("endgame databases are for checkers; leave out --egdb for {kind}")
        }
        Some(path) => Some(path.clone()),
        None if has_exact_results(kind) => crate::local::endgame_files::local(),
        None => None,
    };
    let positions = record.replay()?;
    let interactive = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    let job = compute::Job {
        start: positions[0].clone(),
        moves: record.moves.clone(),
        depth: args.depth,
        time,
        egdb,
        show_progress: std::io::stderr().is_terminal(),
    };
    let reviewed = compute::run(job)?;
    let title = super::replay::title_of(&record);
    if !interactive {
        std::io::stdout()
            .lock()
            .write_all(text::review_text(&title, &reviewed).as_bytes())?;
        return Ok(());
    }
    let mut board = ReviewBoard::new(title, reviewed, positions);
    board.flipped = flipped;
    show(board)
}

/// The review board, full screen, until q or Esc.
fn show(mut board: ReviewBoard) -> anyhow::Result<()> {
    let theme = Theme::ALL[0];
    let draw =
        |board: &ReviewBoard, frame: &mut ratatui::Frame<'_>| view::draw(board, frame, &theme);
    super::full_screen::run(&mut board, draw, |board, code| match go_of_key(code) {
        None => false,
        Some(go) => {
            if let Some(go) = go {
                board.go(go);
            }
            true
        }
    })
}
