//! The review on games with known blunders, each confirmed by the rules alone: a checkers shot,
//! a Pente win by an open three left unplayed, a noughts-and-crosses draw thrown away, and the
//! endgame database's exact results in a checkers ending.

use super::*;
use crate::ai::egdb::index::{Counts, position_at};
use crate::ai::egdb::{Egdb, Verdict, encode, solve};
use crate::ai::score::MATE_BOUND;
use crate::board_view::PieceKind;
use crate::game::Game;
use crate::games::checkers::Checkers;
use crate::{AnyGame, GameKind};
use std::sync::Arc;

fn bound(depth: u32) -> ReviewBound {
    ReviewBound {
        depth: Some(depth),
        time_per_position: None,
        stop: StopFlag::default(),
    }
}

fn moves(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|&text| text.to_owned()).collect()
}

/// Reviews the game and checks what every review must hold: one entry per move, each best move
/// legal where it stands, the best move itself never marked, the progress counted to the end.
fn reviewed(start: &AnyGame, played: &[String], depth: u32, egdb: Option<Arc<Egdb>>) -> GameReview {
    let mut calls = Vec::new();
    let review = review_game(start, played, &bound(depth), egdb, &mut |done, total| {
        calls.push((done, total));
    })
    .unwrap();
    let total = played.len() + 1;
    assert_eq!(
        calls,
        (1..=total).map(|done| (done, total)).collect::<Vec<_>>()
    );
    assert_eq!(review.plies.len(), played.len());
    let mut game = start.clone();
    for (ply, text) in review.plies.iter().zip(played) {
        let best = game.parse_move(&ply.best).unwrap();
        assert_eq!(ply.best_squares, game.move_effect(&best).path);
        assert_eq!(ply.mover, game.side_to_move());
        if ply.best == ply.played {
            assert_eq!((ply.loss, ply.class), (0, MoveClass::Good), "{ply:?}");
        }
        game.play_text(text).unwrap();
    }
    review
}

/// The material (a man 1, a king 2) the side to move can be sure of `plies` ahead, captures
/// always followed to their end, by the rules alone.
fn material_ahead(game: &Checkers, plies: u32) -> i32 {
    if let Some(outcome) = game.outcome() {
        return if outcome.winner() == Some(game.side_to_move()) {
            100
        } else {
            -100
        };
    }
    let moves = game.legal_moves();
    if plies == 0 && !moves.iter().any(|mv| mv.is_capture()) {
        let mut count = 0;
        for square in 1..=32 {
            if let Some(piece) = game.piece_on(square) {
                let worth = if piece.kind == PieceKind::King { 2 } else { 1 };
                count += if piece.side == game.side_to_move() {
                    worth
                } else {
                    -worth
                };
            }
        }
        return count;
    }
    moves
        .iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play(mv).unwrap();
            -material_ahead(&next, plies.saturating_sub(1))
        })
        .max()
        .unwrap()
}

#[test]
fn a_checkers_shot_is_a_blunder_and_the_best_move_avoids_it() {
    // Black to move, even material: 6-9 lets White give a man and take two; every other move
    // keeps the balance, as the rules alone confirm five plies on.
    let fen = "B:W15,17,18,24,25,28,29,32:B1,2,4,6,7,8,11,12";
    let checkers = Checkers::from_position_text(fen).unwrap();
    let after = |text: &str| {
        let mut next = checkers.clone();
        next.play(&checkers.parse_move(text).unwrap()).unwrap();
        -material_ahead(&next, 5)
    };
    assert_eq!(after("6-9"), -1);
    for other in ["1-5", "6-10", "7-10", "11-16", "12-16"] {
        assert_eq!(after(other), 0, "{other}");
    }
    let start = AnyGame::Checkers(checkers);
    let review = reviewed(&start, &moves(&["6-9"]), 8, None);
    let shot = &review.plies[0];
    assert_eq!(shot.class, MoveClass::Blunder, "{shot:?}");
    assert_ne!(shot.best, "6-9");
    assert!(shot.loss >= 100, "{shot:?}");
    assert!(review.final_eval <= -70, "White is a man up: {review:?}");
    assert_eq!(shot.exact, None);
    assert_eq!(shot.missed_win, None);
}

#[test]
fn a_pente_win_left_unplayed_is_named_and_marked() {
    // The first player's open three on row 10: a stone at either end makes an open four, which
    // no answer stops. It plays far away instead; the second player then blocks.
    let start =
        AnyGame::from_position_text(GameKind::Pente, "1:K10,L10,M10:B18,D18,F18:0,0").unwrap();
    let played = moves(&["B2", "N10"]);
    let review = reviewed(&start, &played, 3, None);
    let missed = &review.plies[0];
    let first = missed
        .missed_win
        .as_deref()
        .unwrap_or_else(|| panic!("{missed:?}"));
    assert!(["J10", "N10"].contains(&first), "{missed:?}");
    assert_eq!(missed.class, MoveClass::Blunder, "{missed:?}");
    assert!(missed.eval_before > MATE_BOUND, "{missed:?}");
    assert!(missed.eval_after < MATE_BOUND, "{missed:?}");
    // The block is the second player's best (or as good), and misses nothing.
    let block = &review.plies[1];
    assert_eq!(block.missed_win, None, "{block:?}");
    assert_ne!(block.class, MoveClass::Blunder, "{block:?}");
}

