//! Draws a board: squares or grid lines, the pieces, coordinates around it, and highlights
//! (cursor, held piece, legal destinations, last move). It knows nothing of any one game: the
//! layout and the pieces come through [`BoardGeometry`] and a lookup function.

use crate::game::board_geometry::{BoardArea, BoardGeometry, Cell};
use crate::tui::theme::Theme;
use kingme_shared::board_view::{BoardPiece, PieceKind, Surface};
use kingme_shared::{AnyGame, Side};
use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};
use std::collections::HashMap;

/// Why a square is highlighted, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Highlight {
    /// The held piece and the squares it has landed on.
    Selected,
    /// Where the held piece may go next.
    Destination,
    /// The squares of the last move.
    LastMove,
    /// The squares of the engine's best move (the review board).
    BestMove,
}

/// Everything drawn on the board.
pub(crate) struct BoardPicture<'a> {
    /// Where squares are drawn.
    pub geometry: BoardGeometry,
    /// What stands on a square.
    pub piece: &'a dyn Fn(u16) -> Option<BoardPiece>,
    pub(crate) highlights: HashMap<u16, Highlight>,
    /// The cell the cursor is on, if it is shown.
    pub cursor: Option<Cell>,
    /// Whether every square shows its number, pieces or not (the `#` key); otherwise only
    /// empty squares do.
    pub numbers: bool,
}

/// The glyph of a piece: the first side's filled, the second's hollow, so the sides differ
/// without colour.
#[must_use]
pub(crate) fn glyph(piece: BoardPiece) -> &'static str {
    match (piece.kind, piece.side) {
        (PieceKind::Man | PieceKind::Stone, Side::First) => "●",
        (PieceKind::Man | PieceKind::Stone, Side::Second) => "○",
        (PieceKind::King, Side::First) => "♚",
        (PieceKind::King, Side::Second) => "♔",
        (PieceKind::Cross, _) => "X",
        (PieceKind::Nought, _) => "O",
    }
}

/// Draws a position with only its last move marked (no cursor, nothing held): the replay
/// viewer and the review of a game in progress.
pub(crate) fn draw_position(
    buf: &mut Buffer,
    area: BoardArea,
    game: &AnyGame,
    last_move: &[u16],
    flipped: bool,
    theme: &Theme,
) {
    draw_marked(buf, area, game, &[], last_move, flipped, theme);
}

/// Draws a position with a move to recommend (`best`) and the last move marked; where both
/// touch a square, the recommendation shows: the review board.
pub(crate) fn draw_marked(
    buf: &mut Buffer,
    area: BoardArea,
    game: &AnyGame,
    best: &[u16],
    last_move: &[u16],
    flipped: bool,
    theme: &Theme,
) {
    let lookup = |square: u16| game.piece_on(square);
    let marks = last_move
        .iter()
        .map(|&square| (square, Highlight::LastMove))
        .chain(best.iter().map(|&square| (square, Highlight::BestMove)));
    let picture = BoardPicture {
        geometry: BoardGeometry::new(game.kind(), flipped),
        piece: &lookup,
        highlights: marks.collect(),
        cursor: None,
        numbers: false,
    };
    draw(buf, area, &picture, theme);
}

/// Draws the picture into `buf` at `area`.
pub(crate) fn draw(buf: &mut Buffer, area: BoardArea, picture: &BoardPicture<'_>, theme: &Theme) {
    let geometry = &picture.geometry;
    let label_style = Style::default().fg(theme.text).add_modifier(Modifier::DIM);
    for (column, label) in geometry.column_labels().iter().enumerate() {
        let rect = area.cell_rect(Cell {
            row: 0,
            column: column as u8,
        });
        let x = rect.x + (rect.width.saturating_sub(label.len() as u16)) / 2;
        let grid = area.grid();
        buf.set_string(x, grid.y.saturating_sub(1), label, label_style);
        buf.set_string(x, grid.y + grid.height, label, label_style);
    }
    for (row, label) in geometry.row_labels().iter().enumerate() {
        let rect = area.cell_rect(Cell {
            row: row as u8,
            column: 0,
        });
        let y = rect.y + rect.height / 2;
        buf.set_string(
            area.x.saturating_sub(3),
            y,
            format!("{label:>2}"),
            label_style,
        );
    }
    for row in 0..area.rows {
        for column in 0..area.columns {
            draw_cell(buf, area, picture, theme, Cell { row, column });
        }
    }
}

