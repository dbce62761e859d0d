//! The review board inside the full-screen client (issue 32): `v` on a finished game looks at
//! every move with the engine's eye, as `kingme review` does, without leaving the client. The
//! review runs on a thread of its own (never the async reactor) and tells its progress through
//! two counters the screen reads; each tick collects its result; Esc or q goes back to where
//! the person was, and raises the stop flag of a review still running.

use super::App;
use crate::archive::replay::Step;
use crate::archive::review::board::{Go, ReviewBoard};
use crate::archive::review::compute::{DEFAULT_TIME, Job, review_with};
use crate::game::words::result_sentence;
use crate::tui::keys::Action;
use kingme_shared::AnyGame;
use kingme_shared::ai::StopFlag;
use kingme_shared::protocol::GameId;
use kingme_shared::review::{GameReview, has_exact_results};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// The review board over the screens: being computed, or shown.
#[derive(Debug)]
pub enum ReviewScreen {
    /// The review is running on its thread.
    Computing(Computing),
    /// The review board.
    Shown(Box<ReviewBoard>),
}

/// A review running on its thread. Dropping it (the person left) raises its stop flag.
#[derive(Debug)]
pub struct Computing {
    /// The game reviewed.
    pub game: GameId,
    title: String,
    positions: Vec<AnyGame>,
    /// The board the way round the game screen had it.
    flipped: bool,
    /// Positions searched, and positions in all (0 until the review has started).
    progress: Arc<[AtomicUsize; 2]>,
    stop: StopFlag,
    result: Receiver<anyhow::Result<GameReview>>,
}

impl Computing {
    /// Positions searched so far, and positions in all (0 before the first is searched).
    #[must_use]
    pub fn progress(&self) -> (usize, usize) {
        (
            self.progress[0].load(Ordering::Relaxed),
            self.progress[1].load(Ordering::Relaxed),
        )
    }
}

impl Drop for Computing {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

impl App {
    /// `v`: reviews the finished game on the table, on a thread of its own.
    pub(super) fn open_review_board(&mut self) {
        let Some(table) = &self.table else { return };
        let Some(result) = table.result() else {
            self.complain("the review board is for finished games: finish this one first");
            return;
        };
        let moves: Vec<String> = table.moves.iter().map(|m| m.text.clone()).collect();
        let mut positions = vec![table.start.clone()];
        let mut position = table.start.clone();
        for text in &moves {
            if let Err(err) = position.play_text(text) {
                self.complain(format!(
                    "cannot review game {}: move {text}: {err}",
                    table.id
                ));
                return;
            }
            positions.push(position.clone());
        }
        let kind = table.kind;
        let job = Job {
            start: table.start.clone(),
            moves,
            depth: None,
            time: Some(DEFAULT_TIME),
            // The endgame database `kingme review` would use.
            egdb: if has_exact_results(kind) {
                crate::local::endgame_files::local()
            } else {
                None
            },
            show_progress: false,
        };
        let progress: Arc<[AtomicUsize; 2]> = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let stop = StopFlag::default();
        let (sender, receiver) = channel();
        let worker = {
            let (progress, stop) = (Arc::clone(&progress), stop.clone());
            std::thread::Builder::new()
                .name("review".to_owned())
                .spawn(move || {
                    let reviewed = review_with(&job, stop, &mut |done, total| {
                        progress[1].store(total, Ordering::Relaxed);
                        progress[0].store(done, Ordering::Relaxed);
                    });
                    // The person may have left: then nobody waits for the result.
                    let _ = sender.send(reviewed);
                })
        };
        if let Err(err) = worker {
            self.complain(format!("cannot start the review's thread: {err}"));
            return;
        }
        let (game, flipped) = (table.id, table.flipped);
        self.say(format!("reviewing game {game} (Esc stops)"));
        self.review_screen = Some(ReviewScreen::Computing(Computing {
            game,
            title: format!("game {game} — {}", result_sentence(kind, result)),
            positions,
            flipped,
            progress,
            stop,
            result: receiver,
        }));
    }

    /// A key on the review board (or on its progress): steps, the next mistake, or back.
    pub(super) fn review_board_key(&mut self, action: Option<Action>) {
        let go = match action {
            Some(Action::Cancel) => {
                if matches!(self.review_screen, Some(ReviewScreen::Computing(_))) {
                    self.say("review stopped");
                } else {
                    self.say("back from the review board (v opens it again)");
                }
                self.review_screen = None;
                return;
            }
            Some(Action::ReviewForward) => Go::Step(Step::Forward),
            Some(Action::ReviewBack) => Go::Step(Step::Back),
            Some(Action::ReviewStart) => Go::Step(Step::Start),
            Some(Action::ReviewEnd) => Go::Step(Step::End),
            Some(Action::NextMistake) => Go::NextMistake,
            _ => return,
        };
        if let Some(ReviewScreen::Shown(board)) = &mut self.review_screen {
            board.go(go);
        }
    }

    /// On each tick: the review's result, if it has come.
    pub(super) fn collect_review(&mut self) {
        let Some(ReviewScreen::Computing(computing)) = &self.review_screen else {
            return;
        };
        let result = match computing.result.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err(anyhow::anyhow!("the review's thread failed")),
        };
        self.show_review(result);
    }

    /// Waits for the review being computed, then shows it (or says why it failed): for tests
    /// and scripts, which cannot wait for ticks. Does nothing when no review is running.
    pub fn wait_for_review(&mut self) {
        let Some(ReviewScreen::Computing(computing)) = &self.review_screen else {
            return;
        };
        let result = computing
            .result
            .recv()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the review's thread failed")));
        self.show_review(result);
    }

    fn show_review(&mut self, result: anyhow::Result<GameReview>) {
        let Some(ReviewScreen::Computing(computing)) = self.review_screen.take() else {
            return;
        };
        match result {
            Ok(review) => {
                let game = computing.game;
                let mut board =
                    ReviewBoard::new(computing.title.clone(), review, computing.positions.clone());
                board.flipped = computing.flipped;
                self.review_screen = Some(ReviewScreen::Shown(Box::new(board)));
                self.say(format!("the review of game {game}: Esc or q goes back"));
            }
            Err(err) => self.complain(format!(
                "cannot review game {}: {err:#}; press v to try again",
                computing.game
            )),
        }
    }
}
