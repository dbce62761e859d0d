//! One game as the client holds it, for every mode: the [`table`] rebuilt from the server's
//! messages, the [`intent`] a key, click or typed line means, picking pieces up
//! ([`selection`]), the slide of a move ([`animation`]), squares on the screen
//! ([`board_geometry`]), the legal moves' list ([`move_list`]), looking back ([`review`]) and
//! results in [`words`].

pub mod animation;
pub mod board_geometry;
pub mod intent;
pub mod move_list;
pub mod review;
pub mod selection;
pub mod table;
pub mod words;
