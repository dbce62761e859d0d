//! The side panel of the game screen: players and clocks, the game's status and counts, the
//! numbered legal moves, the move history and the chat.

use crate::game::move_list::MoveList;
use crate::game::table::{Table, clock_text, time_control_text};
use crate::tui::app::App;
use crate::tui::ui::layout::PANEL_WIDTH;
use kingme_shared::protocol::GameStatus;
use kingme_shared::{GameKind, Side};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

/// Draws the panel for `table` in `area`: the whole panel, or the compact one in an area
/// narrower than [`PANEL_WIDTH`].
pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, table: &Table) {
    if area.width < PANEL_WIDTH {
        draw_compact(frame, area, app, table);
        return;
    }
    let theme = &app.theme;
    let title = format!(" {} #{} ", table.kind, table.id);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, theme.accent_style()));
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let mut header = Vec::new();
    for side in Side::BOTH {
        let to_move =
            matches!(table.status, GameStatus::Playing) && table.game.side_to_move() == side;
        let marker = if to_move { "▶" } else { " " };
        let you = if table.your_side == Some(side) {
            " (you)"
        } else {
            ""
        };
        let clock = table
            .clock_at(side, app.now)
            .map(clock_text)
            .unwrap_or_default();
        let mut style = Style::default();
        if to_move {
            style = style.add_modifier(Modifier::BOLD);
        }
        let name = format!("{marker} {}{you}", table.game.side_name(side));
        let width = usize::from(inner.width);
        let pad = width.saturating_sub(name.chars().count() + clock.chars().count());
        header.push(Line::styled(
            format!("{name}{}{clock}", " ".repeat(pad)),
            style,
        ));
        header.push(Line::from(format!(
            "    {}",
            table.seat_text(side, app.now, &app.ratings)
        )));
    }
    header.push(Line::from(format!(
        "  clock: {} · {}",
        time_control_text(table.time_control),
        if table.rated { "rated" } else { "casual" }
    )));
    for tally in table.game.tallies() {
        let goal = tally
            .goal
            .map(|g| format!(" ({g} win)"))
            .unwrap_or_default();
        header.push(Line::from(format!(
            "  {}: {} – {}{goal}",
            tally.label, tally.counts[0], tally.counts[1],
        )));
    }
    header.push(Line::styled(status_line(table), theme.accent_style()));
    // The side to move's first move: its clock starts after it.
    if let Some((_, left)) = table.first_move_deadline(app.now) {
        header.push(Line::styled(
            format!("  first move within {}", clock_text(left)),
            theme.accent_style(),
        ));
    }
    let header = Paragraph::new(header).wrap(Wrap { trim: false });
    let header_lines = header.line_count(inner.width) as u16;

    let texts: Vec<String> = table.candidates.iter().map(|c| c.text.clone()).collect();
    let list = MoveList::new(&table.game, &texts);
    let legal = if texts.is_empty() {
        None
    } else {
        Some(
            Paragraph::new(vec![
                Line::styled(
                    list.heading(),
                    Style::default().add_modifier(Modifier::UNDERLINED),
                ),
                Line::from(list.items().join("  ")),
            ])
            .wrap(Wrap { trim: true }),
        )
    };
    let legal_lines = legal
        .as_ref()
        .map_or(0, |text| (text.line_count(inner.width) as u16).min(8));
    let chat = Paragraph::new(
        table
            .chat
            .iter()
            .map(|(from, text)| Line::from(format!("{from}: {text}")))
            .collect::<Vec<_>>(),
    )
    .wrap(Wrap { trim: false });
    let chat_lines = if table.chat.is_empty() {
        0
    } else {
        (chat.line_count(inner.width) as u16 + 1).min(6)
    };
    let [header_area, legal_area, history_area, chat_area] = Layout::vertical([
        Constraint::Length(header_lines),
        Constraint::Length(legal_lines),
        Constraint::Min(2),
        Constraint::Length(chat_lines),
    ])
    .areas(inner);
    frame.render_widget(header, header_area);
    if let Some(legal) = legal {
        frame.render_widget(legal, legal_area);
    }
    let history = history_lines(table);
    let room = usize::from(history_area.height.saturating_sub(1));
    let skip = history.len().saturating_sub(room);
    let mut lines = vec![Line::styled(
        "Moves:",
        Style::default().add_modifier(Modifier::UNDERLINED),
    )];
    lines.extend(history.into_iter().skip(skip).map(Line::from));
    frame.render_widget(Paragraph::new(lines), history_area);
    if chat_lines > 0 {
        // The newest lines, wrapped to the panel's width, under their heading.
        frame.render_widget(
            Line::styled("Chat:", Style::default().add_modifier(Modifier::UNDERLINED)),
            chat_area,
        );
        let body = Rect {
            y: chat_area.y + 1,
            height: chat_area.height.saturating_sub(1),
            ..chat_area
        };
        let total = chat.line_count(body.width) as u16;
        let chat = chat.scroll((total.saturating_sub(body.height), 0));
        frame.render_widget(chat, body);
    }
}

