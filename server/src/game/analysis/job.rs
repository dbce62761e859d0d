//! One analysis running: the review on a blocking thread (never on the reactor), its progress
//! passed on at most [`PROGRESS_EVERY`], its answer at the end, and its stop flag raised when the
//! [`Running`] handle is dropped (the connection that asked went away, or the server stops).
//! It holds its slot of the server's cap ([`tokio::sync::OwnedSemaphorePermit`]) until the
//! search has really ended, not merely until nobody waits for it.

use kingme_shared::AnyGame;
use kingme_shared::ai::StopFlag;
use kingme_shared::ai::egdb::Egdb;
use kingme_shared::protocol::GameId;
use kingme_shared::review::review_game;
use kingme_shared::review::{GameReview, ReviewBound, ReviewError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, mpsc};

/// The least time between two progress reports.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// What a running analysis tells its asker.
#[derive(Debug)]
pub enum Event {
    /// `done` of `total` positions searched.
    Progress {
        /// Positions searched.
        done: u32,
        /// Positions in all.
        total: u32,
    },
    /// The review, or why there is none.
    Finished(Result<GameReview, ReviewError>),
}

/// What an analysis reviews.
#[derive(Debug)]
pub struct Work {
    /// The game's id, for the log.
    pub game: GameId,
    /// The position the game started from.
    pub start: AnyGame,
    /// Every move played, in order.
    pub moves: Vec<String>,
    /// The search per position.
    pub depth: Option<u32>,
    /// The time per position.
    pub time_per_position: Option<Duration>,
}

/// An analysis in progress, owned by the connection that asked for it.
#[derive(Debug)]
pub struct Running {
    /// The game being reviewed.
    pub game: GameId,
    events: mpsc::Receiver<Event>,
    stop: StopFlag,
}

impl Running {
    /// Starts `work` on the blocking pool, holding `slot` until it ends.
    #[must_use]
    pub fn start(work: Work, egdb: Option<Arc<Egdb>>, slot: OwnedSemaphorePermit) -> Running {
        let stop = StopFlag::default();
        // Progress may be dropped when the asker is slow; the answer never is.
        let (sender, events) = mpsc::channel(4);
        let bound = ReviewBound {
            depth: work.depth,
            time_per_position: work.time_per_position,
            stop: stop.clone(),
        };
        let game = work.game;
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let started = Instant::now();
            let mut last = started;
            let mut progress = |done: usize, total: usize| {
                if last.elapsed() >= PROGRESS_EVERY {
                    last = Instant::now();
                    let _ = sender.try_send(Event::Progress {
                        done: u32::try_from(done).unwrap_or(u32::MAX),
                        total: u32::try_from(total).unwrap_or(u32::MAX),
                    });
                }
            };
            let result = review_game(&work.start, &work.moves, &bound, egdb, &mut progress);
            tracing::info!(
                game = %work.game,
                moves = work.moves.len(),
                seconds = started.elapsed().as_secs_f64(),
                outcome = match &result {
                    Ok(_) => "reviewed".to_owned(),
                    Err(err) => err.to_string(),
                },
                "analysis ended"
            );
            let _ = sender.blocking_send(Event::Finished(result));
        });
        Running { game, events, stop }
    }

    /// The next event; `None` once the run is over without an answer (its thread panicked).
    pub async fn next(&mut self) -> Option<Event> {
        self.events.recv().await
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// The next word of the running analysis, with its game; never, without one (for a `select!`
/// over a connection's other business).
pub async fn next_event(running: &mut Option<Running>) -> (GameId, Option<Event>) {
    match running {
        Some(running) => (running.game, running.next().await),
        None => std::future::pending().await,
    }
}
