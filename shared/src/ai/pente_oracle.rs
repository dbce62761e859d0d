//! Test-only Pente facts computed from the rules alone: every legal move is played with
//! [`Game::play`] and the outcome read back, so what the engine's search claims can be checked
//! against something that shares none of its code (no candidate lists, no patterns, no threat
//! detection). Slow by design (a few hundred thousand moves a question) and exact.

use crate::game::{Game, Outcome, Side};
use crate::games::pente::{Pente, Point};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// Whether the last move won for `side`.
fn won_by(game: &Pente, side: Side) -> bool {
    matches!(game.outcome(), Some(Outcome::Win { winner, .. }) if winner == side)
}

/// The legal moves that win at once for the side to move. Only points next to a stone are tried:
/// a five through a point holds a stone of the mover's next to it, and a capture takes a pair
/// next to it.
pub fn winning_moves(game: &Pente) -> Vec<Point> {
    let us = game.side_to_move();
    let next_to_a_stone = |point: &Point| {
        (-1..=1).any(|rows| {
            (-1..=1).any(|columns| {
                point
                    .offset(rows, columns)
                    .is_some_and(|other| game.board().stone_at(other).is_some())
            })
        })
    };
    game.legal_moves()
        .into_iter()
        .filter(next_to_a_stone)
        .filter(|point| {
            let mut after = game.clone();
            after.play(point).is_ok() && won_by(&after, us)
        })
        .collect()
}

/// The same stones and captures with the other side to move.
pub fn with_turn_passed(game: &Pente) -> Pente {
    let text = game.position_text();
    let turned = match text.split_at(1) {
        ("1", rest) => format!("2{rest}"),
        (_, rest) => format!("1{rest}"),
    };
    Pente::from_position_text_with_rules(&turned, game.rules()).expect("a position text")
}

/// The points where the opponent of the side to move would win at once if it were its move.
pub fn threats(game: &Pente) -> Vec<Point> {
    winning_moves(&with_turn_passed(game))
}

/// The legal moves after which the opponent cannot win at once (or that win themselves): every
/// other move loses on the spot.
pub fn saving_moves(game: &Pente) -> Vec<Point> {
    let us = game.side_to_move();
    game.legal_moves()
        .into_iter()
        .filter(|point| {
            let mut after = game.clone();
            after.play(point).is_ok() && (won_by(&after, us) || winning_moves(&after).is_empty())
        })
        .collect()
}

/// Whether `first` wins by force within three plies: it wins at once, or after every legal
/// reply the side that played it has a winning move.
pub fn wins_within_three(game: &Pente, first: Point) -> bool {
    let us = game.side_to_move();
    let mut after = game.clone();
    if after.play(&first).is_err() {
        return false;
    }
    if won_by(&after, us) {
        return true;
    }
    after.legal_moves().into_iter().all(|reply| {
        let mut answered = after.clone();
        answered.play(&reply).is_ok()
            && answered.outcome().is_none()
            && !winning_moves(&answered).is_empty()
    })
}

/// A position reached by random legal play inside the 7 x 7 square round the centre (free
/// opening rules), so that stones crowd together and fours, captures and threats are common.
/// `None` when the game ended before `plies` moves.
pub fn crowded_position(plies: usize, rng: &mut StdRng) -> Option<Pente> {
    let mut game = Pente::with_rules(crate::games::pente::PenteRules::FREE);
    for _ in 0..plies {
        let near: Vec<Point> = game
            .legal_moves()
            .into_iter()
            .filter(|point| point.distance(Point::CENTRE) <= 3)
            .collect();
        let point = *near.choose(rng)?;
        game.play(&point).ok()?;
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(game)
}
