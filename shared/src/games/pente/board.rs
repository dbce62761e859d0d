//! The Pente board as line bitboards: for each side and each of the four line directions, one
//! `u32` per line of the board with a bit per point on it.
//!
//! Every question the rules and the AI ask is about a line through a point: is there a five, is a
//! pair flanked, how long is this run, what lies within four points. With a word per line each of
//! those is a shift and a mask, and placing or removing a stone touches eight words (four lines,
//! one side). A Zobrist hash of the stones is kept up to date on the way.
//!
//! Lines are numbered per direction: rows and columns 0..19, rising diagonals (up-right) by
//! `column - row + 18`, falling diagonals (down-right) by `row + column`, both 0..37. A point's bit
//! on its line is its column, except on the vertical lines where it is its row, so moving one
//! point along [`Direction::step`] moves one bit up on every line.

use super::point::{POINTS, Point, SIZE};
use crate::game::Side;
use std::fmt;

/// Lines per direction (the diagonals have 37; rows and columns use the first 19).
const LINES: usize = 37;

/// Bits of a line that lie on the board.
const FULL_ROW: u32 = (1 << SIZE) - 1;

/// The four directions of a line of stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along a row, left to right.
    Horizontal,
    /// Along a column, bottom to top.
    Vertical,
    /// Up and to the right.
    Rising,
    /// Down and to the right.
    Falling,
}

impl Direction {
    /// All four, in the order of [`Direction::index`].
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Rising,
        Direction::Falling,
    ];

    /// 0..4, an index into per-direction tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How a point's index changes for one step along the line (one bit up on the line word).
    #[must_use]
    pub const fn step(self) -> i16 {
        match self {
            Direction::Horizontal => 1,
            Direction::Vertical => SIZE as i16,
            Direction::Rising => SIZE as i16 + 1,
            Direction::Falling => 1 - SIZE as i16,
        }
    }
}

/// Where a point sits on its line in one direction.
#[derive(Clone, Copy)]
struct Spot {
    line: u8,
    bit: u8,
}

const fn spot(index: usize, direction: usize) -> Spot {
    let row = (index / SIZE as usize) as u8;
    let column = (index % SIZE as usize) as u8;
    match direction {
        0 => Spot {
            line: row,
            bit: column,
        },
        1 => Spot {
            line: column,
            bit: row,
        },
        2 => Spot {
            line: column + SIZE - 1 - row,
            bit: column,
        },
        _ => Spot {
            line: row + column,
            bit: column,
        },
    }
}

/// Each point's line and bit, per direction: computed once at compile time.
static SPOTS: [[Spot; 4]; POINTS] = {
    let mut table = [[Spot { line: 0, bit: 0 }; 4]; POINTS];
    let mut index = 0;
    while index < POINTS {
        let mut direction = 0;
        while direction < 4 {
            table[index][direction] = spot(index, direction);
            direction += 1;
        }
        index += 1;
    }
    table
};

/// The bits of each line that are points of the board (the diagonals are shorter).
static LINE_MASKS: [[u32; LINES]; 4] = {
    let mut masks = [[0; LINES]; 4];
    let mut index = 0;
    while index < POINTS {
        let mut direction = 0;
        while direction < 4 {
            let spot = spot(index, direction);
            masks[direction][spot.line as usize] |= 1 << spot.bit;
            direction += 1;
        }
        index += 1;
    }
    masks
};

/// Random keys for the Zobrist hash, one per side and point, from a fixed seed (splitmix64) so
/// hashes are the same in every build and on both ends of a connection.
static ZOBRIST: [[u64; POINTS]; 2] = {
    let mut keys = [[0; POINTS]; 2];
    let mut state: u64 = 0x6b69_6e67_6d65_5045;
    let mut side = 0;
    while side < 2 {
        let mut index = 0;
        while index < POINTS {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            keys[side][index] = z ^ (z >> 31);
            index += 1;
        }
        side += 1;
    }
    keys
};

/// Which pairs a placement captures: bit `2 * direction` for the pair in the direction's positive
/// sense, bit `2 * direction + 1` for the negative sense. Eight bits, so a placement's captures fit
/// in one byte and can be undone from it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CaptureRays(u8);

