//! Drawing: turns the [`App`] state into a frame. Nothing here changes state; the screens and
//! dialogs live in the submodules, the layout shared with mouse handling in [`layout`].

pub mod board;
pub mod dialogs;
pub mod game;
pub mod help;
pub mod layout;
pub mod lobby;
pub mod panel;

use crate::app::{App, Link, Overlay, Screen};
use crate::ui::layout::{GameLayout, STATUS_HEIGHT};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// The smallest terminal the lobby is drawn in.
pub const MIN_LOBBY: (u16, u16) = (40, 10);

/// Draws the whole screen.
pub fn draw(frame: &mut Frame<'_>, app: &App) {
    let area = frame.area();
    let main = Rect {
        height: area.height.saturating_sub(STATUS_HEIGHT),
        ..area
    };
    let drawn = match (app.screen, &app.table) {
        (Screen::Game, Some(table)) => {
            if game::draw(frame, area, app, table) {
                true
            } else {
                let (width, height) = GameLayout::minimum(&table.geometry());
                too_small(
                    frame,
                    area,
                    width,
                    height,
                    &format!("a {} board", table.kind),
                );
                return;
            }
        }
        _ => {
            if area.width < MIN_LOBBY.0 || area.height < MIN_LOBBY.1 {
                too_small(frame, area, MIN_LOBBY.0, MIN_LOBBY.1, "the lobby");
                return;
            }
            lobby::draw(frame, main, app);
            true
        }
    };
    if drawn {
        status_bar(frame, area, app);
    }
    match &app.overlay {
        Some(Overlay::Help) => dialogs::help(frame, app.screen == Screen::Game, &app.theme),
        Some(Overlay::Themes { selected }) => dialogs::themes(frame, *selected, &app.theme),
        Some(Overlay::Create(form)) => dialogs::create(frame, form, &app.theme),
        Some(Overlay::Confirm(what)) => dialogs::confirm(frame, *what, &app.theme),
        None => {
            if app.screen == Screen::Game
                && let Some(table) = &app.table
                && table.result().is_some()
                && !app.game_over_dismissed
            {
                dialogs::game_over(frame, table, &app.theme);
            }
        }
    }
}

/// The message shown instead of a broken picture when the terminal is too small.
fn too_small(frame: &mut Frame<'_>, area: Rect, width: u16, height: u16, what: &str) {
    let text = vec![
        Line::styled(
            "The terminal is too small.",
            Style::default().add_modifier(Modifier::BOLD),
        ),
        Line::from(format!(
            "It is {}x{}; {what} needs at least {width}x{height}.",
            area.width, area.height
        )),
        Line::from("Enlarge the window or make the font smaller. q quits."),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

/// How many lines `text` (after `prefix` columns) takes wrapped at word boundaries in `width`
/// columns, as the status line wraps it (a word longer than a line is broken).
#[must_use]
pub fn wrapped_lines(prefix: usize, text: &str, width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let mut lines = 1_usize;
    let mut used = prefix;
    for word in text.split_whitespace() {
        let length = word.chars().count();
        let needed = if used == 0 { length } else { used + 1 + length };
        if needed <= width {
            used = needed;
        } else if length <= width {
            lines += 1;
            used = length;
        } else {
            // Broken across lines: what is left of the line, then whole lines.
            let rest = length.saturating_sub(width.saturating_sub(used + 1));
            lines += rest.div_ceil(width);
            used = rest % width;
        }
    }
    u16::try_from(lines).unwrap_or(u16::MAX)
}

/// The two bottom lines: the status, then what is being typed or the main keys.
fn status_bar(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let y = area.y + area.height.saturating_sub(STATUS_HEIGHT);
    let link = match &app.link {
        Link::Online => Span::raw(""),
        Link::Connecting => Span::styled("[connecting] ", Style::default().fg(Color::Yellow)),
        Link::Lost { .. } => {
            Span::styled("[offline, reconnecting] ", Style::default().fg(Color::Red))
        }
        Link::Closed { .. } => Span::styled("[disconnected] ", Style::default().fg(Color::Red)),
    };
    let status_style = if app.status_is_error {
        Style::default().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::default()
    };
    let prefix_width = link.content.chars().count();
    let status = Line::from(vec![link, Span::styled(app.status.clone(), status_style)]);
    // A long message (a refusal saying what to do) wraps upwards over the hint line and, if it
    // must, the bottom of the screen: it is never cut.
    let lines = wrapped_lines(prefix_width, &app.status, area.width);
    if lines > 1 {
        // One spare line in case the wrapping breaks a line earlier than counted.
        let lines = (lines + 1).min(area.height.max(1));
        let rect = Rect {
            x: area.x,
            y: (area.y + area.height).saturating_sub(lines),
            width: area.width,
            height: lines,
        };
        frame.render_widget(ratatui::widgets::Clear, rect);
        frame.render_widget(Paragraph::new(status).wrap(Wrap { trim: true }), rect);
        return;
    }
    frame.render_widget(
        Paragraph::new(status),
        Rect {
            x: area.x,
            y,
            width: area.width,
            height: 1,
        },
    );
    let typing = app.table.as_ref().and_then(|t| t.input.as_ref());
    let hint = if let Some(text) = &app.chat_input {
        Line::from(format!("say> {text}▏ (Enter sends, Esc cancels)"))
    } else if let Some(text) = typing {
        Line::from(format!("move> {text}▏ (Enter plays, Esc cancels)"))
    } else {
        let keys = match app.screen {
            Screen::Lobby => {
                "c create · Enter join/watch · w watch · r refresh · t theme · ? help · q quit"
            }
            Screen::Game => {
                "hjkl/arrows+Enter or mouse · 1-9 type move · f flip · r resign · d draw · u undo · ? help"
            }
        };
        Line::styled(keys, Style::default().add_modifier(Modifier::DIM))
    };
    if area.height >= 2 {
        frame.render_widget(
            Paragraph::new(hint),
            Rect {
                x: area.x,
                y: y + 1,
                width: area.width,
                height: 1,
            },
        );
    }
}