fn draw_cell(
    buf: &mut Buffer,
    area: BoardArea,
    picture: &BoardPicture<'_>,
    theme: &Theme,
    cell: Cell,
) {
    let geometry = &picture.geometry;
    let rect = area.cell_rect(cell);
    let square = geometry.square_at(cell);
    let highlight = square.and_then(|s| picture.highlights.get(&s).copied());
    let is_cursor = picture.cursor == Some(cell);
    let piece = square.and_then(|s| (picture.piece)(s));
    let piece_style = |piece: BoardPiece| {
        let colour = match piece.side {
            Side::First => theme.first_piece,
            Side::Second => theme.second_piece,
        };
        Style::default().fg(colour).add_modifier(Modifier::BOLD)
    };
    let highlight_style = |highlight: Highlight| match highlight {
        Highlight::Selected => theme.highlight(theme.selected, Modifier::REVERSED),
        Highlight::Destination => theme.highlight(theme.destination, Modifier::UNDERLINED),
        Highlight::LastMove => theme.highlight(theme.last_move, Modifier::ITALIC),
        Highlight::BestMove => theme.highlight(theme.best_move, Modifier::UNDERLINED),
    };
    let (mid_x, mid_y) = (rect.x + rect.width / 2, rect.y + rect.height / 2);
    match geometry.layout.surface {
        Surface::Squares { checkered } => {
            // Checkered boards put pieces on the dark squares only; plain boards (noughts and
            // crosses) put them on every square, so they are drawn on the board colour with
            // grid lines between the squares, and one background meets both sides' colours.
            let dark = checkered && square.is_some();
            let mut style = Style::default().bg(match (checkered, dark) {
                (false, _) => theme.board,
                (true, true) => theme.dark_square,
                (true, false) => theme.light_square,
            });
            if let Some(highlight) = highlight {
                style = style.patch(highlight_style(highlight));
            }
            buf.set_style(rect, style);
            if !checkered {
                grid_lines(buf, rect, cell, area, style.fg(theme.grid));
            }
            if theme.monochrome && dark {
                // Without colour, dark squares are told from light ones by a shade pattern.
                for y in rect.y..rect.y + rect.height {
                    for x in rect.x..rect.x + rect.width {
                        buf.set_string(x, y, "░", style);
                    }
                }
                if piece.is_some() && rect.width >= 3 {
                    buf.set_string(mid_x - 1, mid_y, "   ", style);
                }
            }
            if let Some(square) = square
                && rect.height >= 2
                && ((checkered && piece.is_none()) || picture.numbers)
            {
                let mut number_style = Style::default().fg(match (checkered, dark) {
                    (false, _) => theme.grid,
                    (true, true) => theme.light_square,
                    (true, false) => theme.dark_square,
                });
                if !picture.numbers {
                    number_style = number_style.add_modifier(Modifier::DIM);
                }
                buf.set_string(rect.x, rect.y, square.to_string(), number_style);
            }
            if let Some(piece) = piece {
                buf.set_string(mid_x, mid_y, glyph(piece), piece_style(piece));
            } else if highlight == Some(Highlight::Destination) {
                buf.set_string(mid_x, mid_y, "·", Style::default().fg(theme.text));
            }
        }
        Surface::Intersections => {
            let (last_row, last_column) = (area.rows - 1, area.columns - 1);
            let background = Style::default().bg(theme.board).fg(theme.grid);
            buf.set_style(rect, background);
            let cross = match (cell.row, cell.column) {
                (0, 0) => "┌",
                (0, c) if c == last_column => "┐",
                (0, _) => "┬",
                (r, 0) if r == last_row => "└",
                (r, c) if r == last_row && c == last_column => "┘",
                (r, _) if r == last_row => "┴",
                (_, 0) => "├",
                (_, c) if c == last_column => "┤",
                _ => "┼",
            };
            // The point sits at the cell's left-middle; lines run right and down to the next.
            let point_x = rect.x + (rect.width - 1) / 2;
            for x in rect.x..rect.x + rect.width {
                let on_line =
                    (x > point_x && cell.column < last_column) || (x < point_x && cell.column > 0);
                if on_line {
                    buf.set_string(x, mid_y, "─", background);
                }
            }
            for y in rect.y..rect.y + rect.height {
                let on_line = (y > mid_y && cell.row < last_row) || (y < mid_y && cell.row > 0);
                if on_line {
                    buf.set_string(point_x, y, "│", background);
                }
            }
            let mut point_style = background;
            if let Some(highlight) = highlight {
                point_style = point_style.patch(highlight_style(highlight));
            }
            match piece {
                Some(piece) => {
                    buf.set_string(
                        point_x,
                        mid_y,
                        glyph(piece),
                        point_style.patch(piece_style(piece)),
                    );
                }
                None => {
                    buf.set_string(point_x, mid_y, cross, point_style);
                }
            }
        }
    }
    if theme.marks_last_move() && highlight == Some(Highlight::LastMove) && !is_cursor {
        // Italics may not show, nor the dark squares' colour: the squares get marks of their own.
        marks(buf, rect, geometry.layout.surface, mid_y, LAST_MOVE_MARKS);
    }
    if highlight == Some(Highlight::BestMove) && !is_cursor {
        // In every theme, for colours that sit close to the squares' own (the 16-colour
        // theme's is its dark squares' black) and for people who do not tell colours apart.
        marks(buf, rect, geometry.layout.surface, mid_y, BEST_MOVE_MARKS);
    }
    if is_cursor {
        // The brackets mark the cursor without colour; blink is only an extra where it works.
        let cursor_style = theme.highlight(theme.cursor, Modifier::SLOW_BLINK);
        let marker = Style::default().fg(theme.text).add_modifier(Modifier::BOLD);
        if rect.width >= 3 {
            buf.set_string(rect.x, mid_y, "[", cursor_style.patch(marker));
            buf.set_string(
                rect.x + rect.width - 1,
                mid_y,
                "]",
                cursor_style.patch(marker),
            );
        } else {
            let point_x = rect.x + (rect.width - 1) / 2;
            let x = point_x + 1;
            if x < rect.x + rect.width {
                buf.set_string(x, mid_y, "◂", cursor_style.patch(marker));
            } else if let Some(cell) = buf.cell_mut((point_x, mid_y)) {
                cell.set_style(
                    cursor_style.patch(Style::default().add_modifier(Modifier::REVERSED)),
                );
            }
        }
    }
}

