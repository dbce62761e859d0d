//! Pente's wins in one and the points that make them: where a side would win at once (a five, or
//! the fifth pair), where it would make a four, where it would capture, all read from the line
//! words a window at a time. The threat search ([`super::pente_tss`]) and the candidate lists
//! build on them.

use super::pente_patterns::{for_each_point, windows_holding};
use crate::game::{Game, Side};
use crate::games::pente::{Board, CAPTURES_TO_WIN, Direction, Pente, Point};

/// A set of points as a bit row per board row (bit = column), as
/// [`super::pente_patterns::near_stones`] gives them.
pub type PointRows = [u32; 19];

fn insert(rows: &mut PointRows, point: Point) {
    rows[usize::from(point.row())] |= 1 << point.column();
}

/// Gathers points line by line: `pick` is given each line's words (`side`'s stones, the other
/// side's, the bits on the board) and answers with the bits of the points it wants.
fn points_by_line(board: &Board, side: Side, pick: impl Fn(u32, u32, u32) -> u32) -> PointRows {
    let mut rows = [0; 19];
    for direction in Direction::ALL {
        let masks = Board::line_masks(direction);
        let mine = board.lines(side, direction);
        let theirs = board.lines(side.opponent(), direction);
        for (line, ((&m, &t), &on_board)) in mine.iter().zip(theirs).zip(masks).enumerate() {
            if m == 0 {
                continue;
            }
            let mut bits = pick(m, t, on_board);
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                if let Some(point) = Board::point_on_line(direction, line, bit) {
                    insert(&mut rows, point);
                }
            }
        }
    }
    rows
}

/// The empty points of every five-point window on the board that holds exactly `stones` of
/// `side`'s stones and none of the other side's: with 4, the points where `side` makes five;
/// with 3, the points where it makes a four. Read from the line words, not point by point.
#[must_use]
pub fn window_points(board: &Board, side: Side, stones: u32) -> PointRows {
    points_by_line(board, side, |m, t, on_board| {
        if m.count_ones() < stones {
            return 0;
        }
        let starts = windows_holding(on_board, m, t, stones as usize);
        (starts | (starts << 1) | (starts << 2) | (starts << 3) | (starts << 4)) & !m
    })
}

/// The empty points where a stone of `side` would capture a pair (X O O and the point).
#[must_use]
pub fn capture_points(board: &Board, side: Side) -> PointRows {
    points_by_line(board, side, |m, t, on_board| {
        let empty = on_board & !(m | t);
        (empty & (t >> 1) & (t >> 2) & (m >> 3)) | (empty & (t << 1) & (t << 2) & (m << 3))
    })
}

/// The points where `side` would win at once if it were its move: a five, or captures bringing
/// it to ten stones. Read from the line words.
pub fn winning_points(game: &Pente, side: Side, out: &mut Vec<Point>) {
    out.clear();
    if game.outcome().is_some() {
        return;
    }
    let board = game.board();
    let mut rows = window_points(board, side, 4);
    let captured = game.captured_by(side);
    if captured + 4 >= CAPTURES_TO_WIN {
        // One pair wins from eight; from six only a point that takes two pairs at once.
        for_each_point(&capture_points(board, side), |point| {
            if captured + 2 * board.capture_rays(side, point).pairs() as u16 >= CAPTURES_TO_WIN {
                insert(&mut rows, point);
            }
        });
    }
    for_each_point(&rows, |point| out.push(point));
}

/// A winning move for the side to move, if there is one.
#[must_use]
pub fn win_in_one(game: &Pente) -> Option<Point> {
    let mut points = Vec::new();
    winning_points(game, game.side_to_move(), &mut points);
    points.into_iter().find(|&point| game.is_legal(point))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Pente {
        Pente::from_position_text(text).unwrap()
    }

    #[test]
    fn wins_in_one_are_fives_and_fifth_pairs() {
        let five = game("1:K10,L10,M10,N10,A3:A1,B1,C1,S19:0,0");
        let point = win_in_one(&five).unwrap().to_string();
        assert!(point == "J10" || point == "O10", "{point}");
        let pair = game("1:K10,F5,A3:G6,H7,A1:8,0");
        assert_eq!(win_in_one(&pair).unwrap().to_string(), "J8");
        assert_eq!(win_in_one(&game("1:K10,L10,A3:A1,S19:0,0")), None);
    }

    #[test]
    fn point_sets_agree_with_the_point_by_point_rules_on_random_boards() {
        use super::super::pente_patterns::{gain, wins_at};
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        let mut checked = 0;
        for round in 0..60 {
            let mut text_first = Vec::new();
            let mut text_second = Vec::new();
            let mut taken = std::collections::HashSet::new();
            for _ in 0..rng.random_range(10..90) {
                let p = Point::new(rng.random_range(0..19), rng.random_range(0..19)).unwrap();
                if taken.insert(p) {
                    if rng.random_bool(0.5) {
                        text_first.push(p.to_string());
                    } else {
                        text_second.push(p.to_string());
                    }
                }
            }
            let captured = [0, 4, 6, 8][round % 4];
            let text = format!(
                "1:{}:{}:{captured},{}",
                text_first.join(","),
                text_second.join(","),
                8 - captured
            );
            let Ok(g) = Pente::from_position_text(&text) else {
                continue;
            };
            if g.outcome().is_some() {
                continue;
            }
            checked += 1;
            let board = g.board();
            for side in [Side::First, Side::Second] {
                let set = |rows: PointRows| {
                    let mut points = Vec::new();
                    for_each_point(&rows, |p| points.push(p));
                    points
                };
                let empty: Vec<Point> = Point::all().filter(|&p| board.is_empty(p)).collect();
                let fours: Vec<Point> = empty
                    .iter()
                    .copied()
                    .filter(|&p| gain(board, side, p).fours > 0)
                    .collect();
                assert_eq!(set(window_points(board, side, 3)), fours, "{text}");
                let captures: Vec<Point> = empty
                    .iter()
                    .copied()
                    .filter(|&p| !board.capture_rays(side, p).is_empty())
                    .collect();
                assert_eq!(set(capture_points(board, side)), captures, "{text}");
                let wins: Vec<Point> = empty
                    .iter()
                    .copied()
                    .filter(|&p| wins_at(&g, side, p))
                    .collect();
                let mut found = Vec::new();
                winning_points(&g, side, &mut found);
                assert_eq!(found, wins, "{text} {side:?}");
            }
        }
        assert!(checked > 30, "{checked}");
    }
}
