//! The keys of the dialogs over the screens: the help and the whole message (any key closes
//! them), the theme and bot level lists, yes/no questions, and the create dialog with its setup
//! board. Each key's action comes from the one key table ([`crate::tui::keys`]); a dialog stays
//! open unless its action closes it.

use super::{App, Confirm, Overlay};
use crate::game::intent::Intent;
use crate::tui::create_form::{CreateForm, Field, SetupSource};
use crate::tui::keys::Action;
use crate::tui::theme::Theme;
use kingme_shared::ai::Level;
use kingme_shared::protocol::ClientMessage;
use ratatui::crossterm::event::KeyEvent;

/// The entry `delta` away from `selected` in a list of `count`, wrapping around.
fn turn(selected: usize, delta: isize, count: usize) -> usize {
    let count = count.max(1);
    (selected + count).saturating_add_signed(delta) % count
}

/// How a list dialog's action moves its selection, if it does.
fn list_step(action: Option<Action>) -> Option<isize> {
    match action {
        Some(Action::SelectUp) => Some(-1),
        Some(Action::SelectDown) => Some(1),
        _ => None,
    }
}

impl App {
    /// A key in the dialog on top; the dialog is taken off while the key is handled and put
    /// back unless the key closed it.
    pub(super) fn dialog_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
        out: &mut Vec<ClientMessage>,
    ) {
        let Some(overlay) = self.overlay.take() else {
            return;
        };
        match overlay {
            Overlay::Help | Overlay::Message => {}
            Overlay::BotLevel { game, selected } => {
                let count = Level::ALL.len();
                if let Some(delta) = list_step(action) {
                    let selected = turn(selected, delta, count);
                    self.overlay = Some(Overlay::BotLevel { game, selected });
                } else if action == Some(Action::Submit) {
                    let level = Level::ALL[selected % count];
                    out.push(ClientMessage::AttachBot { game, level });
                    self.say(format!("asked for a bot ({level}) in game {game}"));
                } else if action != Some(Action::Cancel) {
                    self.overlay = Some(Overlay::BotLevel { game, selected });
                }
            }
            Overlay::Themes { selected } => {
                let count = Theme::ALL.len();
                if let Some(delta) = list_step(action) {
                    let selected = turn(selected, delta, count);
                    self.overlay = Some(Overlay::Themes { selected });
                } else if action == Some(Action::Submit) {
                    self.theme = Theme::ALL[selected % count];
                    self.settings.theme = Some(self.theme.name.to_owned());
                    self.settings_changed = true;
                    self.say(format!("theme: {}", self.theme.name));
                } else if action != Some(Action::Cancel) {
                    self.overlay = Some(Overlay::Themes { selected });
                }
            }
            Overlay::Confirm(what) => self.answer(what, action == Some(Action::Submit), out),
            Overlay::Create(mut form) => {
                if self.form_key(&mut form, key, action, out) {
                    self.overlay = Some(Overlay::Create(form));
                }
            }
        }
    }

    /// The answer to a yes/no question.
    fn answer(&mut self, what: Confirm, yes: bool, out: &mut Vec<ClientMessage>) {
        match (what, yes) {
            // Closing the client is not resigning: the seat waits, as after a dropped
            // connection, and the next start goes back to the game.
            (Confirm::Quit, true) => self.quit = true,
            (Confirm::Resign, true) => self.act(Intent::Resign, out),
            (Confirm::Leave, true) => self.leave(out),
            (Confirm::NewGame, true) => out.extend(self.first_request.take()),
            (Confirm::NewGame, false) => {
                self.first_request = None;
                self.say("back to your game in progress");
            }
            (_, false) => {}
        }
    }

    /// Handles a key in the create dialog; false closes it.
    fn form_key(
        &mut self,
        form: &mut CreateForm,
        key: KeyEvent,
        action: Option<Action>,
        out: &mut Vec<ClientMessage>,
    ) -> bool {
        if form.placing {
            let Some(board) = form.board.as_mut() else {
                form.placing = false;
                return true;
            };
            match action {
                Some(Action::CursorUp) => board.move_cursor(-1, 0),
                Some(Action::CursorDown) => board.move_cursor(1, 0),
                Some(Action::CursorLeft) => board.move_cursor(0, -1),
                Some(Action::CursorRight) => board.move_cursor(0, 1),
                Some(Action::NextPiece) => form.error = board.cycle().err(),
                Some(Action::SwitchSide) => board.side_to_move = board.side_to_move.opponent(),
                Some(Action::ClearBoard) => board.pieces.clear(),
                Some(Action::Submit) => {
                    form.placing = false;
                    form.error = board.build().err();
                }
                _ => {}
            }
            return true;
        }
        // The text row takes the keys it can edit (none of them moves between rows or closes
        // the dialog) before the table's.
        if form.edit(key) {
            return true;
        }
        match action {
            Some(Action::Cancel) => return false,
            Some(Action::PreviousRow) => form.move_field(-1),
            Some(Action::NextRow) => form.move_field(1),
            Some(Action::PreviousValue) => form.change(-1),
            Some(Action::NextValue) => form.change(1),
            // Enter creates the game from any row, as the dialog stands; a setup that is not
            // ready yet (pieces to place, a position to type) is asked for instead.
            Some(Action::Submit) => match form.options() {
                _ if form.field == Field::Setup && form.setup == SetupSource::Placed => {
                    form.open_board();
                }
                Ok(options) => {
                    self.settings.last_game = Some(form.settings());
                    self.settings_changed = true;
                    out.push(ClientMessage::CreateGame(options));
                    self.say("creating the game…");
                    return false;
                }
                Err(err) => form.fail(err),
            },
            _ => {}
        }
        true
    }
}
