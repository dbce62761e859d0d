//! The lobby screen: the server's games with their seats (people and bots with their ratings),
//! clocks and state.

use crate::game::table::{seat_text, time_control_text};
use crate::tui::app::App;
use crate::tui::ui::wrap;
use kingme_shared::protocol::GameStatus;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

/// Draws the lobby in `area`.
pub(crate) fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let title = format!(" kingme — lobby · {} ", app.name);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, app.theme.accent_style()));
    if let Some(url) = &app.web_url {
        block = block.title_bottom(Span::styled(
            format!(" web page: {url} "),
            app.theme.accent_style(),
        ));
    }
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
    // An absent person's time to return counts down from when the list came.
    let elapsed = app.now.saturating_duration_since(app.games_at);
    let rows = app.games.iter().enumerate().map(|(i, game)| {
        let state = match game.status {
            GameStatus::Open | GameStatus::Playing if app.in_progress.contains(&game.id) => {
                "▶ your game: Enter goes back".to_owned()
            }
            GameStatus::Open => "open seat".to_owned(),
            GameStatus::Playing => "playing".to_owned(),
            GameStatus::Over(result) => {
                crate::game::words::result_sentence(game.spec.kind(), result)
            }
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
            seat_text(
                game.spec.kind(),
                &game.status,
                &game.seats[0],
                elapsed,
                &app.ratings,
            ),
            seat_text(
                game.spec.kind(),
                &game.status,
                &game.seats[1],
                elapsed,
                &app.ratings,
            ),
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

/// Column widths of the lobby's table inside `inner` cells. Each column has a natural width and
/// a narrowest one; on a narrow screen the widest columns give up cells first (their text wraps),
/// so the widths always add up to what fits and nothing is cut by the table itself. The state
/// column, which holds result sentences, takes what is left.
fn column_widths(inner: u16) -> [u16; 7] {
    const NATURAL: [u16; 6] = [4, 10, 17, 17, 11, 6];
    const NARROWEST: [u16; 6] = [3, 5, 6, 6, 5, 3];
    const STATE_WANTS: u16 = 12;
    const SPACING: u16 = 6;
    let available = inner.saturating_sub(SPACING);
    let mut widths = NATURAL;
    while widths.iter().sum::<u16>() + STATE_WANTS > available {
        let widest = (0..widths.len())
            .filter(|&column| widths[column] > NARROWEST[column])
            .max_by_key(|&column| widths[column] - NARROWEST[column]);
        match widest {
            Some(column) => widths[column] -= 1,
            None => break,
        }
    }
    let state = available.saturating_sub(widths.iter().sum::<u16>()).max(1);
    [
        widths[0], widths[1], widths[2], widths[3], widths[4], widths[5], state,
    ]
}

#[cfg(test)]
mod tests {
    use super::column_widths;

    #[test]
    fn the_columns_fit_any_width_and_keep_their_natural_size_when_there_is_room() {
        assert_eq!(column_widths(98), [4, 10, 17, 17, 11, 6, 27]);
        for inner in 40..=200 {
            let widths = column_widths(inner);
            let total: u16 = widths.iter().sum::<u16>() + 6;
            assert!(total <= inner, "{inner}: {widths:?}");
            assert!(widths.iter().all(|&w| w >= 1), "{inner}: {widths:?}");
        }
        // Narrow: the seats give up cells before the id and plies columns do.
        let narrow = column_widths(58);
        assert!(narrow[0] >= 3 && narrow[5] >= 3, "{narrow:?}");
        assert!(narrow[2] < 17 && narrow[3] < 17, "{narrow:?}");
    }
}