impl CaptureRays {
    /// No capture.
    pub const NONE: CaptureRays = CaptureRays(0);

    /// Whether nothing is captured.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many pairs are captured.
    #[must_use]
    pub const fn pairs(self) -> u32 {
        self.0.count_ones()
    }

    /// The points of the captured stones for a stone placed on `placed`, nearest first per pair.
    pub fn captured_points(self, placed: Point) -> impl Iterator<Item = Point> {
        let from = placed.index() as i32;
        (0..8u8)
            .filter(move |ray| self.0 & (1 << ray) != 0)
            .flat_map(move |ray| {
                let step = i32::from(Direction::ALL[usize::from(ray / 2)].step());
                let step = if ray % 2 == 0 { step } else { -step };
                (1..=2).filter_map(move |k| {
                    usize::try_from(from + k * step)
                        .ok()
                        .and_then(Point::from_index)
                })
            })
    }
}

/// The nine points of a line centred on one point (four each way), as bit masks with the centre
/// on bit [`Window::CENTRE`] and bits rising in the direction's sense: the unit an AI reads a
/// pattern (open four, split three, capture threat) from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Window {
    /// The side's stones.
    pub mine: u16,
    /// The opponent's stones.
    pub theirs: u16,
    /// Points past the edge of the board.
    pub off_board: u16,
}

impl Window {
    /// The bit of the centre point.
    pub const CENTRE: u32 = 4;

    /// The bits of all nine points.
    pub const ALL: u16 = 0x1ff;

    /// The empty points on the board.
    #[must_use]
    pub const fn empty(self) -> u16 {
        Self::ALL & !(self.mine | self.theirs | self.off_board)
    }
}

/// The stones on the board, as line bitboards per side and direction.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// `lines[side][direction][line]`: bit `b` set if the side has a stone on that line's point `b`.
    lines: [[[u32; LINES]; 4]; 2],
    /// Stones on the board per side.
    counts: [u16; 2],
    /// Zobrist hash of the stones.
    hash: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            lines: [[[0; LINES]; 4]; 2],
            counts: [0; 2],
            hash: 0,
        }
    }
}

impl Board {
    /// The line word of `side` through `point` in `direction`; the point itself is bit
    /// [`Board::bit_on_line`]. Combine with [`Board::line_mask`] to tell an edge from an empty
    /// point.
    #[must_use]
    pub fn line(&self, side: Side, direction: Direction, point: Point) -> u32 {
        let spot = SPOTS[point.index()][direction.index()];
        self.lines[side.index()][direction.index()][usize::from(spot.line)]
    }

    /// Every line word of `side` in `direction`, by line number (see the module documentation);
    /// [`Board::line_masks`] tells which bits are on the board. Whole-board evaluations scan these.
    #[must_use]
    pub fn lines(&self, side: Side, direction: Direction) -> &[u32] {
        &self.lines[side.index()][direction.index()]
    }

