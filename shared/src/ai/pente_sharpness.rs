//! How sharp a Pente position is, for the expert's time budget ([`super::budget`]): the fours,
//! threes and capture threats on the board, read from the board's shape for both sides before
//! the search starts.

use super::budget::Sharpness;
use super::pente_patterns::board_shape;
use crate::game::Game;
use crate::games::pente::{CAPTURES_TO_WIN, Pente};

/// Captured stones from which any pair to take is sharp: two more pairs could end the game.
const RACE: u16 = CAPTURES_TO_WIN - 4;

/// Sharp: a four on the board (either side's), threes on both sides, two or more pairs that can
/// be taken (either side's), or a pair to take while either side is two pairs from the fifth.
/// Tense: a three (either side's) or one pair to take. Quiet: none of these.
#[must_use]
pub fn sharpness(game: &Pente) -> Sharpness {
    let us = game.side_to_move();
    let mine = board_shape(game.board(), us);
    let theirs = board_shape(game.board(), us.opponent());
    let fours = mine.my_fours + mine.their_fours;
    let captures = mine.my_captures + mine.their_captures;
    let race = game.captured_by(us).max(game.captured_by(us.opponent())) >= RACE;
    if fours > 0
        || (mine.my_threes > 0 && theirs.my_threes > 0)
        || captures >= 2
        || (race && captures > 0)
    {
        Sharpness::Sharp
    } else if mine.my_threes + theirs.my_threes > 0 || captures > 0 {
        Sharpness::Tense
    } else {
        Sharpness::Quiet
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Sharpness {
        sharpness(&Pente::from_position_text(text).unwrap())
    }

    #[test]
    fn threats_and_captures_make_a_position_sharp() {
        // Scattered stones: nothing to answer or take.
        assert_eq!(of("1:K10,N13,A3:L11,C17,S1:0,0"), Sharpness::Quiet);
        // A three of the first player's (K10-M10) and nothing else.
        assert_eq!(of("2:K10,L10,M10:A1,S19,S1:0,0"), Sharpness::Tense);
        // One pair to take: the first player's J10 and the second's K10-L10, M10 empty.
        assert_eq!(of("1:J10,A3:K10,L10:0,0"), Sharpness::Tense);
        // The same pair with the first player two pairs from the fifth.
        assert_eq!(of("1:J10,A3:K10,L10:6,0"), Sharpness::Sharp);
        // A four, whoever has it.
        assert_eq!(of("1:K10,B3,K12:C3,D3,E3,F3:0,0"), Sharpness::Sharp);
        assert_eq!(of("2:K10,B3,K12:C3,D3,E3,F3:0,0"), Sharpness::Sharp);
        // Threes on both sides.
        assert_eq!(of("1:K10,L10,M10:C3,D3,E3:0,0"), Sharpness::Sharp);
    }
}
