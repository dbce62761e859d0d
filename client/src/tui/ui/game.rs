//! The game screen: the board with the position (or the running animation), highlights for
//! the cursor, the held piece, its destinations and the last move; the side panel beside it.

use crate::game::table::Table;
use crate::tui::app::App;
use crate::tui::ui::board::{self, BoardPicture, Highlight};
use crate::tui::ui::layout::GameLayout;
use crate::tui::ui::panel;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::collections::HashMap;

/// Draws `table` in `area`; returns false when the area is too small for the board.
pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, table: &Table) -> bool {
    let geometry = table.geometry();
    let layout = GameLayout::new(area, &geometry);
    let Some(board_area) = layout.board else {
        return false;
    };
    if let Some(review) = &table.review {
        // An earlier position: the same board widget, only its move marked, no cursor.
        board::draw_position(
            frame.buffer_mut(),
            board_area,
            &review.game,
            &review.last_move,
            table.flipped,
            &app.theme,
        );
        if layout.panel.width > 0 {
            panel::draw(frame, layout.panel, app, table);
        }
        return true;
    }
    let mut highlights = HashMap::new();
    if table.animation.is_none()
        && let Some(last) = table.last_move()
    {
        for &square in &last.path {
            highlights.insert(square, Highlight::LastMove);
        }
    }
    for square in table.selection.destinations(&table.candidates) {
        highlights.insert(square, Highlight::Destination);
    }
    for &square in table.selection.path() {
        highlights.insert(square, Highlight::Selected);
    }
    let lookup = |square: u16| match &table.animation {
        Some(animation) => animation
            .overlay(square)
            .unwrap_or_else(|| table.game.piece_on(square)),
        None => table.game.piece_on(square),
    };
    let picture = BoardPicture {
        geometry,
        piece: &lookup,
        highlights,
        cursor: (table.your_side.is_some() && table.result().is_none()).then_some(table.cursor),
        numbers: app.square_numbers,
    };
    board::draw(frame.buffer_mut(), board_area, &picture, &app.theme);
    if layout.panel.width > 0 {
        panel::draw(frame, layout.panel, app, table);
    }
    true
}