    /// The on-board bits of every line in `direction`, by line number.
    #[must_use]
    pub fn line_masks(direction: Direction) -> &'static [u32] {
        &LINE_MASKS[direction.index()]
    }

    /// The bit of `point` on its line in `direction`.
    #[must_use]
    pub fn bit_on_line(direction: Direction, point: Point) -> u32 {
        u32::from(SPOTS[point.index()][direction.index()].bit)
    }

    /// The point at `bit` of line `line` in `direction` (the inverse of a point's line and
    /// [`Board::bit_on_line`]), or `None` off the board.
    #[must_use]
    pub fn point_on_line(direction: Direction, line: usize, bit: u32) -> Option<Point> {
        let (line, bit) = (i32::try_from(line).ok()?, i32::try_from(bit).ok()?);
        let last = i32::from(SIZE) - 1;
        let (row, column) = match direction {
            Direction::Horizontal => (line, bit),
            Direction::Vertical => (bit, line),
            Direction::Rising => (bit + last - line, bit),
            Direction::Falling => (line - bit, bit),
        };
        Point::new(u8::try_from(row).ok()?, u8::try_from(column).ok()?)
    }

    /// The bits of the line through `point` in `direction` that are on the board.
    #[must_use]
    pub fn line_mask(direction: Direction, point: Point) -> u32 {
        let spot = SPOTS[point.index()][direction.index()];
        LINE_MASKS[direction.index()][usize::from(spot.line)]
    }

    /// The nine points around `point` along `direction`, seen from `side`.
    #[must_use]
    pub fn window(&self, side: Side, direction: Direction, point: Point) -> Window {
        let bit = Self::bit_on_line(direction, point);
        // Moves the word so that `point` lands on bit 4, keeping nine bits.
        let centre = |word: u32| {
            let shifted = if bit >= Window::CENTRE {
                word >> (bit - Window::CENTRE)
            } else {
                word << (Window::CENTRE - bit)
            };
            (shifted & u32::from(Window::ALL)) as u16
        };
        Window {
            mine: centre(self.line(side, direction, point)),
            theirs: centre(self.line(side.opponent(), direction, point)),
            off_board: Window::ALL & !centre(Self::line_mask(direction, point)),
        }
    }

    /// Who holds a point.
    #[must_use]
    pub fn stone_at(&self, point: Point) -> Option<Side> {
        let spot = SPOTS[point.index()][0];
        let bit = 1 << spot.bit;
        let row = usize::from(spot.line);
        if self.lines[0][0][row] & bit != 0 {
            Some(Side::First)
        } else if self.lines[1][0][row] & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// Whether nobody holds a point.
    #[must_use]
    pub fn is_empty(&self, point: Point) -> bool {
        self.stone_at(point).is_none()
    }

    /// The empty points of a row (0 at the bottom) as bits by column.
    #[must_use]
    pub fn empty_in_row(&self, row: u8) -> u32 {
        let row = usize::from(row);
        FULL_ROW & !(self.lines[0][0][row] | self.lines[1][0][row])
    }

    /// Puts a stone on an empty point. The caller has checked that it is empty.
    pub fn place(&mut self, point: Point, side: Side) {
        debug_assert!(self.is_empty(point), "{point} is taken");
        self.toggle(point, side);
        self.counts[side.index()] += 1;
    }

    /// Takes a side's stone off a point. The caller has checked that it is there.
    pub fn remove(&mut self, point: Point, side: Side) {
        debug_assert_eq!(self.stone_at(point), Some(side), "{point}");
        self.toggle(point, side);
        self.counts[side.index()] -= 1;
    }

    fn toggle(&mut self, point: Point, side: Side) {
        let lines = &mut self.lines[side.index()];
        for (direction, spot) in SPOTS[point.index()].iter().enumerate() {
            lines[direction][usize::from(spot.line)] ^= 1 << spot.bit;
        }
        self.hash ^= ZOBRIST[side.index()][point.index()];
    }

    /// Stones a side has on the board.
    #[must_use]
    pub fn count(&self, side: Side) -> u16 {
        self.counts[side.index()]
    }

    /// Whether every point is taken.
    #[must_use]
    pub fn is_full(&self) -> bool {
        usize::from(self.counts[0] + self.counts[1]) == POINTS
    }

    /// The Zobrist hash of the stones (not of the side to move or the captures).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The length of `side`'s unbroken run through `point` in `direction` (0 if the point is not
    /// `side`'s).
    #[must_use]
    pub fn run_length(&self, side: Side, direction: Direction, point: Point) -> u32 {
        let word = self.line(side, direction, point);
        let bit = Self::bit_on_line(direction, point);
        if word & (1 << bit) == 0 {
            return 0;
        }
        let upwards = (!(word >> bit)).trailing_zeros();
        let downwards = (!(word << (31 - bit))).leading_zeros();
        upwards + downwards - 1
    }

    /// Whether `side` has five or more in a row through `point`.
    #[must_use]
    pub fn has_five_through(&self, side: Side, point: Point) -> bool {
        Direction::ALL
            .iter()
            .any(|&direction| self.run_length(side, direction, point) >= 5)
    }

    /// Whether `side` has five or more in a row anywhere (a scan of every line).
    #[must_use]
    pub fn has_five(&self, side: Side) -> bool {
        self.lines[side.index()]
            .iter()
            .flatten()
            .any(|&w| w & (w >> 1) & (w >> 2) & (w >> 3) & (w >> 4) != 0)
    }

    /// The pairs a stone of `side` on `point` would capture: in each of the eight senses, the
    /// next two points hold the opponent's stones and the third one `side`'s (X O O X). A run of
    /// three is never taken, since then the third point is not `side`'s.
    #[must_use]
    pub fn capture_rays(&self, side: Side, point: Point) -> CaptureRays {
        let mut rays = 0u8;
        for (direction, spot) in SPOTS[point.index()].iter().enumerate() {
            let line = usize::from(spot.line);
            let mine = self.lines[side.index()][direction][line];
            let theirs = self.lines[side.opponent().index()][direction][line];
            let bit = u32::from(spot.bit);
            // Upwards: bits bit+1 and bit+2 theirs, bit+3 mine. Bits past the board are zero.
            if (theirs >> (bit + 1)) & 0b11 == 0b11 && (mine >> (bit + 3)) & 1 == 1 {
                rays |= 1 << (2 * direction);
            }
            // Downwards: bits bit-1 and bit-2 theirs, bit-3 mine.
            if bit >= 3 && (theirs >> (bit - 2)) & 0b11 == 0b11 && (mine >> (bit - 3)) & 1 == 1 {
                rays |= 1 << (2 * direction + 1);
            }
        }
        CaptureRays(rays)
    }

    /// A side's stones, in index order.
    pub fn stones(&self, side: Side) -> impl Iterator<Item = Point> + '_ {
        let rows = &self.lines[side.index()][0];
        (0..SIZE).flat_map(move |row| {
            let mut bits = rows[usize::from(row)];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let column = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Point::new(row, column)
            })
        })
    }
}

