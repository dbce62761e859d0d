//! Running the review: on a thread of its own (never an async reactor), with a progress bar
//! of positions searched on standard error, and the endgame database opened there too (its
//! checksum reads the whole file).

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use kingme_shared::AnyGame;
use kingme_shared::ai::StopFlag;
use kingme_shared::ai::egdb::Egdb;
use kingme_shared::review::{GameReview, ReviewBound, review_game};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The time per position when neither `--depth` nor `--time` is given (and in the client's
/// review board).
pub const DEFAULT_TIME: Duration = Duration::from_millis(250);

/// What to review and how hard.
#[derive(Debug, Clone)]
pub struct Job {
    /// The start position.
    pub start: AnyGame,
    /// The moves played from it.
    pub moves: Vec<String>,
    /// The deepest search per position, if limited.
    pub depth: Option<u32>,
    /// The time per position, if limited.
    pub time: Option<Duration>,
    /// A checkers endgame database file to consult.
    pub egdb: Option<PathBuf>,
    /// Whether to draw the progress bar.
    pub show_progress: bool,
}

/// Reviews the game on a new thread and waits for it, drawing the progress meanwhile.
pub fn run(job: Job) -> anyhow::Result<GameReview> {
    let worker = std::thread::Builder::new()
        .name("review".to_owned())
        .spawn(move || review(&job))
        .context("cannot start the review's thread")?;
    worker
        .join()
        .map_err(|_| anyhow::anyhow!("the review's thread failed"))?
}

/// The review itself, on the calling thread, with the progress bar on standard error.
fn review(job: &Job) -> anyhow::Result<GameReview> {
    let bar = if job.show_progress {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("reviewing [{bar:30}] {pos}/{len} positions, {eta} left")
            .context("the progress style")?
            .progress_chars("=> "),
    );
    let reviewed = review_with(job, StopFlag::default(), &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    reviewed
}

/// The review on the calling thread (a thread of its own: it is CPU-heavy), telling
/// `progress` (positions done, positions in all) as it goes and ending early, with
/// [`kingme_shared::review::ReviewError::Stopped`], once `stop` is raised. The endgame database
/// is opened here too.
pub fn review_with(
    job: &Job,
    stop: StopFlag,
    progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<GameReview> {
    let egdb: Option<Arc<Egdb>> = job
        .egdb
        .as_deref()
        .map(|path| {
            kingme_shared::ai::egdb::open(path)
                .with_context(|| format!("cannot use the endgame database {}", path.display()))
        })
        .transpose()?;
    let bound = ReviewBound {
        depth: job.depth,
        time_per_position: job.time,
        stop,
    };
    Ok(review_game(&job.start, &job.moves, &bound, egdb, progress)?)
}
