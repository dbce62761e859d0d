//! The review itself: the record replayed by the rules, every position before a move searched
//! once by the expert within the bound, and each move compared with the best move found.
//!
//! The evaluation after a move is the next position's search, negated, so no position is
//! searched twice. A position with one legal move is not searched (the expert answers it without
//! looking): it is worth what the position after its only move is worth. A finished game's last
//! position is worth its result.

use super::class::{Standing, Thresholds};
use super::exact::exact_result;
use super::missed::forced_win;
use super::{Exact, GameReview, MoveClass, PlyReview, ReviewBound, ReviewError};
use crate::AnyGame;
use crate::ai::egdb::Egdb;
use crate::ai::{Level, Limits, MATE, ThinkOptions, think_with};
use crate::any_game::AnyMove;
use crate::side::Side;
use std::sync::Arc;

/// Reviews the game that starts at `start` and goes on with `moves` (in the game's notation):
/// every move with the engine's best move in its place, the evaluations before and after it,
/// and its mark. `egdb`, for checkers, gives exact results and exact scores in the search.
/// `progress(done, total)` is called after each position (`total` counts every position, the
/// last included).
///
/// CPU-heavy (one search per position within the bound): run it off any async reactor.
pub fn review_game(
    start: &AnyGame,
    moves: &[String],
    bound: &ReviewBound,
    egdb: Option<Arc<Egdb>>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameReview, ReviewError> {
    let (positions, played) = replay(start, moves)?;
    let kind = start.kind();
    let thresholds = Thresholds::of(kind);
    let limits = Limits {
        depth: bound.depth,
        time: bound.time_per_position,
        stop: bound.stop.clone(),
        egdb: egdb.clone(),
        no_book: true,
        ..Limits::default()
    };
    let total = positions.len();
    // Each position's evaluation from the first side's point of view (`None`: one legal move,
    // filled in from the next), its best move, and its exact result.
    let mut evals: Vec<Option<i32>> = Vec::with_capacity(total);
    let mut bests: Vec<Option<AnyMove>> = Vec::with_capacity(total);
    let mut exacts: Vec<Option<Exact>> = Vec::with_capacity(total);
    for (index, game) in positions.iter().enumerate() {
        if bound.stop.is_stopped() {
            return Err(ReviewError::Stopped);
        }
        exacts.push(exact_result(game, egdb.as_deref()));
        let (eval, best) = if let Some(outcome) = game.outcome() {
            let eval = match outcome.winner() {
                Some(Side::First) => MATE,
                Some(Side::Second) => -MATE,
                None => 0,
            };
            (Some(eval), None)
        } else {
            let legal = game.legal_moves();
            match legal.as_slice() {
                [only] => (None, Some(*only)),
                _ => {
                    let report =
                        think_with(game, Level::Expert, &limits, 0, &ThinkOptions::default())
                            .ok_or(ReviewError::Stopped)?;
                    if bound.stop.is_stopped() {
                        return Err(ReviewError::Stopped);
                    }
                    (
                        Some(for_first(game.side_to_move(), report.score)),
                        Some(report.best),
                    )
                }
            }
        };
        evals.push(eval);
        bests.push(best);
        progress(index + 1, total);
    }
    let evals = fill_forced(&evals);
    let mut plies = Vec::with_capacity(played.len());
    for (index, mv) in played.iter().enumerate() {
        let game = &positions[index];
        let mover = game.side_to_move();
        let best = bests[index].unwrap_or(*mv);
        let (before, after) = (evals[index], evals[index + 1]);
        let standing = |eval: i32, exact: Option<Exact>| {
            exact.map_or_else(|| thresholds.standing(eval), Exact::standing)
        };
        let mine = |eval: i32| for_first(mover, eval);
        let standing_before = standing(mine(before), exacts[index]);
        let standing_after = standing(mine(after), exacts[index + 1].map(Exact::flipped));
        let only_move = game.legal_moves().len() == 1;
        let loss = if best == *mv || only_move {
            0
        } else {
            (mine(before) - mine(after)).max(0)
        };
        let class = if only_move {
            MoveClass::Good
        } else {
            thresholds.classify(loss, standing_before, standing_after)
        };
        let missed_win = forced_win(game)
            .filter(|first| *first != game.move_text(mv) && standing_after != Standing::Won);
        plies.push(PlyReview {
            mover,
            played: game.move_text(mv),
            best: game.move_text(&best),
            best_squares: game.move_effect(&best).path,
            eval_before: before,
            eval_after: after,
            loss,
            class,
            exact: exacts[index],
            missed_win,
        });
    }
    Ok(GameReview {
        kind,
        plies,
        final_eval: evals[evals.len() - 1],
    })
}

/// Every position of the game, the start first, and the moves read in them; a move the rules
/// refuse is an error that names it.
fn replay(start: &AnyGame, moves: &[String]) -> Result<(Vec<AnyGame>, Vec<AnyMove>), ReviewError> {
    let mut game = start.clone();
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut played = Vec::with_capacity(moves.len());
    positions.push(game.clone());
    for (index, text) in moves.iter().enumerate() {
        let refused = |reason: String| ReviewError::Replay {
            number: index + 1,
            text: text.clone(),
            reason,
        };
        let mv = game
            .parse_move(text)
            .map_err(|err| refused(err.to_string()))?;
        game.play(&mv).map_err(|err| refused(err.to_string()))?;
        played.push(mv);
        positions.push(game.clone());
    }
    Ok((positions, played))
}

/// A score for `side` seen from the first side.
fn for_first(side: Side, score: i32) -> i32 {
    match side {
        Side::First => score,
        Side::Second => -score,
    }
}

/// The evaluations with each forced position's filled in from the position after it (the last
/// position is always evaluated: it is finished or has more than one move, or none to fill
/// from, then 0).
fn fill_forced(evals: &[Option<i32>]) -> Vec<i32> {
    let mut filled = vec![0; evals.len()];
    let mut next = 0;
    for (index, eval) in evals.iter().enumerate().rev() {
        next = eval.unwrap_or(next);
        filled[index] = next;
    }
    filled
}
