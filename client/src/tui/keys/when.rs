//! When a key applies: one predicate on the app's state per condition, named for the
//! person's situation ("it is my turn", "a question is waiting for me"). The key table names
//! them; the footer shows only the keys whose condition holds now.

use crate::tui::app::App;
use kingme_shared::protocol::{GameStatus, SeatHolder};
use ratatui::crossterm::event::KeyCode;

/// Always.
pub fn always(_: &App) -> bool {
    true
}

/// A key matching no key code: a row listed for help only (the mouse).
pub fn never(_: KeyCode) -> bool {
    false
}

pub fn has_game(app: &App) -> bool {
    app.table.is_some()
}

pub fn has_games(app: &App) -> bool {
    !app.games.is_empty()
}

pub fn selected_has_open_seat(app: &App) -> bool {
    app.selected_game().is_some_and(|game| {
        matches!(game.status, GameStatus::Open)
            && game.seats.iter().any(|s| matches!(s, SeatHolder::Empty))
    })
}

pub fn is_playing_player(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(|t| t.your_side.is_some() && matches!(t.status, GameStatus::Playing))
}

pub fn can_take_back(app: &App) -> bool {
    is_playing_player(app) && app.table.as_ref().is_some_and(|t| !t.moves.is_empty())
}

pub fn has_moves(app: &App) -> bool {
    app.table.as_ref().is_some_and(|t| !t.moves.is_empty())
}

pub fn is_reviewing(app: &App) -> bool {
    app.table.as_ref().is_some_and(|t| t.review.is_some())
}

pub fn can_start_review(app: &App) -> bool {
    has_moves(app) && !is_reviewing(app)
}

/// The player's turn, on the live position (not while reviewing).
pub fn is_my_turn(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(crate::game::table::Table::is_my_turn)
        && !is_reviewing(app)
}

pub fn holds_piece(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(|t| !t.selection.path().is_empty())
}

pub fn has_question(app: &App) -> bool {
    app.table.as_ref().is_some_and(|t| {
        let mine = t.your_side;
        t.your_side.is_some()
            && (t.draw_offer.is_some_and(|by| Some(by) != mine)
                || t.takeback_request.is_some_and(|by| Some(by) != mine))
    })
}

pub fn is_over_player(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(|t| t.your_side.is_some() && t.result().is_some())
}

/// The line being typed (a move or a chat line) is empty.
pub fn line_is_empty(app: &App) -> bool {
    match (
        &app.chat_input,
        app.table.as_ref().and_then(|t| t.input.as_ref()),
    ) {
        (Some(line), _) | (None, Some(line)) => line.is_empty(),
        (None, None) => true,
    }
}
