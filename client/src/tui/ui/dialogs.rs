//! The overlays: help, theme choice, the create dialog (with its setup board), yes/no
//! questions and the game-over dialog. Each is a box centred over the screen.

use crate::game::ratings::Ratings;
use crate::game::table::{Table, time_control_text};
use crate::game::words::result_sentence;
use crate::tui::app::Confirm;
use crate::tui::create_form::{CreateForm, Field, TIME_CONTROLS};
use crate::tui::keys::{Place, Situation, dialog_keys, hints};
use crate::tui::theme::Theme;
use crate::tui::ui::board::{self, BoardPicture};
use crate::tui::ui::layout::STATUS_HEIGHT;
use kingme_shared::AnyGame;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{GameId, SeatChoice, SeatHolder};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use std::collections::HashMap;

/// A rectangle of at most `width` x `height` centred in `area`.
#[must_use]
pub(crate) fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

fn boxed(frame: &mut Frame<'_>, area: Rect, title: &str, theme: &Theme) -> Rect {
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" {title} "), theme.accent_style()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    inner
}

/// The screen a help overlay is opened over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HelpFor {
    /// The lobby (and the create dialog).
    Lobby,
    /// A game.
    Game,
    /// The review board of a finished game.
    ReviewBoard,
}

/// The help overlay: the keys of the screen shown (and those that work anywhere, except on the
/// review board, where they do not), so the list fits a standard terminal; each other screen's
/// help lists its own.
pub(crate) fn help(frame: &mut Frame<'_>, under: HelpFor, theme: &Theme) {
    let wanted = |place: &str| match (under, place) {
        (HelpFor::ReviewBoard, place) => place == "review board",
        (_, "anywhere") => true,
        (HelpFor::Game, place) => place == "game",
        (HelpFor::Lobby, place) => place != "game" && place != "review board",
    };
    let keys: Vec<_> = crate::tui::keys::help_rows()
        .filter(|(place, _, _)| wanted(place))
        .collect();
    let area = centred(frame.area(), 92, keys.len() as u16 + 2);
    let title = match under {
        HelpFor::Game => "Keys in a game (the lobby's ? lists the lobby's)",
        HelpFor::Lobby => "Keys in the lobby (a game's ? lists the game's)",
        HelpFor::ReviewBoard => "Keys on the review board",
    };
    let closes = dialog_keys(Place::Reading).join(" · ");
    let inner = boxed(frame, area, &format!("{title} — {closes}"), theme);
    let lines: Vec<Line<'_>> = keys
        .into_iter()
        .map(|(place, keys, what)| {
            Line::from(vec![
                Span::styled(
                    // One place only on the review board: no column for it.
                    if under == HelpFor::ReviewBoard {
                        String::new()
                    } else {
                        format!("{place:<12}")
                    },
                    Style::default().add_modifier(Modifier::DIM),
                ),
                Span::styled(
                    format!("{keys:<14}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(what),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The theme dialog, each theme with a sample of its colours.
pub(crate) fn themes(frame: &mut Frame<'_>, selected: usize, current: &Theme) {
    let area = centred(frame.area(), 44, Theme::ALL.len() as u16 + 4);
    let inner = boxed(frame, area, "Colour theme", current);
    let mut lines = Vec::new();
    for (i, theme) in Theme::ALL.iter().enumerate() {
        let marker = if i == selected { "▶ " } else { "  " };
        let mut name_style = Style::default();
        if i == selected {
            name_style = name_style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(format!("{:<18}", theme.name), name_style),
            Span::styled(
                " ● ",
                Style::default().fg(theme.first_piece).bg(theme.dark_square),
            ),
            Span::styled(
                " ○ ",
                Style::default()
                    .fg(theme.second_piece)
                    .bg(theme.light_square),
            ),
            Span::styled("   ", Style::default().bg(theme.destination)),
        ]));
    }
    lines.push(Line::from(dialog_keys(Place::Themes).join(" · ")));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// A yes/no question.
/// As tall as the wrapped question needs, so its keys always show under it.
pub(crate) fn confirm(frame: &mut Frame<'_>, what: Confirm, theme: &Theme) {
    const WIDTH: u16 = 50;
    let lines = vec![
        Line::from(what.question()),
        Line::from(dialog_keys(Place::Question).join(" · ")),
    ];
    let text = Paragraph::new(lines).wrap(Wrap { trim: true });
    let inner_width = WIDTH.min(frame.area().width).saturating_sub(2);
    let height = text.line_count(inner_width) as u16 + 2;
    let area = centred(frame.area(), WIDTH, height);
    let inner = boxed(frame, area, "Are you sure?", theme);
    frame.render_widget(text, inner);
}

/// The game-over dialog: the winner and the reason, how a rated game moved its people's
/// ratings once the server's list after it came (`ada 1468 (−32)`), and the keys that apply (a
/// spectator is offered no rematch).
pub(crate) fn game_over(
    frame: &mut Frame<'_>,
    table: &Table,
    ratings: &Ratings,
    theme: &Theme,
    now: &dyn Situation,
) {
    let Some(result) = table.result() else {
        return;
    };
    let verdict = match (result.winner, table.your_side) {
        (Some(winner), Some(me)) if winner == me => "You won!",
        (Some(_), Some(_)) => "You lost.",
        _ => "",
    };
    let mut lines = vec![
        Line::styled(result_sentence(table.kind, result), theme.accent_style()),
        Line::from(verdict),
    ];
    let changes: Vec<String> = table
        .seats
        .iter()
        .filter_map(|seat| match seat {
            SeatHolder::Human { name, .. } => ratings
                .change(table.id, table.kind, name)
                .map(|_| format!("{name}{}", ratings.label(table.kind, name, Some(table.id)))),
            _ => None,
        })
        .collect();
    if !changes.is_empty() {
        lines.push(Line::from(format!("Ratings: {}", changes.join(" · "))));
    } else if table.rated && !result.counts_for_rating(table.moves.len()) {
        lines.push(Line::from("Not rated: it ended before both sides moved."));
    }
    let keys = hints(Place::GameOver, now).join(" · ");
    // As wide as the key line (at least 46 columns) where the screen allows, so the keys are
    // not broken across lines; the height is counted at the width the dialog gets.
    let wanted = (keys.chars().count() + 2).max(46);
    lines.push(Line::from(keys));
    let width = u16::try_from(wanted)
        .unwrap_or(u16::MAX)
        .min(frame.area().width);
    let text = Paragraph::new(lines).wrap(Wrap { trim: true });
    let height = text.line_count(width.saturating_sub(2)) as u16 + 2;
    let area = centred(frame.area(), width, height);
    let inner = boxed(frame, area, "Game over", theme);
    frame.render_widget(text, inner);
}

/// The create dialog, or its setup board while placing pieces.
pub(crate) fn create(frame: &mut Frame<'_>, form: &CreateForm, theme: &Theme) {
    if form.placing
        && let Some(setup) = &form.board
    {
        let geometry = setup.geometry();
        // As large as the screen above the status lines allows, so the board gets the largest
        // cells that fit; the keys and any error below it, wrapped.
        let screen = frame.area();
        let above_status = Rect {
            height: screen.height.saturating_sub(STATUS_HEIGHT),
            ..screen
        };
        let area = centred(above_status, 96, above_status.height);
        let inner = boxed(frame, area, "Setup: place pieces", theme);
        let mut lines = vec![
            Line::from(format!(
                "{} to move · {}",
                AnyGame::kind_side_name(setup.kind, setup.side_to_move),
                dialog_keys(Place::SetupBoard).join(" · ")
            )),
            Line::styled(
                form.error.clone().unwrap_or_default(),
                Style::default().fg(ratatui::style::Color::Red),
            ),
        ];
        if form.error.is_none() {
            lines.pop();
        }
        let footer_text = Paragraph::new(lines).wrap(Wrap { trim: false });
        let footer_height = (footer_text.line_count(inner.width) as u16).min(inner.height);
        let board_frame = Rect {
            height: inner.height.saturating_sub(footer_height),
            ..inner
        };
        if let Some(board_area) = geometry.fit(board_frame) {
            let lookup = |square: u16| setup.pieces.get(&square).copied();
            let picture = BoardPicture {
                geometry,
                piece: &lookup,
                highlights: HashMap::new(),
                cursor: Some(setup.cursor),
                numbers: true,
            };
            board::draw(frame.buffer_mut(), board_area, &picture, theme);
        }
        let footer = Rect {
            y: inner.y + inner.height.saturating_sub(footer_height),
            height: footer_height,
            ..inner
        };
        frame.render_widget(footer_text, footer);
        return;
    }
    let colour = match form.seat {
        SeatChoice::Side(side) => AnyGame::kind_side_name(form.kind, side).to_owned(),
        SeatChoice::Random => "random".to_owned(),
        SeatChoice::Spectate => "nobody: watch (bots or guests play)".to_owned(),
    };
    let opponent = match form.opponent {
        Some(level) => format!("bot: {}", crate::game::words::bot_level(form.kind, level)),
        None => "open seat (a person or a bot joins)".to_owned(),
    };
    let setup = match (form.setup, &form.board) {
        (crate::tui::create_form::SetupSource::Placed, Some(board)) if board.kind == form.kind => {
            format!(
                "{} ({})",
                form.setup.label(),
                crate::game::words::count(board.pieces.len(), "piece", "pieces")
            )
        }
        _ => form.setup.label().to_owned(),
    };
    let text_label = match form.setup {
        crate::tui::create_form::SetupSource::BoardFile => "File",
        _ => "Position",
    };
    let rows: Vec<(Field, &str, String)> = vec![
        (Field::Game, "Game", form.kind.to_string()),
        (Field::Colour, "You play", colour),
        (Field::Opponent, "Opponent", opponent),
        (
            Field::Time,
            "Clock",
            time_control_text(TIME_CONTROLS[form.time % TIME_CONTROLS.len()]),
        ),
        (
            Field::Rated,
            "Rated",
            if form.rated {
                "yes: the result changes ratings".to_owned()
            } else {
                "no".to_owned()
            },
        ),
        (Field::Setup, "Setup", setup),
        (Field::Text, text_label, form.text.value().to_owned()),
        (Field::Create, "", "[ Create ]".to_owned()),
    ];
    let mut lines = Vec::new();
    for (field, label, value) in rows {
        if field == Field::Text && !form.uses_text() {
            continue;
        }
        let selected = form.field == field;
        let style = if selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        if field == Field::Text && selected {
            // The focused text row: the text with its cursor, scrolled to fit.
            let mut line = form
                .text
                .line(46, Style::default().add_modifier(Modifier::UNDERLINED));
            line.spans.insert(0, Span::raw(format!("{label:>10}  ")));
            lines.push(line);
            continue;
        }
        let arrows = selected && !matches!(field, Field::Text | Field::Create);
        let value = if arrows {
            format!("◀ {value} ▶")
        } else {
            value
        };
        lines.push(Line::from(vec![
            Span::raw(format!("{label:>10}  ")),
            Span::styled(value, style),
        ]));
    }
    lines.push(Line::from(""));
    if let Some(error) = &form.error {
        lines.push(Line::styled(
            error.clone(),
            Style::default().fg(ratatui::style::Color::Red),
        ));
    } else {
        lines.push(Line::styled(
            dialog_keys(Place::Create).join(" · "),
            Style::default().add_modifier(Modifier::DIM),
        ));
    }
    // As tall as its rows and the wrapped error need, so the whole error shows.
    const WIDTH: u16 = 62;
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let height = text.line_count(WIDTH.min(frame.area().width).saturating_sub(2)) as u16 + 2;
    let area = centred(frame.area(), WIDTH, height);
    let inner = boxed(frame, area, "Create a game", theme);
    frame.render_widget(text, inner);
}

/// The whole status message, wrapped (the status line shows only what fits).
pub(crate) fn message(frame: &mut Frame<'_>, text: &str, theme: &Theme) {
    let width = 70.min(frame.area().width);
    let lines = vec![
        Line::from(text.to_owned()),
        Line::from(""),
        Line::from(dialog_keys(Place::Reading).join(" · ")),
    ];
    let text = Paragraph::new(lines).wrap(Wrap { trim: true });
    let height = text.line_count(width.saturating_sub(2)) as u16 + 2;
    let area = centred(frame.area(), width, height);
    let inner = boxed(frame, area, "Message", theme);
    frame.render_widget(text, inner);
}

/// The bot level dialog of the lobby's `a`.
pub(crate) fn bot_level(
    frame: &mut Frame<'_>,
    game: GameId,
    kind: Option<kingme_shared::GameKind>,
    selected: usize,
    theme: &Theme,
) {
    let area = centred(frame.area(), 44, Level::ALL.len() as u16 + 4);
    let name = |level: Level| match kind {
        Some(kind) => crate::game::words::bot_level(kind, level),
        None => level.to_string(),
    };
    let inner = boxed(
        frame,
        area,
        &format!("A bot for game {game} (rating)"),
        theme,
    );
    let mut lines: Vec<Line<'_>> = Level::ALL
        .iter()
        .enumerate()
        .map(|(i, level)| {
            if i == selected {
                Line::styled(
                    format!("▶ {}", name(*level)),
                    Style::default().add_modifier(Modifier::REVERSED),
                )
            } else {
                Line::from(format!("  {}", name(*level)))
            }
        })
        .collect();
    lines.push(Line::from(dialog_keys(Place::BotLevel).join(" · ")));
    frame.render_widget(Paragraph::new(lines), inner);
}
