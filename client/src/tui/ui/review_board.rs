//! Drawing the review board inside the client: while the review is computed, a gauge of the
//! positions searched ("reviewing: 12/40 positions"); then the review board as `kingme review`
//! draws it ([`crate::archive::review::view`]).

use crate::archive::review::view;
use crate::tui::app::review_board::{Computing, ReviewScreen};
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Gauge, Paragraph, Wrap};

/// Draws the review board, or its progress, over the whole frame.
pub(crate) fn draw(frame: &mut Frame<'_>, review: &ReviewScreen, theme: &Theme) {
    match review {
        ReviewScreen::Shown(board) => view::draw(board, frame, theme),
        ReviewScreen::Computing(computing) => progress(frame, computing, theme),
    }
}

/// The gauge of positions searched, with the game's number and how to stop.
fn progress(frame: &mut Frame<'_>, computing: &Computing, theme: &Theme) {
    let (done, total) = computing.progress();
    let [_, gauge, note, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(3),
        Constraint::Length(2),
        Constraint::Fill(1),
    ])
    .areas(frame.area());
    let label = if total == 0 {
        "reviewing: starting".to_owned()
    } else {
        format!("reviewing: {done}/{total} positions")
    };
    let ratio = if total == 0 {
        0.0
    } else {
        (done as f64 / total as f64).clamp(0.0, 1.0)
    };
    frame.render_widget(
        Gauge::default()
            .block(Block::bordered().title(format!("review of game {}", computing.game)))
            .gauge_style(theme.accent_style())
            .ratio(ratio)
            .label(label),
        gauge,
    );
    frame.render_widget(
        Paragraph::new("the engine looks at every move · Esc or q stops and goes back")
            .style(Style::default().add_modifier(Modifier::DIM))
            .wrap(Wrap { trim: true }),
        note,
    );
}
