//! Where the parts of the game screen go for a terminal size: the board (with the largest cells
//! that fit), the side panel and the status lines. The drawing code and the mouse handling use
//! the same layout, so a click is read against what was drawn.

use crate::game::board_geometry::{BoardArea, BoardGeometry, LABEL_WIDTH};
use ratatui::layout::Rect;

/// Width of the side panel.
pub(crate) const PANEL_WIDTH: u16 = 34;
/// Width of the compact panel (clocks, whose move, the status) beside a board that leaves no
/// room for the whole panel.
pub(crate) const COMPACT_PANEL_WIDTH: u16 = 17;
/// Lines of the status bar at the bottom.
pub(crate) const STATUS_HEIGHT: u16 = 2;

/// The game screen's parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameLayout {
    /// `None` when the terminal is too small for the board.
    pub board: Option<BoardArea>,
    /// The rectangle the board is drawn in, labels included.
    pub(crate) board_frame: Rect,
    /// The side panel.
    pub panel: Rect,
    /// The status line and footer.
    pub status: Rect,
}

impl GameLayout {
    /// The layout for a screen area.
    #[must_use]
    pub fn new(area: Rect, geometry: &BoardGeometry) -> GameLayout {
        let main_height = area.height.saturating_sub(STATUS_HEIGHT);
        let status = Rect {
            x: area.x,
            y: area.y + main_height,
            width: area.width,
            height: area.height - main_height,
        };
        let board_width = area.width.saturating_sub(PANEL_WIDTH);
        let board_frame = Rect {
            x: area.x,
            y: area.y,
            width: board_width,
            height: main_height,
        };
        let panel = Rect {
            x: area.x + board_width,
            y: area.y,
            width: area.width - board_width,
            height: main_height,
        };
        let board = geometry.fit(board_frame);
        if board.is_none() {
            // Too narrow for the board beside the panel: beside the compact panel, if it fits.
            let compact_frame = Rect {
                width: area.width.saturating_sub(COMPACT_PANEL_WIDTH),
                ..board_frame
            };
            if let Some(board) = geometry.fit(compact_frame) {
                return GameLayout {
                    board: Some(board),
                    board_frame: compact_frame,
                    panel: Rect {
                        x: area.x + compact_frame.width,
                        width: area.width - compact_frame.width,
                        ..panel
                    },
                    status,
                };
            }
            // Else the board alone, if it fits (the status lines still say whose move it is
            // and what happened).
            let board_frame = Rect {
                width: area.width,
                ..board_frame
            };
            if let Some(board) = geometry.fit(board_frame) {
                return GameLayout {
                    board: Some(board),
                    board_frame,
                    panel: Rect {
                        x: area.x + area.width,
                        width: 0,
                        ..panel
                    },
                    status,
                };
            }
        }
        GameLayout {
            board,
            board_frame,
            panel,
            status,
        }
    }

    /// The smallest terminal (width, height) that shows a game's board (alone, without the
    /// panel).
    #[must_use]
    pub(crate) fn minimum(geometry: &BoardGeometry) -> (u16, u16) {
        let (rows, columns) = (
            u16::from(geometry.layout.rows),
            u16::from(geometry.layout.columns),
        );
        let (width, height) = match geometry.layout.surface {
            kingme_shared::board_view::Surface::Intersections => (2, 1),
            kingme_shared::board_view::Surface::Squares { .. } => (3, 1),
        };
        (
            LABEL_WIDTH + columns * width,
            2 + rows * height + STATUS_HEIGHT,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;

    #[test]
    fn checkers_fits_60x20_beside_a_compact_panel() {
        let geometry = BoardGeometry::new(GameKind::Checkers, false);
        let layout = GameLayout::new(Rect::new(0, 0, 60, 20), &geometry);
        assert!(layout.board.is_some());
        assert_eq!(layout.panel.width, COMPACT_PANEL_WIDTH);
        // Narrower still: the board alone.
        let layout = GameLayout::new(Rect::new(0, 0, 40, 20), &geometry);
        assert!(layout.board.is_some());
        assert_eq!(layout.panel.width, 0);
        // With room, the panel is there.
        let layout = GameLayout::new(Rect::new(0, 0, 80, 24), &geometry);
        assert_eq!(layout.panel.width, PANEL_WIDTH);
    }

    #[test]
    fn every_game_fits_a_standard_terminal_and_the_minimum_is_exact() {
        for kind in GameKind::ALL {
            let geometry = BoardGeometry::new(kind, false);
            let layout = GameLayout::new(Rect::new(0, 0, 80, 24), &geometry);
            assert!(layout.board.is_some(), "{kind} fits 80x24");
            let (width, height) = GameLayout::minimum(&geometry);
            assert!(
                GameLayout::new(Rect::new(0, 0, width, height), &geometry)
                    .board
                    .is_some()
            );
            assert!(
                GameLayout::new(Rect::new(0, 0, width - 1, height), &geometry)
                    .board
                    .is_none()
            );
            assert!(
                GameLayout::new(Rect::new(0, 0, width, height - 1), &geometry)
                    .board
                    .is_none()
            );
        }
    }
}
