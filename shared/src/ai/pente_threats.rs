//! Pente's wins in one: the points where a side would win at once (a five, or the fifth pair),
//! which the threat search ([`super::pente_tss`]) and the candidate lists build on.

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
}