/// The compact panel of a small terminal: what matters most, the clocks, whose move it is
/// and the game's status (with the first-move deadline and an offer).
fn draw_compact(frame: &mut Frame<'_>, area: Rect, app: &App, table: &Table) {
    let theme = &app.theme;
    let block = Block::default().borders(Borders::ALL).title(Span::styled(
        format!(" #{} ", table.id),
        theme.accent_style(),
    ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = Vec::new();
    for side in Side::BOTH {
        let to_move =
            matches!(table.status, GameStatus::Playing) && table.game.side_to_move() == side;
        let marker = if to_move { "▶" } else { " " };
        let clock = table
            .clock_at(side, app.now)
            .map(clock_text)
            .unwrap_or_default();
        let name = format!("{marker} {}", table.game.side_name(side));
        let pad =
            usize::from(inner.width).saturating_sub(name.chars().count() + clock.chars().count());
        let style = if to_move {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        lines.push(Line::styled(
            format!("{name}{}{clock}", " ".repeat(pad)),
            style,
        ));
        if table.your_side == Some(side) {
            lines.push(Line::from("  (you)"));
        } else {
            // Who the opponent is, cut to the panel's width rather than left out.
            let seat = table.seat_text(side, app.now, &app.ratings);
            lines.push(Line::from(format!(
                "  {}",
                cut_to(&seat, usize::from(inner.width).saturating_sub(2))
            )));
        }
    }
    lines.push(Line::styled(
        status_line(table).trim_start().to_owned(),
        theme.accent_style(),
    ));
    if let Some((_, left)) = table.first_move_deadline(app.now) {
        lines.push(Line::from(format!(
            "first move within {}",
            clock_text(left)
        )));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// `text` in at most `width` cells: whole if it fits, else its start and "…".
fn cut_to(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The game's status in a few words.
fn status_line(table: &Table) -> String {
    match table.status {
        GameStatus::Open => "  waiting for an opponent".to_owned(),
        GameStatus::Over(result) => {
            format!(
                "  {}",
                crate::game::words::result_sentence(table.kind, result)
            )
        }
        GameStatus::Playing => {
            let mut text = format!(
                "  {} to move",
                table.game.side_name(table.game.side_to_move())
            );
            if table.draw_offer.is_some() {
                text.push_str(" · draw offered");
            }
            if table.takeback_request.is_some() {
                text.push_str(" · takeback asked");
            }
            text
        }
    }
}

/// The history in numbered pairs: `12. 11-15  23-19`.
#[must_use]
pub fn history_lines(table: &Table) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    // A game set up with the second side to move starts its first line with "...".
    let offset = usize::from(table.moves.first().is_some_and(|m| m.side == Side::Second));
    if offset == 1 {
        lines.push(format!("{:>3}. {:<10}", 1, "..."));
    }
    for (index, record) in table.moves.iter().enumerate() {
        let ply = index + offset;
        // Pente's placements do not show their captures: `M11x2` took two stones.
        let text = if table.kind == GameKind::Pente && !record.removed.is_empty() {
            format!("{}x{}", record.text, record.removed.len())
        } else {
            record.text.clone()
        };
        if ply % 2 == 0 {
            lines.push(format!("{:>3}. {:<10}", ply / 2 + 1, text));
        } else if let Some(line) = lines.last_mut() {
            line.push_str(&text);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::cut_to;

    #[test]
    fn a_name_too_long_for_the_compact_panel_is_cut_with_an_ellipsis() {
        assert_eq!(cut_to("bot intermediate (1210)", 13), "bot intermed…");
        assert_eq!(cut_to("bot intermediate (1210)", 13).chars().count(), 13);
        assert_eq!(cut_to("root", 13), "root");
        assert_eq!(cut_to("émile", 5), "émile");
        assert_eq!(cut_to("abc", 1), "…");
        assert_eq!(cut_to("abc", 0), "");
    }
}
