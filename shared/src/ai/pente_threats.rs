//! Pente's forced-win check, before any search: a win in one (a five, or the fifth pair), and a
//! win in two (a move after which every reply still leaves a win in one: a double four, an open
//! four, a four that also threatens the fifth pair).
//!
//! Only replies that can matter are tried: a point where the threatened win would be made, a
//! capture (it may take stones out of the line), or a win of the opponent's own. Any other reply
//! leaves every winning point as it was, so the check is exact while trying a handful of replies.

use super::pente_patterns::{for_each_point, near_stones, wins_at};
use crate::game::{Game, Side};
use crate::games::pente::{Pente, Point};

/// The legal points where `side` would win at once if it were its move: a five needs a stone of
/// its own next to the point, a capture a stone of the opponent's, so the points next to stones
/// are all there is to look at.
pub fn winning_points(game: &Pente, side: Side, out: &mut Vec<Point>) {
    out.clear();
    if game.outcome().is_some() {
        return;
    }
    for_each_point(&near_stones(game.board(), 1), |point| {
        if wins_at(game, side, point) {
            out.push(point);
        }
    });
}

/// A winning move for the side to move, if there is one.
#[must_use]
pub fn win_in_one(game: &Pente) -> Option<Point> {
    let mut points = Vec::new();
    winning_points(game, game.side_to_move(), &mut points);
    points.into_iter().find(|&point| game.is_legal(point))
}

/// A move that wins on the side to move's next turn whatever the reply, if there is one.
#[must_use]
pub fn win_in_two(game: &Pente) -> Option<Point> {
    let us = game.side_to_move();
    let them = us.opponent();
    let mut work = game.clone();
    let (mut ours, mut theirs, mut replies) = (Vec::new(), Vec::new(), Vec::new());
    let mut candidates = Vec::new();
    for_each_point(&near_stones(game.board(), 2), |point| {
        candidates.push(point)
    });
    for point in candidates {
        if !work.is_legal(point) {
            continue;
        }
        let undo = work.play_unchecked(point);
        let forced = 'check: {
            winning_points(&work, us, &mut ours);
            if ours.is_empty() {
                break 'check false;
            }
            winning_points(&work, them, &mut theirs);
            if !theirs.is_empty() {
                break 'check false;
            }
            // The replies that could stop every win: on a winning point, or a capture.
            replies.clear();
            replies.extend_from_slice(&ours);
            for_each_point(&near_stones(work.board(), 1), |reply| {
                if !work.board().capture_rays(them, reply).is_empty() && !ours.contains(&reply) {
                    replies.push(reply);
                }
            });
            for &reply in &replies {
                if !work.is_legal(reply) {
                    continue;
                }
                let back = work.play_unchecked(reply);
                let still_wins = work.outcome().is_none() && win_in_one(&work).is_some();
                work.undo(back);
                if !still_wins {
                    break 'check false;
                }
            }
            true
        };
        work.undo(undo);
        if forced {
            return Some(point);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
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
    fn an_open_three_becomes_an_unstoppable_four() {
        // K10-L10-M10 open at both ends: J10 or N10 makes an open four.
        let open = game("1:K10,L10,M10,A3:A1,S19,S1:0,0");
        let point = win_in_two(&open).unwrap().to_string();
        assert!(point == "J10" || point == "N10", "{point}");
        // With one end blocked the four can be stopped: no win in two.
        assert_eq!(win_in_two(&game("1:K10,L10,M10,A3:J10,S19,S1:0,0")), None);
    }

    #[test]
    fn a_capture_that_breaks_the_four_refutes_it() {
        // The open three K10-L10-M10 again, but L10 sits in a pair L10-L11 that the second player
        // (on L12) can take from L9, breaking whichever four the first player makes.
        let g = game("1:K10,L10,M10,L11,A3:L12,A1,S19,S1:0,0");
        assert_eq!(win_in_two(&g), None);
    }
}