/// The lines of a plain square board (noughts and crosses) along a cell's right and bottom
/// edges, where another cell follows; a cell one row high has room only for the upright line.
fn grid_lines(
    buf: &mut Buffer,
    rect: ratatui::layout::Rect,
    cell: Cell,
    area: BoardArea,
    style: Style,
) {
    let right = cell.column + 1 < area.columns && rect.width >= 2;
    let below = cell.row + 1 < area.rows && rect.height >= 2;
    let (edge_x, edge_y) = (rect.x + rect.width - 1, rect.y + rect.height - 1);
    if right {
        for y in rect.y..rect.y + rect.height {
            buf.set_string(edge_x, y, "│", style);
        }
    }
    if below {
        for x in rect.x..rect.x + rect.width {
            buf.set_string(x, edge_y, "─", style);
        }
    }
    if right && below {
        buf.set_string(edge_x, edge_y, "┼", style);
    }
}

/// The last move's marks without colour or italics: `(` and `)` around a square's middle, or a
/// `*` beside a point (where the cursor's `◂` would go).
/// The last move's marks without colour: around a square, beside a point.
const LAST_MOVE_MARKS: [&str; 3] = ["(", ")", "*"];

/// The best move's marks, in every theme.
const BEST_MOVE_MARKS: [&str; 3] = ["{", "}", "+"];

/// Marks a cell with `[left, right, beside]`: brackets around a square, or one mark beside a
/// point (the intersections have no room around them).
fn marks(
    buf: &mut Buffer,
    rect: ratatui::layout::Rect,
    surface: Surface,
    mid_y: u16,
    [left, right, beside]: [&str; 3],
) {
    let style = Style::default().add_modifier(Modifier::BOLD);
    match surface {
        Surface::Squares { .. } if rect.width >= 3 => {
            buf.set_string(rect.x, mid_y, left, style);
            buf.set_string(rect.x + rect.width - 1, mid_y, right, style);
        }
        Surface::Squares { .. } => {}
        Surface::Intersections => {
            let x = rect.x + (rect.width - 1) / 2 + 1;
            if x < rect.x + rect.width {
                buf.set_string(x, mid_y, beside, style);
            }
        }
    }
}
