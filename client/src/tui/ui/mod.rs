//! Drawing: turns the [`App`] state into a frame. Nothing here changes state; the screens and
//! dialogs live in the submodules, the layout shared with mouse handling in [`layout`]. The
//! review board of a finished game, while open, takes the whole screen.

pub(crate) mod board;
pub(crate) mod dialogs;
pub(crate) mod game;
pub mod help;
pub mod layout;
pub(crate) mod lobby;
pub mod panel;
pub(crate) mod review_board;

use crate::tui::app::{App, Link, Overlay, Screen};
use crate::tui::keys::Place;
use crate::tui::ui::layout::{GameLayout, STATUS_HEIGHT};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// The smallest terminal the lobby is drawn in.
pub(crate) const MIN_LOBBY: (u16, u16) = (40, 10);

/// Draws the whole screen.
pub fn draw(frame: &mut Frame<'_>, app: &App) {
    let area = frame.area();
    let main = Rect {
        height: area.height.saturating_sub(STATUS_HEIGHT),
        ..area
    };
    if let Some(review) = &app.review_screen {
        review_board::draw(frame, review, &app.theme);
        overlay(frame, app);
        return;
    }
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
    overlay(frame, app);
}

/// The dialog on top, if any (the game-over dialog when the game just ended).
fn overlay(frame: &mut Frame<'_>, app: &App) {
    match &app.overlay {
        Some(Overlay::Help) => {
            let under = if app.review_screen.is_some() {
                dialogs::HelpFor::ReviewBoard
            } else if app.screen == Screen::Game {
                dialogs::HelpFor::Game
            } else {
                dialogs::HelpFor::Lobby
            };
            dialogs::help(frame, under, &app.theme);
        }
        Some(Overlay::Themes { selected }) => dialogs::themes(frame, *selected, &app.theme),
        Some(Overlay::Create(form)) => dialogs::create(frame, form, &app.theme),
        Some(Overlay::Confirm(what)) => dialogs::confirm(frame, *what, &app.theme),
        Some(Overlay::Message) => dialogs::message(frame, &app.status, &app.theme),
        Some(Overlay::BotLevel { game, selected }) => {
            let kind = app
                .games
                .iter()
                .find(|g| g.id == *game)
                .map(|g| g.spec.kind());
            dialogs::bot_level(frame, *game, kind, *selected, &app.theme);
        }
        None => {
            if app.screen == Screen::Game
                && let Some(table) = &app.table
                && table.result().is_some()
                && !app.game_over_dismissed
            {
                dialogs::game_over(frame, table, &app.ratings, &app.theme, app);
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

/// The two bottom lines: the status, then what is being typed or the keys that apply now. A
/// status too long for its line takes the second line too (the keys give way); one too long for
/// both ends in "s: read all", and `s` shows it whole.
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
    let typing = app.table.as_ref().and_then(|t| t.input.as_ref());
    let field_line =
        |prompt: &'static str, field: &crate::tui::text_field::TextField, keys: &str| {
            let room = area
                .width
                .saturating_sub((prompt.len() + 1 + str::len(keys)) as u16);
            let mut line = field.line(room, Style::default());
            line.spans.insert(0, Span::raw(prompt));
            line.spans.push(Span::styled(
                format!(" {keys}"),
                Style::default().add_modifier(Modifier::DIM),
            ));
            line
        };
    let keys_of = |place| format!("({})", crate::tui::keys::dialog_keys(place).join(", "));
    let hint = if let Some(field) = &app.chat_input {
        Some(field_line("say> ", field, &keys_of(Place::ChatLine)))
    } else {
        typing.map(|field| field_line("move> ", field, &keys_of(Place::MoveLine)))
    };
    let room = if hint.is_some() || area.height < 2 {
        1
    } else {
        2
    };
    let status_text = format!("{}{}", link.content, app.status);
    let (shown, cut) = fit_lines(&status_text, area.width, room);
    let status_lines = if shown.len() > 1 || cut {
        shown.len() as u16
    } else {
        1
    };
    let mut lines: Vec<Line<'_>> = shown
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            if i == 0 && !link.content.is_empty() {
                let rest = text
                    .get(link.content.len()..)
                    .unwrap_or_default()
                    .to_owned();
                Line::from(vec![link.clone(), Span::styled(rest, status_style)])
            } else {
                Line::styled(text, status_style)
            }
        })
        .collect();
    if status_lines < 2 {
        let footer = hint.unwrap_or_else(|| {
            Line::styled(
                crate::tui::keys::footer(app, area.width),
                Style::default().add_modifier(Modifier::DIM),
            )
        });
        lines.push(footer);
    }
    frame.render_widget(
        Paragraph::new(lines),
        Rect {
            x: area.x,
            y,
            width: area.width,
            height: STATUS_HEIGHT.min(area.height),
        },
    );
}

/// `text` broken into at most `room` lines of `width` columns (at spaces where it can), and
/// whether some was left out (the last line then ends in "… s: read all").
#[must_use]
pub(crate) fn fit_lines(text: &str, width: u16, room: u16) -> (Vec<String>, bool) {
    const MORE: &str = "… s: read all";
    let width = usize::from(width.max(1));
    let mut lines = wrap(text, width);
    let room = usize::from(room.max(1));
    if lines.len() <= room {
        return (lines, false);
    }
    lines.truncate(room);
    if let Some(last) = lines.last_mut() {
        let keep = width.saturating_sub(MORE.chars().count());
        *last = last.chars().take(keep).collect::<String>() + MORE;
    }
    (lines, true)
}

/// `text` broken into lines of at most `width` characters, at spaces where it can.
#[must_use]
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    textwrap::wrap(text, width.max(1))
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect()
}
