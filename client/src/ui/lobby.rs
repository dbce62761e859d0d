//! The lobby screen: the server's games with their seats, clocks and state.

use crate::app::App;
use crate::table::{seat_text, time_control_text};
use crate::ui::wrap;
use kingme_shared::protocol::GameStatus;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};
use std::time::Duration;

/// Draws the lobby in `area`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let title = format!(" kingme — lobby · {} ", app.name);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, app.theme.accent_style()));
    if app.games.is_empty() {
        let text = vec![
            Line::from(""),
            Line::from("  No games yet."),
            Line::from("  Press c to create one: play a bot at once, or open a seat for a friend."),
        ];
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    }
    let header = Row::new(["#", "game", "first", "second", "clock", "plies", "state"])
        .style(Style::default().add_modifier(Modifier::UNDERLINED));
    let widths = column_widths(area.width.saturating_sub(2));
    let rows = app.games.iter().enumerate().map(|(i, game)| {
        let state = match game.status {
            GameStatus::Open => "open seat".to_owned(),
            GameStatus::Playing if app.in_progress.contains(&game.id) => {
                "▶ your game: Enter goes back".to_owned()
            }
            GameStatus::Playing => "playing".to_owned(),
            GameStatus::Over(result) => crate::words::result_sentence(game.spec.kind(), result),
        };
        // Only games going on are watched; a finished game's count is stale.
        let finished = matches!(game.status, GameStatus::Over(_));
        let watching = if game.spectators > 0 && !finished {
            format!(" ({} watching)", game.spectators)
        } else {
            String::new()
        };
        let style = if i == app.lobby_selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        let texts = [
            game.id.to_string(),
            game.spec.to_string(),
            seat_text(game.spec.kind(), &game.seats[0], Duration::ZERO),
            seat_text(game.spec.kind(), &game.seats[1], Duration::ZERO),
            time_control_text(game.time_control),
            game.moves.to_string(),
            format!("{state}{watching}"),
        ];
        // A long name, a countdown or a result wraps inside its column instead of being cut.
        let cells: Vec<Vec<String>> = texts
            .iter()
            .zip(widths)
            .map(|(text, width)| wrap(text, usize::from(width)))
            .collect();
        let height = cells.iter().map(Vec::len).max().unwrap_or(1);
        Row::new(cells.into_iter().map(|lines| {
            Cell::from(Text::from(
                lines.into_iter().map(Line::from).collect::<Vec<_>>(),
            ))
        }))
        .height(u16::try_from(height).unwrap_or(u16::MAX))
        .style(style)
    });
    let widths = widths.map(Constraint::Length);
    frame.render_widget(Table::new(rows, widths).header(header).block(block), area);
}

/// Column widths of the lobby's table inside `inner` cells: fixed for the short columns, the
/// rest (at least 10) for the state, which holds result sentences.
fn column_widths(inner: u16) -> [u16; 7] {
    let fixed = [4, 10, 17, 17, 11, 6];
    let spacing = 6;
    let state = inner
        .saturating_sub(fixed.iter().sum::<u16>() + spacing)
        .max(10);
    [
        fixed[0], fixed[1], fixed[2], fixed[3], fixed[4], fixed[5], state,
    ]
}
