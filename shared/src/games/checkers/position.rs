//! The checkers position: where every piece stands and whose turn it is, as three 32-bit masks
//! (Black's pieces, White's pieces, kings) plus the side to move. It is `Copy` and 16 bytes, so
//! searches copy it instead of undoing moves.
//!
//! A [`Position`] is always valid (colours disjoint, kings among the pieces, at most 12 pieces a
//! side, no man on its crowning row): [`Position::from_parts`] is the one gate every text form
//! goes through. History for the draw rules lives in [`super::Checkers`], not here.

use super::bitboard::{BOTTOM_ROW, TOP_ROW};
use super::moves::Move;
use super::square::Square;
use crate::game::{PositionError, Side};

/// The most pieces a side can have.
pub const MAX_PIECES: u32 = 12;

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// Whether it is crowned.
    pub king: bool,
}

/// Pieces on the board and the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Index 0 is Black (the first side), 1 is White.
    pieces: [u32; 2],
    kings: u32,
    side: Side,
}

impl Position {
    /// The standard start: Black men on 1..12, White men on 21..32, Black to move.
    #[must_use]
    pub const fn start() -> Position {
        Position {
            pieces: [0x0000_0FFF, 0xFFF0_0000],
            kings: 0,
            side: Side::First,
        }
    }

    /// A position from its masks, refused with the reason if it could not occur in a game.
    pub fn from_parts(
        black: u32,
        white: u32,
        kings: u32,
        side: Side,
    ) -> Result<Position, PositionError> {
        if black & white != 0 {
            let square = Square::from_index((black & white).trailing_zeros() as u8);
            return Err(PositionError::new(format!(
                "square {square} holds both a Black and a White piece"
            )));
        }
        if kings & !(black | white) != 0 {
            let square = Square::from_index((kings & !(black | white)).trailing_zeros() as u8);
            return Err(PositionError::new(format!(
                "square {square} is marked as a king but holds no piece"
            )));
        }
        for (side, mask) in [(Side::First, black), (Side::Second, white)] {
            let name = side_name(side);
            if mask.count_ones() > MAX_PIECES {
                return Err(PositionError::new(format!(
                    "{name} has {} pieces; a side has at most {MAX_PIECES}",
                    mask.count_ones()
                )));
            }
            let crowned_men = mask & !kings & crowning_row(side);
            if crowned_men != 0 {
                let square = Square::from_index(crowned_men.trailing_zeros() as u8);
                return Err(PositionError::new(format!(
                    "a {name} man on square {square} stands on its crowning row; it would be a \
                     king (write K{square})"
                )));
            }
        }
        Ok(Position {
            pieces: [black, white],
            kings,
            side,
        })
    }

    /// The side to move.
    #[must_use]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The same pieces with the other side to move.
    #[must_use]
    pub const fn with_side_to_move(self, side: Side) -> Position {
        Position { side, ..self }
    }

    /// The mask of a side's pieces.
    #[must_use]
    pub const fn pieces(&self, side: Side) -> u32 {
        match side {
            Side::First => self.pieces[0],
            Side::Second => self.pieces[1],
        }
    }

    /// Black's pieces.
    #[must_use]
    pub const fn black(&self) -> u32 {
        self.pieces[0]
    }

    /// White's pieces.
    #[must_use]
    pub const fn white(&self) -> u32 {
        self.pieces[1]
    }

    /// The kings of both sides.
    #[must_use]
    pub const fn kings(&self) -> u32 {
        self.kings
    }

    /// The squares nobody holds.
    #[must_use]
    pub const fn empty(&self) -> u32 {
        !(self.pieces[0] | self.pieces[1])
    }

    /// What stands on a square.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = square.bit();
        let king = self.kings & bit != 0;
        Side::BOTH
            .into_iter()
            .find(|&side| self.pieces(side) & bit != 0)
            .map(|side| Piece { side, king })
    }

    /// Plays a move generated for this position, without checking it: the fast path for
    /// searches. Captured pieces go, the mover goes to the last landing square, a man reaching
    /// its crowning row becomes a king, and the turn passes.
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: &Move) {
        let from = mv.from().bit();
        let to = mv.to().bit();
        let us = self.side.index();
        let captured = mv.captured();
        // `from` and `to` are equal when a king's capture goes round a loop, so set, not toggle.
        self.pieces[us] = (self.pieces[us] & !from) | to;
        self.pieces[1 - us] &= !captured;
        let was_king = self.kings & from != 0;
        self.kings &= !(captured | from);
        if was_king || to & crowning_row(self.side) != 0 {
            self.kings |= to;
        }
        self.side = self.side.opponent();
    }

    /// This position after a move generated for it.
    #[inline(always)]
    #[must_use]
    pub fn after(mut self, mv: &Move) -> Position {
        self.play_unchecked(mv);
        self
    }

    /// Whether a move of this position moves an uncrowned man.
    #[must_use]
    pub const fn moves_a_man(&self, mv: &Move) -> bool {
        self.kings & mv.from().bit() == 0
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

/// The row where a side's men are crowned: White's back row for Black, and the other way round.
#[inline(always)]
#[must_use]
pub const fn crowning_row(side: Side) -> u32 {
    match side {
        Side::First => BOTTOM_ROW,
        Side::Second => TOP_ROW,
    }
}

/// How checkers names a side.
#[must_use]
pub const fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(parts: (u32, u32, u32), expected: Result<(), &str>) {
        let (black, white, kings) = parts;
        let got = Position::from_parts(black, white, kings, Side::First).map(|_| ());
        match expected {
            Ok(()) => assert_eq!(got, Ok(()), "{parts:x?}"),
            Err(needle) => {
                let err = got.expect_err(needle).to_string();
                assert!(err.contains(needle), "{parts:x?}: {err}");
            }
        }
    }

    #[test]
    fn impossible_positions_name_the_problem() {
        check((0xFFF, 0xFFF0_0000, 0), Ok(()));
        check((0b11, 0b10, 0), Err("square 2 holds both"));
        check((0b1, 0b10, 0b100), Err("square 3 is marked as a king"));
        check((0x1FFF, 0, 0), Err("Black has 13 pieces"));
        check((1 << 29, 0, 0), Err("Black man on square 30"));
        check((1 << 29, 0, 1 << 29), Ok(()));
        check((0, 1 << 2, 0), Err("White man on square 3"));
    }

    #[test]
    fn the_start_is_valid() {
        let start = Position::start();
        assert_eq!(
            Position::from_parts(start.black(), start.white(), 0, Side::First),
            Ok(start)
        );
    }
}
