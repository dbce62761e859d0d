//! The board as plain text, for plain mode and `kingme replay --plain`.

use crate::game::board_geometry::{BoardGeometry, Cell};
use kingme_shared::board_view::Surface;
use kingme_shared::{AnyGame, Side};

/// The board as text: coordinates around it, one character per square (`.` an empty square
/// or point, a blank for a light square), pieces by letter (see
/// [`kingme_shared::board_view::BoardPiece::letter`]); with `colour` the sides are coloured too.
#[must_use]
pub fn board_text(game: &AnyGame, flipped: bool, colour: bool) -> String {
    let geometry = BoardGeometry::new(game.kind(), flipped);
    let columns = geometry.column_labels();
    let rows = geometry.row_labels();
    let mut text = String::new();
    let header: String = columns.iter().map(|c| format!("{c:<2}")).collect();
    text.push_str(&format!("    {}\n", header.trim_end()));
    for (row, label) in rows.iter().enumerate() {
        let mut line = format!("{label:>2}  ");
        for column in 0..columns.len() {
            let cell = Cell {
                row: row as u8,
                column: column as u8,
            };
            let symbol = match geometry.square_at(cell) {
                None => " ".to_owned(),
                Some(square) => match game.piece_on(square) {
                    None => match geometry.layout.surface {
                        Surface::Intersections | Surface::Squares { .. } => ".".to_owned(),
                    },
                    Some(piece) => {
                        let letter = piece.letter();
                        match (colour, piece.side) {
                            (false, _) => letter.to_string(),
                            (true, Side::First) => format!("\x1b[1;31m{letter}\x1b[0m"),
                            (true, Side::Second) => format!("\x1b[1;36m{letter}\x1b[0m"),
                        }
                    }
                },
            };
            line.push_str(&symbol);
            line.push(' ');
        }
        // Not trimmed: light squares at the end of a row keep the right-hand labels aligned.
        text.push_str(&line);
        text.push_str(&format!(" {label}\n"));
    }
    text.push_str(&format!("    {}\n", header.trim_end()));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;

    #[test]
    fn the_board_prints_with_coordinates_and_letters() {
        let text = board_text(&AnyGame::start(GameKind::Checkers), true, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    h g f e d c b a");
        assert_eq!(lines[1], " 1    w   w   w   w  1");
        assert_eq!(lines[8], " 8  b   b   b   b    8");
        let ttt = AnyGame::from_position_text(GameKind::TicTacToe, "X---O----").expect("pos");
        let text = board_text(&ttt, false, false);
        assert_eq!(text.lines().nth(1), Some(" 3  X . .  3"));
        assert_eq!(text.lines().nth(2), Some(" 2  . O .  2"));
    }
}