impl fmt::Debug for Board {
    /// The board as a diagram, top row first: `X` first player, `O` second, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for row in (0..SIZE).rev() {
            for column in 0..SIZE {
                let point = Point::new(row, column).ok_or(fmt::Error)?;
                f.write_str(match self.stone_at(point) {
                    Some(Side::First) => "X",
                    Some(Side::Second) => "O",
                    None => ".",
                })?;
            }
            writeln!(f, " {}", row + 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;

    #[test]
    fn every_point_is_found_again_from_its_line_and_bit() {
        for point in Point::all() {
            for direction in Direction::ALL {
                let spot = SPOTS[point.index()][direction.index()];
                assert_eq!(
                    Board::point_on_line(direction, usize::from(spot.line), u32::from(spot.bit)),
                    Some(point),
                    "{point} {direction:?}"
                );
            }
        }
        // Bits of a diagonal that are off the board are no point.
        assert_eq!(Board::point_on_line(Direction::Rising, 0, 1), None);
        assert_eq!(Board::point_on_line(Direction::Falling, 0, 5), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pente::point::parse_point;

    fn board(first: &str, second: &str) -> Board {
        let mut board = Board::default();
        for (side, points) in [(Side::First, first), (Side::Second, second)] {
            for text in points.split_whitespace() {
                board.place(parse_point(text).expect(text), side);
            }
        }
        board
    }

    fn point(text: &str) -> Point {
        parse_point(text).expect(text)
    }

    /// Every direction steps one point and one bit at a time, staying on its line.
    #[test]
    fn a_step_along_a_direction_is_one_bit_up_the_same_line() {
        for direction in Direction::ALL {
            for from in Point::all() {
                let to = usize::try_from(from.index() as i16 + direction.step())
                    .ok()
                    .and_then(Point::from_index);
                let (a, b) = (
                    SPOTS[from.index()][direction.index()],
                    to.map(|to| SPOTS[to.index()][direction.index()]),
                );
                if let Some(b) = b.filter(|b| b.line == a.line) {
                    assert_eq!(b.bit, a.bit + 1, "{from} {direction:?}");
                }
            }
        }
        let total: u32 = LINE_MASKS.iter().flatten().map(|m| m.count_ones()).sum();
        assert_eq!(total as usize, 4 * POINTS);
    }

    #[test]
    fn runs_and_fives_are_seen_in_every_direction() {
        let cases = [
            ("K10 L10 M10 N10 O10", "O10", Direction::Horizontal, 5),
            ("K6 K7 K8 K9 K10 K11", "K6", Direction::Vertical, 6),
            ("A1 B2 C3 D4", "C3", Direction::Rising, 4),
            ("A19 B18 C17 D16 E15", "E15", Direction::Falling, 5),
            ("P5 Q4 R3 S2 T1", "T1", Direction::Falling, 5),
            ("K10 M10", "K10", Direction::Horizontal, 1),
        ];
        for (stones, at, direction, run) in cases {
            let board = board(stones, "");
            assert_eq!(
                board.run_length(Side::First, direction, point(at)),
                run,
                "{stones}"
            );
            assert_eq!(board.has_five_through(Side::First, point(at)), run >= 5);
            assert_eq!(board.has_five(Side::First), run >= 5);
            assert!(!board.has_five(Side::Second));
        }
    }

    #[test]
    fn capture_rays_name_the_flanked_pairs() {
        // (first's stones, second's stones, first places on, captured points)
        let cases = [
            ("K10", "L10 M10", "N10", "M10 L10"),
            ("N10", "L10 M10", "K10", "L10 M10"),
            ("K10", "K11 K12", "K13", "K12 K11"),
            ("A1", "B2 C3", "D4", "C3 B2"),
            ("T1", "S2 R3", "Q4", "R3 S2"),
            ("K10", "L10 M10 N10", "O10", ""),
            ("K10 K13", "L10 M10 K11 K12", "N10", "M10 L10"),
            ("", "L10 M10", "N10", ""),
        ];
        for (first, second, placed, captured) in cases {
            let board = board(first, second);
            let rays = board.capture_rays(Side::First, point(placed));
            let points: Vec<String> = rays
                .captured_points(point(placed))
                .map(|p| p.to_string())
                .collect();
            assert_eq!(points.join(" "), captured, "{first} / {second} + {placed}");
        }
    }

    /// Windows drawn as nine characters from the low end: `X` mine, `O` theirs, `#` off the
    /// board, `.` empty.
    #[test]
    fn windows_show_the_nine_points_around_a_point() {
        let cases = [
            ("K10 M10", "L10", "N10", Direction::Horizontal, ".XOX....."),
            ("A1", "B1", "A1", Direction::Horizontal, "####XO..."),
            ("T19", "S18", "T19", Direction::Rising, "...OX####"),
            ("K10", "", "K12", Direction::Vertical, "..X......"),
            ("C1 E3", "", "B2", Direction::Falling, "###..X###"),
            ("", "", "C2", Direction::Rising, "###......"),
        ];
        for (first, second, at, direction, drawn) in cases {
            let board = board(first, second);
            let window = board.window(Side::First, direction, point(at));
            let got: String = (0..9)
                .map(|bit| {
                    let has = |mask: u16| mask & (1 << bit) != 0;
                    if has(window.mine) {
                        'X'
                    } else if has(window.theirs) {
                        'O'
                    } else if has(window.off_board) {
                        '#'
                    } else {
                        assert!(has(window.empty()));
                        '.'
                    }
                })
                .collect();
            assert_eq!(got, drawn, "{first} / {second} at {at} {direction:?}");
        }
    }

    #[test]
    fn place_and_remove_restore_the_board_and_hash() {
        let mut board = board("K10 L11", "J9");
        let before = board.clone();
        board.place(point("A1"), Side::Second);
        assert_ne!(board.hash(), before.hash());
        assert_eq!(board.stone_at(point("A1")), Some(Side::Second));
        board.remove(point("A1"), Side::Second);
        assert_eq!(board, before);
        let stones: Vec<String> = board.stones(Side::First).map(|p| p.to_string()).collect();
        assert_eq!(stones, ["K10", "L11"]);
        assert_eq!(board.count(Side::First), 2);
    }
}
