//! Pente as played on pente.org: 19x19, the first player opens on K10, pairs are captured by
//! flanking, five in a row or five captured pairs win.
//!
//! `point` is the coordinates and their text, `board` the line bitboards, `rules` the variant
//! switches and opening restrictions, `position` the game state with make/unmake,
//! `position_text` the setup text form, and `game` the [`crate::Game`] implementation over both.

mod board;
mod game;
mod point;
mod position;
mod position_text;
mod rules;

#[cfg(test)]
mod rule_cases;

pub use board::{Board, CaptureRays, Direction, Window};
pub use point::{POINT_EXPECTED, POINTS, Point, SIZE, parse_point};
pub use position::{CAPTURES_TO_WIN, Pente, Undo};
pub use position_text::MAX_POSITION_TEXT;
pub use rules::{Opening, PenteRules, TOURNAMENT_DISTANCE};
