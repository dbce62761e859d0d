//! The lobby screen: the server's games with their seats, clocks and state.

use crate::app::App;
use crate::table::{seat_text, time_control_text};
use kingme_shared::protocol::GameStatus;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
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
    let rows = app.games.iter().enumerate().map(|(i, game)| {
        let state = match game.status {
            GameStatus::Open => "open seat".to_owned(),
            GameStatus::Playing if app.in_progress.contains(&game.id) => {
                "▶ your game: Enter goes back".to_owned()
            }
            GameStatus::Playing => "playing".to_owned(),
            GameStatus::Over(result) => crate::words::result_sentence(game.kind, result),
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
        Row::new(vec![
            Cell::from(game.id.to_string()),
            Cell::from(game.kind.to_string()),
            Cell::from(seat_text(game.kind, &game.seats[0], Duration::ZERO)),
            Cell::from(seat_text(game.kind, &game.seats[1], Duration::ZERO)),
            Cell::from(time_control_text(game.time_control)),
            Cell::from(game.moves.to_string()),
            Cell::from(format!("{state}{watching}")),
        ])
        .style(style)
    });
    let widths = [
        Constraint::Length(4),
        Constraint::Length(10),
        Constraint::Length(17),
        Constraint::Length(17),
        Constraint::Length(11),
        Constraint::Length(6),
        Constraint::Min(10),
    ];
    frame.render_widget(Table::new(rows, widths).header(header).block(block), area);
}
