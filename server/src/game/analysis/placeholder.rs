//! A stand-in for `kingme_shared::review::review_game` until the review core lands on this
//! branch (it is being written beside this one): the same signature, a plain engine pass (the
//! expert's search in each position, the move played compared by the score after it). Removed
//! when the real one is merged; never shipped.

use kingme_shared::AnyGame;
use kingme_shared::ai::egdb::Egdb;
use kingme_shared::ai::{Level, Limits, think};
use kingme_shared::review::{GameReview, MoveClass, PlyReview, ReviewBound, ReviewError};
use kingme_shared::side::Side;
use std::sync::Arc;

/// Reviews `moves` played from `start`, calling `progress(done, total)` after each position.
pub fn review_game(
    start: &AnyGame,
    moves: &[String],
    bound: &ReviewBound,
    egdb: Option<Arc<Egdb>>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameReview, ReviewError> {
    let limits = Limits {
        depth: bound.depth,
        time: bound.time_per_position,
        stop: bound.stop.clone(),
        egdb,
        ..Limits::default()
    };
    let first = |game: &AnyGame, score: i32| {
        if game.side_to_move() == Side::First {
            score
        } else {
            -score
        }
    };
    let mut game = start.clone();
    let mut plies = Vec::with_capacity(moves.len());
    let total = moves.len() + 1;
    let mut eval = think(&game, Level::Expert, &limits, 0).map_or(0, |r| first(&game, r.score));
    for (index, text) in moves.iter().enumerate() {
        if bound.stop.is_stopped() {
            return Err(ReviewError::Stopped);
        }
        let report = think(&game, Level::Expert, &limits, 0);
        let mover = game.side_to_move();
        let (best, best_squares) = match &report {
            Some(report) => (report.text.clone(), game.move_effect(&report.best).path),
            None => (String::new(), Vec::new()),
        };
        game.play_text(text).map_err(|err| ReviewError::Replay {
            number: index + 1,
            text: text.clone(),
            reason: err.to_string(),
        })?;
        let after = think(&game, Level::Expert, &limits, 0).map_or(eval, |r| first(&game, r.score));
        let sign = if mover == Side::First { 1 } else { -1 };
        let loss = ((eval - after) * sign).max(0);
        plies.push(PlyReview {
            mover,
            played: text.clone(),
            best,
            best_squares,
            eval_before: eval,
            eval_after: after,
            loss,
            class: match loss {
                0..=50 => MoveClass::Good,
                51..=150 => MoveClass::Inaccuracy,
                151..=400 => MoveClass::Mistake,
                _ => MoveClass::Blunder,
            },
            exact: None,
            missed_win: None,
        });
        eval = after;
        progress(index + 1, total);
    }
    Ok(GameReview {
        kind: start.kind(),
        plies,
        final_eval: eval,
    })
}
