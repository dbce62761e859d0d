//! When a key applies: one predicate on the person's [`Situation`] per condition, named for it
//! ("it is my turn", "a question is waiting for me"). The key table names them; the footer
//! shows only the keys whose condition holds now.

use super::Situation;
use kingme_shared::protocol::{GameStatus, SeatHolder};
use ratatui::crossterm::event::KeyCode;

/// Always.
pub(crate) fn always(_: &dyn Situation) -> bool {
    true
}

/// A key matching no key code: a row listed for help only (the mouse).
pub(crate) fn never(_: KeyCode) -> bool {
    false
}

/// `[` could start stepping through the moves, and the game is not over: once it is, the
/// review board's `v` steps through them too, so the footer leaves `[` out to make room for the
/// way out (the key still works).
pub(crate) fn can_start_review_live(now: &dyn Situation) -> bool {
    can_start_review(now) && now.table().is_some_and(|t| t.result().is_none())
}

/// A game of the person's is in progress (seated, not over).
pub(crate) fn has_game_in_progress(now: &dyn Situation) -> bool {
    now.game_in_progress().is_some()
}

pub(crate) fn has_games(now: &dyn Situation) -> bool {
    !now.games().is_empty()
}

pub(crate) fn selected_has_open_seat(now: &dyn Situation) -> bool {
    now.selected_game().is_some_and(|game| {
        matches!(game.status, GameStatus::Open)
            && game.seats.iter().any(|s| matches!(s, SeatHolder::Empty))
    })
}

pub(crate) fn is_playing_player(now: &dyn Situation) -> bool {
    now.table()
        .is_some_and(|t| t.your_side.is_some() && matches!(t.status, GameStatus::Playing))
}

pub(crate) fn can_take_back(now: &dyn Situation) -> bool {
    is_playing_player(now) && now.table().is_some_and(|t| !t.moves.is_empty())
}

pub(crate) fn has_moves(now: &dyn Situation) -> bool {
    now.table().is_some_and(|t| !t.moves.is_empty())
}

pub(crate) fn is_reviewing(now: &dyn Situation) -> bool {
    now.table().is_some_and(|t| t.review.is_some())
}

pub(crate) fn can_start_review(now: &dyn Situation) -> bool {
    has_moves(now) && !is_reviewing(now)
}

/// The player's turn, on the live position (not while reviewing).
pub(crate) fn is_my_turn(now: &dyn Situation) -> bool {
    now.table()
        .is_some_and(crate::game::table::Table::is_my_turn)
        && !is_reviewing(now)
}

pub(crate) fn holds_piece(now: &dyn Situation) -> bool {
    now.table().is_some_and(|t| !t.selection.path().is_empty())
}

pub(crate) fn has_question(now: &dyn Situation) -> bool {
    now.table().is_some_and(|t| {
        let mine = t.your_side;
        t.your_side.is_some()
            && (t.draw_offer.is_some_and(|by| Some(by) != mine)
                || t.takeback_request.is_some_and(|by| Some(by) != mine))
    })
}

/// A finished game with moves to review is on the table (played or watched).
pub(crate) fn is_over_with_moves(now: &dyn Situation) -> bool {
    has_moves(now) && now.table().is_some_and(|t| t.result().is_some())
}

pub(crate) fn is_over_player(now: &dyn Situation) -> bool {
    now.table()
        .is_some_and(|t| t.your_side.is_some() && t.result().is_some())
}

/// The line being typed (a move or a chat line) is empty.
pub(crate) fn line_is_empty(now: &dyn Situation) -> bool {
    match (now.chat_line(), now.table().and_then(|t| t.input.as_ref())) {
        (Some(line), _) | (None, Some(line)) => line.is_empty(),
        (None, None) => true,
    }
}
