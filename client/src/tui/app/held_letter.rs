//! Lower-case squares typed on the game screen (`b2`, `k10`): a lower-case letter that can
//! begin a square of the game is also a screen key (`b` the lobby, `k` the cursor up), so on
//! the player's turn it is held until the next key says which it is. A digit makes it the
//! first letter of a typed move; any other key, or a short wait, lets it do what its key does.
//! A cursor key moves the cursor at once, and a digit puts the cursor back, so moving about
//! never waits.

use super::App;
use crate::game::board_geometry::Cell;
use crate::tui::keys::{self, Action, Place, Situation};
use crate::tui::text_field::TextField;
use kingme_shared::protocol::{ClientMessage, MAX_MOVE_TEXT};
use kingme_shared::{AnyGame, MoveError};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::{Duration, Instant};

/// How long a held letter waits for a digit before it acts as its key.
pub(crate) const HOLD: Duration = Duration::from_millis(500);

/// A lower-case letter waiting to learn whether it begins a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HeldLetter {
    /// The key as pressed.
    key: KeyEvent,
    /// When it was pressed (the app's time then).
    since: Instant,
    /// Where the cursor was before a cursor key moved it at once; `None` for a key that waits.
    cursor_before: Option<Cell>,
}

/// Whether `letter` can begin a square's name in `game` (as `b` does `b2` in noughts and
/// crosses and `k` does `K10` in Pente; no letter does in checkers, whose squares are numbers).
pub(crate) fn begins_square(game: &AnyGame, letter: char) -> bool {
    letter.is_ascii_lowercase()
        && !matches!(
            game.parse_move(&format!("{letter}1")),
            Err(MoveError::Syntax { .. } | MoveError::GameOver)
        )
}

impl App {
    /// Sees `key` in the light of a held letter; returns whether the key was used up here
    /// (held, or typed as a square's digit). A letter let go acts first, as its key.
    pub(super) fn held_letter_key(&mut self, key: KeyEvent, out: &mut Vec<ClientMessage>) -> bool {
        if let Some(held) = self.held_letter.take() {
            let digit = matches!(key.code, KeyCode::Char(c) if c.is_ascii_digit());
            if digit
                && self.place() == Place::Game
                && let (KeyCode::Char(letter), KeyCode::Char(digit)) = (held.key.code, key.code)
                && let Some(table) = self.table.as_mut()
            {
                if let Some(cursor) = held.cursor_before {
                    table.cursor = cursor;
                }
                let text = format!("{letter}{digit}");
                table.input = Some(TextField::new(MAX_MOVE_TEXT).with_value(&text));
                return true;
            }
            if held.cursor_before.is_none() {
                self.dispatch(held.key, out);
            }
        }
        self.hold(key, out)
    }

    /// Holds `key` if it is a lower-case letter that may begin a square, on the player's turn
    /// on the game screen; a cursor key moves the cursor at once as well.
    fn hold(&mut self, key: KeyEvent, out: &mut Vec<ClientMessage>) -> bool {
        let KeyCode::Char(letter) = key.code else {
            return false;
        };
        let holds = key.modifiers.difference(KeyModifiers::SHIFT).is_empty()
            && self.place() == Place::Game
            && keys::when::is_my_turn(self)
            && self
                .table
                .as_ref()
                .is_some_and(|t| begins_square(&t.game, letter));
        if !holds {
            return false;
        }
        let moves_cursor = matches!(
            keys::action(self, key.code),
            Some(Action::CursorUp | Action::CursorDown | Action::CursorLeft | Action::CursorRight)
        );
        let cursor_before = match (&self.table, moves_cursor) {
            (Some(table), true) => Some(table.cursor),
            _ => None,
        };
        if moves_cursor {
            self.dispatch(key, out);
        }
        self.held_letter = Some(HeldLetter {
            key,
            since: self.now,
            cursor_before,
        });
        true
    }

    /// A tick: a letter held long enough acts as its key.
    pub(super) fn release_held_letter(&mut self, out: &mut Vec<ClientMessage>) {
        if let Some(held) = self.held_letter
            && self.now.saturating_duration_since(held.since) >= HOLD
        {
            self.held_letter = None;
            if held.cursor_before.is_none() {
                self.dispatch(held.key, out);
            }
        }
    }

    /// Something other than a key came (a click): a held letter acts first, as its key.
    pub(super) fn let_go_of_held_letter(&mut self, out: &mut Vec<ClientMessage>) {
        if let Some(held) = self.held_letter.take()
            && held.cursor_before.is_none()
        {
            self.dispatch(held.key, out);
        }
    }
}
