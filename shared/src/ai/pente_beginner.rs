//! The classic beginner for Pente: a priority board. Every empty point is scored by rules taken in
//! order of urgency, each worth more than everything below it together: win now, capture a pair,
//! block the opponent's four, save a pair of your own from capture, extend your best line (the
//! "strategy line"), play next to your own stones. When nothing scores, the point nearest the
//! centre is played. Ties are broken at random.

use super::pente_patterns::{gain, wins_at};
use crate::game::{Game, Side};
use crate::games::pente::{Direction, Pente, Point};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// The weight of each rule, highest first.
const WIN: i64 = 1 << 50;
const CAPTURE: i64 = 1 << 40;
const BLOCK_FOUR: i64 = 1 << 34;
const SAVE_PAIR: i64 = 1 << 28;
const STRATEGY_LINE: i64 = 1 << 12;
const NEIGHBOUR: i64 = 1 << 8;

/// The priority score of one empty point for the side to move.
#[must_use]
pub fn priority(game: &Pente, point: Point) -> i64 {
    let board = game.board();
    let us = game.side_to_move();
    let them = us.opponent();
    let mut score = 0;
    if wins_at(game, us, point) {
        score += WIN;
    }
    score += CAPTURE * i64::from(board.capture_rays(us, point).pairs());
    if gain(board, them, point).five {
        score += BLOCK_FOUR;
    }
    score += SAVE_PAIR * i64::from(board.capture_rays(them, point).pairs());
    score += STRATEGY_LINE * i64::from(longest_line(game, us, point));
    score += NEIGHBOUR * neighbours(game, us, point);
    if score == 0 {
        // Nothing to do: the nearer the centre the better (distance 0..9 gives 9..0).
        score = 9 - i64::from(point.distance(Point::CENTRE));
    }
    score
}

/// The longest run of `side`'s stones that a stone on `point` would be part of.
fn longest_line(game: &Pente, side: Side, point: Point) -> u32 {
    let board = game.board();
    Direction::ALL
        .iter()
        .map(|&direction| {
            let window = board.window(side, direction, point);
            let with = window.mine | (1 << 4);
            // The run through the centre bit.
            let up = (!(with >> 4)).trailing_zeros();
            let down = (!(u32::from(with) << (31 - 4))).leading_zeros();
            up + down - 1
        })
        .max()
        .unwrap_or(1)
}

/// How many of the eight neighbours hold `side`'s stones.
fn neighbours(game: &Pente, side: Side, point: Point) -> i64 {
    let mut count = 0;
    for rows in -1..=1 {
        for columns in -1..=1 {
            if (rows, columns) != (0, 0)
                && point
                    .offset(rows, columns)
                    .is_some_and(|p| game.board().stone_at(p) == Some(side))
            {
                count += 1;
            }
        }
    }
    count
}

/// The beginner's move: the legal point with the highest priority, at random among equals.
pub fn choose(game: &Pente, rng: &mut StdRng) -> Option<(Point, i64)> {
    let legal = game.legal_moves();
    let scored: Vec<(i64, Point)> = legal.iter().map(|&p| (priority(game, p), p)).collect();
    let best = scored.iter().map(|&(score, _)| score).max()?;
    let ties: Vec<Point> = scored
        .iter()
        .filter(|&&(score, _)| score == best)
        .map(|&(_, p)| p)
        .collect();
    ties.choose(rng).map(|&p| (p, best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn check(text: &str, expected: &[&str]) {
        let game = Pente::from_position_text(text).unwrap();
        for seed in 0..8 {
            let (point, _) = choose(&game, &mut StdRng::seed_from_u64(seed)).unwrap();
            assert!(
                expected.contains(&point.to_string().as_str()),
                "{text}: played {point}, expected one of {expected:?}"
            );
        }
    }

    #[test]
    fn the_priorities_are_taken_in_order() {
        // Win now beats capturing: first player has four on row 10 and a capture on offer.
        check("1:K10,L10,M10,N10,F5:A1,G6,H7,B1:0,0", &["J10", "O10"]);
        // The second player's four on row 3 must be blocked when there is nothing better.
        check("1:K10,C5,D7:C3,D3,E3,F3:0,0", &["B3", "G3"]);
        // A capture: the pair G6-H7 flanked by F5 can be taken on J8.
        check("1:K10,F5:G6,H7,A1:0,0", &["J8"]);
        // Save a threatened pair: second player threatens K10-L10 from N10 (J10 holds its stone).
        check("1:K10,L10,A3:J10,A1:0,0", &["M10"]);
        // Nothing else: extend the longest line.
        check("1:K10,L10,A3:S19,A1:0,0", &["J10", "M10"]);
    }
}
