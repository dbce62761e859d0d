//! A checkers move: the whole path of the moving piece, as a small `Copy` value.
//!
//! A move records its origin, every landing square in order and the set of captured squares, so
//! a client can animate it and two captures between the same squares along different routes
//! (a king going round a loop either way) stay distinct moves. Nothing here allocates: the path
//! lives in a fixed array sized for the longest possible capture (12 pieces, so 12 landings).

use super::bitboard::Direction;
use super::square::Square;

/// The most landing squares a move can have: one per captured piece, and a side has at most 12.
pub const MAX_LANDINGS: usize = 12;

/// A move: a step (one landing, nothing captured) or a capture (one landing per jump).
///
/// Invariant: entries of the landing array past `len` are zero, so derived equality and hashing
/// compare exactly the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    len: u8,
    landings: [u8; MAX_LANDINGS],
    captured: u32,
}

impl Move {
    /// A step from one square to a neighbouring one.
    #[must_use]
    pub const fn step(from: Square, to: Square) -> Move {
        let mut landings = [0; MAX_LANDINGS];
        landings[0] = to.index();
        Move {
            from: from.index(),
            len: 1,
            landings,
            captured: 0,
        }
    }

    /// A capture about to be built by [`Move::push_jump`]: only the origin so far.
    #[must_use]
    pub(crate) const fn capture_from(from: Square) -> Move {
        Move {
            from: from.index(),
            len: 0,
            landings: [0; MAX_LANDINGS],
            captured: 0,
        }
    }

    /// Adds one jump to a capture being built: over `over` (a one-bit mask) onto `landing`.
    #[inline(always)]
    pub(crate) fn push_jump(&mut self, landing: u8, over: u32) {
        self.landings[usize::from(self.len)] = landing;
        self.len += 1;
        self.captured |= over;
    }

    /// Takes back the last [`Move::push_jump`], restoring the zeroed tail.
    #[inline(always)]
    pub(crate) fn pop_jump(&mut self, over: u32) {
        self.len -= 1;
        self.landings[usize::from(self.len)] = 0;
        self.captured &= !over;
    }

    /// Builds a capture from its squares (origin, then every landing), if each consecutive pair
    /// is a jump over a distinct square and the landing is two diagonal steps away. Whether the
    /// capture is legal is for the position to say.
    #[must_use]
    pub fn capture(path: &[Square]) -> Option<Move> {
        let (&from, landings) = path.split_first()?;
        if landings.is_empty() || landings.len() > MAX_LANDINGS {
            return None;
        }
        let mut mv = Move::capture_from(from);
        let mut at = from;
        for &landing in landings {
            let over = jumped_square(at, landing)?;
            if mv.captured & over.bit() != 0 {
                return None;
            }
            mv.push_jump(landing.index(), over.bit());
            at = landing;
        }
        Some(mv)
    }

    /// Where the piece starts.
    #[must_use]
    pub const fn from(&self) -> Square {
        Square::from_index(self.from)
    }

    /// Where the piece ends.
    #[must_use]
    pub fn to(&self) -> Square {
        Square::from_index(self.landings[usize::from(self.len.max(1)) - 1])
    }

    /// Every square the piece lands on, in order (one for a step).
    pub fn landings(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.landings[..usize::from(self.len)]
            .iter()
            .map(|&index| Square::from_index(index))
    }

    /// The origin followed by every landing square.
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        std::iter::once(self.from()).chain(self.landings())
    }

    /// The captured squares, in the order they are jumped.
    pub fn captured_squares(&self) -> impl Iterator<Item = Square> + '_ {
        let mut at = self.from();
        self.landings().filter_map(move |landing| {
            let over = jumped_square(at, landing);
            at = landing;
            over
        })
    }

    /// The mask of captured squares (empty for a step).
    #[must_use]
    pub const fn captured(&self) -> u32 {
        self.captured
    }

    /// Whether this move captures.
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// How many pieces it captures: one a landing (read from the path's length, which needs no
    /// population count in code built for any processor, such as the search's move ordering).
    #[must_use]
    pub const fn capture_count(&self) -> u32 {
        if self.captured == 0 {
            0
        } else {
            self.len as u32
        }
    }
}

/// The square between two squares two diagonal steps apart, if they are.
#[must_use]
pub fn jumped_square(from: Square, to: Square) -> Option<Square> {
    Direction::ALL.into_iter().find_map(|direction| {
        let over = direction.step(from.bit());
        (over != 0 && direction.step(over) == to.bit())
            .then(|| Square::from_index(over.trailing_zeros() as u8))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(number: u32) -> Square {
        Square::from_number(number).expect("a square number 1..32")
    }

    #[test]
    fn a_capture_knows_its_path_and_captured_squares() {
        let mv = Move::capture(&[square(22), square(15), square(6), square(13), square(22)])
            .expect("a loop of four jumps");
        let path: Vec<u8> = mv.path().map(Square::number).collect();
        assert_eq!(path, [22, 15, 6, 13, 22]);
        let captured: Vec<u8> = mv.captured_squares().map(Square::number).collect();
        assert_eq!(captured, [18, 10, 9, 17]);
        assert_eq!(mv.from(), mv.to());
        assert_eq!(mv.capture_count(), 4);
    }

    #[test]
    fn impossible_paths_are_not_captures() {
        assert_eq!(Move::capture(&[square(22)]), None);
        assert_eq!(Move::capture(&[square(22), square(18)]), None);
        assert_eq!(Move::capture(&[square(4), square(13)]), None);
        // The same piece cannot be jumped twice.
        assert_eq!(Move::capture(&[square(22), square(15), square(22)]), None);
    }

    #[test]
    fn building_and_unbuilding_restores_equality() {
        let mut built = Move::capture_from(square(9));
        built.push_jump(square(18).index(), square(14).bit());
        built.push_jump(square(27).index(), square(23).bit());
        built.pop_jump(square(23).bit());
        assert_eq!(Move::capture(&[square(9), square(18)]), Some(built));
        assert_eq!(built.to(), square(18));
    }
}
