//! Pente on a 19x19 array, written from the rules as pente.org states them:
//!
//! - Players alternate placing a stone on an empty point; the first player opens on the centre
//!   (row 9, column 9 counted from 0 at the bottom left: K10). Under the tournament rule the first
//!   player's second stone must be at least three rows or columns away from the centre.
//! - A stone placed so that it and another stone of its own colour enclose exactly two enemy
//!   stones in a straight line (horizontal, vertical or diagonal) captures those two. Only the
//!   stone just placed captures, in any number of the eight directions at once.
//! - Five or more of one's own stones in an unbroken line win; so do ten captured stones. A full
//!   board with neither is a draw. Five in a row is what is reported when both happen at once.
//!
//! Points are `(row, column)`, both 0..19; the outcome uses the shared vocabulary so the
//! differential test can compare it directly.

use kingme_shared::{DrawReason, Outcome, Side, WinReason};

/// Points per side of the board.
pub const SIZE: i32 = 19;

/// The opening point.
pub const CENTRE: (i32, i32) = (9, 9);

/// The eight directions a capture can go in.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// A game in progress: the stones, whose turn, the stones each side captured, how many stones
/// the first player has placed (for the opening rules) and the result once there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The stone on each point by row and column, if any.
    pub stones: [[Option<Side>; 19]; 19],
    /// The side to place the next stone.
    pub to_move: Side,
    /// The stones each side has captured, by side index.
    pub captured: [u16; 2],
    /// How many stones the first player has placed (the tournament rule reads it).
    pub first_player_stones: u32,
    /// Whether the tournament opening rule applies.
    pub tournament: bool,
    /// The result once the game has ended.
    pub outcome: Option<Outcome>,
}

fn on_board(row: i32, column: i32) -> bool {
    (0..SIZE).contains(&row) && (0..SIZE).contains(&column)
}

impl Game {
    /// The empty board, first player to move.
    #[must_use]
    pub fn new(tournament: bool) -> Game {
        Game {
            stones: [[None; 19]; 19],
            to_move: Side::First,
            captured: [0, 0],
            first_player_stones: 0,
            tournament,
            outcome: None,
        }
    }

    /// The stone on a point, or `None` off the board or on an empty point.
    #[must_use]
    pub fn at(&self, row: i32, column: i32) -> Option<Side> {
        if on_board(row, column) {
            self.stones[row as usize][column as usize]
        } else {
            None
        }
    }

    /// Every point the side to move may play, row by row from the bottom.
    #[must_use]
    pub fn legal_points(&self) -> Vec<(i32, i32)> {
        let mut points = Vec::new();
        if self.outcome.is_some() {
            return points;
        }
        for row in 0..SIZE {
            for column in 0..SIZE {
                if self.at(row, column).is_none() && self.opening_allows(row, column) {
                    points.push((row, column));
                }
            }
        }
        points
    }

    fn opening_allows(&self, row: i32, column: i32) -> bool {
        if self.to_move != Side::First {
            return true;
        }
        match self.first_player_stones {
            0 => (row, column) == CENTRE,
            1 if self.tournament => (row - CENTRE.0).abs() >= 3 || (column - CENTRE.1).abs() >= 3,
            _ => true,
        }
    }

    /// The stones a stone of the side to move on (row, column) would capture.
    #[must_use]
    pub fn captures_of(&self, row: i32, column: i32) -> Vec<(i32, i32)> {
        let me = self.to_move;
        let them = me.opponent();
        let mut taken = Vec::new();
        for (dr, dc) in DIRECTIONS {
            let first = (row + dr, column + dc);
            let second = (row + 2 * dr, column + 2 * dc);
            let closing = (row + 3 * dr, column + 3 * dc);
            if self.at(first.0, first.1) == Some(them)
                && self.at(second.0, second.1) == Some(them)
                && self.at(closing.0, closing.1) == Some(me)
            {
                taken.push(first);
                taken.push(second);
            }
        }
        taken
    }

    /// The length of the unbroken line of `side`'s stones through (row, column) along (dr, dc)
    /// both ways.
    fn line_through(&self, side: Side, row: i32, column: i32, dr: i32, dc: i32) -> u32 {
        let mut length = 1;
        for sense in [1, -1] {
            let mut k = 1;
            while self.at(row + sense * k * dr, column + sense * k * dc) == Some(side) {
                length += 1;
                k += 1;
            }
        }
        length
    }

    /// Plays a legal point: places, captures, decides the outcome, passes the turn. Returns the
    /// captured stones.
    pub fn play(&mut self, row: i32, column: i32) -> Vec<(i32, i32)> {
        let me = self.to_move;
        let taken = self.captures_of(row, column);
        self.stones[row as usize][column as usize] = Some(me);
        for &(r, c) in &taken {
            self.stones[r as usize][c as usize] = None;
        }
        self.captured[me.index()] += taken.len() as u16;
        if me == Side::First {
            self.first_player_stones += 1;
        }
        let five = [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .any(|&(dr, dc)| self.line_through(me, row, column, dr, dc) >= 5);
        let full = self.stones.iter().flatten().all(Option::is_some);
        self.outcome = if five {
            Some(Outcome::Win {
                winner: me,
                reason: WinReason::FiveInARow,
            })
        } else if self.captured[me.index()] >= 10 {
            Some(Outcome::Win {
                winner: me,
                reason: WinReason::FiveCaptures,
            })
        } else if full {
            Some(Outcome::Draw {
                reason: DrawReason::FullBoard,
            })
        } else {
            None
        };
        self.to_move = me.opponent();
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_is_the_centre_then_away_from_it() {
        let mut game = Game::new(true);
        assert_eq!(game.legal_points(), vec![CENTRE]);
        game.play(9, 9);
        assert_eq!(game.legal_points().len(), 360);
        game.play(9, 10);
        let second = game.legal_points();
        assert!(!second.contains(&(11, 11)) && second.contains(&(12, 9)));
        assert_eq!(second.len(), 361 - 25);
    }

    #[test]
    fn a_flanked_pair_is_captured_and_three_are_not() {
        let mut game = Game::new(false);
        game.stones[9][9] = Some(Side::First);
        game.stones[9][10] = Some(Side::Second);
        game.stones[9][11] = Some(Side::Second);
        assert_eq!(game.captures_of(9, 12), vec![(9, 11), (9, 10)]);
        game.stones[9][12] = Some(Side::Second);
        assert!(game.captures_of(9, 13).is_empty());
        game.first_player_stones = 1;
        assert_eq!(game.play(9, 13), Vec::<(i32, i32)>::new());
    }

    #[test]
    fn five_in_a_row_wins() {
        let mut game = Game::new(false);
        for column in 0..4 {
            game.stones[3][column] = Some(Side::First);
        }
        game.first_player_stones = 4;
        game.play(3, 4);
        assert_eq!(
            game.outcome,
            Some(Outcome::Win {
                winner: Side::First,
                reason: WinReason::FiveInARow
            })
        );
    }
}