#[test]
fn a_noughts_and_crosses_draw_thrown_away_is_a_blunder() {
    // Crosses takes the centre; noughts answers on an edge, which loses (a corner draws).
    let start = AnyGame::start(GameKind::TicTacToe);
    let review = reviewed(&start, &moves(&["5", "2", "1"]), 9, None);
    let [centre, edge, attack] = &review.plies[..] else {
        panic!("three plies: {review:?}");
    };
    assert_eq!(centre.class, MoveClass::Good, "{centre:?}");
    assert_eq!(centre.eval_after, 0);
    assert_eq!(edge.class, MoveClass::Blunder, "{edge:?}");
    assert!(
        ["1", "3", "7", "9"].contains(&edge.best.as_str()),
        "{edge:?}"
    );
    assert_eq!(edge.eval_before, 0);
    assert!(edge.eval_after > MATE_BOUND, "crosses now wins: {edge:?}");
    assert!(attack.eval_after > MATE_BOUND, "{attack:?}");
}

#[test]
fn the_endgame_databases_exact_result_appears_in_an_ending() {
    let db = Arc::new(Egdb::parse(encode(&solve(3, |_| {}))).unwrap());
    // Two black kings against one white king, Black to move: won for Black.
    let fen = "B:WK29:BK10,K19";
    let mut game = AnyGame::from_position_text(GameKind::Checkers, fen).unwrap();
    let start = game.clone();
    let mut played = Vec::new();
    for _ in 0..4 {
        let text = game.legal_move_texts()[0].clone();
        game.play_text(&text).unwrap();
        played.push(text);
    }
    let review = reviewed(&start, &played, 4, Some(db.clone()));
    let mut game = start;
    for (ply, text) in review.plies.iter().zip(&played) {
        let AnyGame::Checkers(checkers) = &game else {
            unreachable!()
        };
        let verdict = db.verdict(checkers.position()).unwrap();
        assert_eq!(
            ply.exact.map(Exact::name),
            Some(format!("{verdict:?}").to_lowercase()).as_deref()
        );
        game.play_text(text).unwrap();
    }
    assert_eq!(review.plies[0].exact, Some(Exact::Win));
    // A move that lets the database's win slip is a blunder, whatever the evaluation says (in
    // a won ending the expert's search converts by the evaluation, so its numbers stay small).
    let slice = Counts {
        black_men: 0,
        black_kings: 2,
        white_men: 0,
        white_kings: 1,
    };
    let (position, slip) = (0..slice.entries())
        .filter_map(|index| position_at(slice, index))
        .filter(|position| db.verdict(position) == Some(Verdict::Win))
        .find_map(|position| {
            let checkers = Checkers::from_position(position);
            let slip = checkers
                .legal_moves()
                .into_iter()
                .find(|mv| db.verdict(&position.after(mv)) != Some(Verdict::Loss))?;
            Some((checkers.clone(), checkers.move_text(&slip)))
        })
        .unwrap();
    let thrown = reviewed(&AnyGame::Checkers(position), &[slip], 4, Some(db));
    let thrown = &thrown.plies[0];
    assert_eq!(thrown.exact, Some(Exact::Win));
    assert_eq!(thrown.class, MoveClass::Blunder, "{thrown:?}");
}

#[test]
fn a_raised_stop_flag_abandons_the_review() {
    let start = AnyGame::start(GameKind::Checkers);
    let played = moves(&["11-15", "23-19", "8-11", "22-17"]);
    let stop = StopFlag::default();
    let bound = ReviewBound {
        depth: Some(6),
        time_per_position: None,
        stop: stop.clone(),
    };
    let mut done_before_stop = 0;
    let result = review_game(&start, &played, &bound, None, &mut |done, _| {
        done_before_stop = done;
        stop.stop();
    });
    assert_eq!(result, Err(ReviewError::Stopped));
    assert_eq!(done_before_stop, 1);
}

#[test]
fn a_move_the_rules_refuse_is_named() {
    let start = AnyGame::start(GameKind::TicTacToe);
    let result = review_game(&start, &moves(&["5", "5"]), &bound(2), None, &mut |_, _| {});
    let Err(ReviewError::Replay { number, text, .. }) = result else {
        panic!("{result:?}");
    };
    assert_eq!((number, text.as_str()), (2, "5"));
}
