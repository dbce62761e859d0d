//! The keys of the two screens and of the lines typed on them: each key is looked up in the
//! one key table ([`crate::tui::keys`]) for the place keys go now, and its action done here. The
//! dialogs' keys are in [`super::dialogs`]; what reaches the game goes through an
//! [`Intent`] ([`super::board`]).

use super::{App, Confirm, Overlay, Screen};
use crate::game::board_geometry::Cell;
use crate::game::intent::Intent;
use crate::game::words::result_sentence;
use crate::tui::create_form::CreateForm;
use crate::tui::keys::{self, Action, Place, Situation};
use crate::tui::setup_board::step;
use crate::tui::text_field::TextField;
use crate::tui::theme::Theme;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameStatus, GameSummary, MAX_CHAT_CHARS, MAX_MOVE_TEXT, SeatHolder,
};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

impl App {
    pub(super) fn key(&mut self, key: KeyEvent, out: &mut Vec<ClientMessage>) {
        // Ctrl-C quits from anywhere, dialogs and typed lines included.
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            // A letter still held would answer the question that comes next: it is dropped.
            self.held_letter = None;
            self.ask_quit(out);
            return;
        }
        if self.held_letter_key(key, out) {
            return;
        }
        self.dispatch(key, out);
    }

    /// Does what `key` does where keys go now.
    pub(super) fn dispatch(&mut self, key: KeyEvent, out: &mut Vec<ClientMessage>) {
        let place = self.place();
        let action = keys::action(self, key.code);
        if self.anywhere_key(action, out) {
            return;
        }
        match place {
            Place::Lobby => self.lobby_key(action, out),
            Place::Game => self.game_key(key, action, out),
            Place::MoveLine => self.move_line_key(key, action, out),
            Place::ChatLine => self.chat_line_key(key, action, out),
            Place::GameOver => self.game_over_key(action, out),
            Place::ReviewBoard => self.review_board_key(action),
            Place::Anywhere => {}
            Place::Reading
            | Place::Themes
            | Place::BotLevel
            | Place::Question
            | Place::Create
            | Place::SetupBoard => self.dialog_key(key, action, out),
        }
    }

    /// The keys that work on both screens; true if `action` was one.
    fn anywhere_key(&mut self, action: Option<Action>, out: &mut Vec<ClientMessage>) -> bool {
        match action {
            Some(Action::Help) => self.overlay = Some(Overlay::Help),
            Some(Action::Themes) => {
                let selected = Theme::ALL
                    .iter()
                    .position(|t| t.name == self.theme.name)
                    .unwrap_or(0);
                self.overlay = Some(Overlay::Themes { selected });
            }
            Some(Action::Quit) => self.ask_quit(out),
            Some(Action::WholeMessage) => self.overlay = Some(Overlay::Message),
            _ => return false,
        }
        true
    }

    fn in_live_game(&self) -> bool {
        self.table
            .as_ref()
            .is_some_and(crate::game::table::Table::is_yours_in_progress)
    }

    pub(super) fn ask_quit(&mut self, out: &mut Vec<ClientMessage>) {
        if self.in_live_game() {
            self.overlay = Some(Overlay::Confirm(Confirm::Quit));
        } else {
            self.leave(out);
            self.quit = true;
        }
    }

    pub(super) fn leave(&mut self, out: &mut Vec<ClientMessage>) {
        self.act(Intent::Leave, out);
        self.table = None;
        self.screen = Screen::Lobby;
        out.push(ClientMessage::ListGames);
    }

    /// The game selected in the lobby.
    #[must_use]
    pub fn selected_game(&self) -> Option<&GameSummary> {
        self.games.get(self.lobby_selected)
    }

    fn lobby_key(&mut self, action: Option<Action>, out: &mut Vec<ClientMessage>) {
        let selected = self.selected_game().map(|g| g.id);
        match action {
            Some(Action::SelectUp) => {
                self.lobby_selected = self.lobby_selected.saturating_sub(1);
            }
            Some(Action::SelectDown) if self.lobby_selected + 1 < self.games.len() => {
                self.lobby_selected += 1;
            }
            Some(Action::Create) => {
                let mut form = match &self.settings.last_game {
                    Some(last) => CreateForm::from_settings(last),
                    None => CreateForm::default(),
                };
                // Rated by default where both sides are identities: a guest has none.
                form.rated = !self.guest;
                self.overlay = Some(Overlay::Create(Box::new(form)));
            }
            Some(Action::Refresh) => {
                out.push(ClientMessage::ListGames);
                self.say("refreshing the list of games");
            }
            Some(Action::JoinOrWatch) => {
                let Some(summary) = self.selected_game() else {
                    self.complain("no game selected: press c to create one");
                    return;
                };
                if self.table.as_ref().is_some_and(|t| t.id == summary.id) {
                    self.screen = Screen::Game;
                    return;
                }
                let open = matches!(summary.status, GameStatus::Open)
                    && summary.seats.iter().any(|s| matches!(s, SeatHolder::Empty));
                let game = summary.id;
                out.push(if open {
                    ClientMessage::Join { game }
                } else {
                    ClientMessage::Watch { game }
                });
                self.ask_for(game);
            }
            Some(Action::Watch) => {
                if let Some(game) = selected {
                    out.push(ClientMessage::Watch { game });
                    self.ask_for(game);
                }
            }
            Some(Action::AttachBot) => {
                if let Some(game) = selected {
                    let selected = Level::ALL
                        .iter()
                        .position(|l| *l == Level::Intermediate)
                        .unwrap_or(0);
                    self.overlay = Some(Overlay::BotLevel { game, selected });
                }
            }
            Some(Action::BackToGame) => self.back_to_game_in_progress(out),
            _ => {}
        }
    }

    /// The first key after the game ended closes the game-over dialog; `m` offers a rematch,
    /// `v` opens the review board.
    fn game_over_key(&mut self, action: Option<Action>, out: &mut Vec<ClientMessage>) {
        self.game_over_dismissed = true;
        if action == Some(Action::Rematch) {
            self.act(Intent::Rematch, out);
        } else if action == Some(Action::OpenReviewBoard) {
            self.open_review_board();
        } else if let Some(table) = &self.table
            && let Some(result) = table.result()
        {
            self.say(result_sentence(table.kind, result));
        }
    }

    fn move_line_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
        out: &mut Vec<ClientMessage>,
    ) {
        let Some(mut line) = self.table.as_mut().and_then(|t| t.input.take()) else {
            return;
        };
        match action {
            Some(Action::Submit) => self.submit(line.value().trim().to_owned(), out),
            Some(Action::Cancel) => {}
            _ => {
                line.key(key);
                if let Some(table) = self.table.as_mut() {
                    table.input = Some(line);
                }
            }
        }
    }

    fn chat_line_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
        out: &mut Vec<ClientMessage>,
    ) {
        let Some(mut line) = self.chat_input.take() else {
            return;
        };
        match action {
            Some(Action::Submit) => {
                if !self.blocking_command(line.value()) {
                    self.act(Intent::Chat(line.value().to_owned()), out);
                }
            }
            Some(Action::Cancel) => {}
            _ => {
                line.key(key);
                self.chat_input = Some(line);
            }
        }
    }

    fn game_key(&mut self, key: KeyEvent, action: Option<Action>, out: &mut Vec<ClientMessage>) {
        let Some(table) = self.table.as_mut() else {
            self.screen = Screen::Lobby;
            return;
        };
        let layout = table.geometry().layout;
        let (rows, columns) = (layout.rows, layout.columns);
        let Some(action) = action else {
            return;
        };
        match action {
            Action::CursorUp => table.cursor = step(table.cursor, -1, 0, rows, columns),
            Action::CursorDown => table.cursor = step(table.cursor, 1, 0, rows, columns),
            Action::CursorLeft => table.cursor = step(table.cursor, 0, -1, rows, columns),
            Action::CursorRight => table.cursor = step(table.cursor, 0, 1, rows, columns),
            Action::Choose => {
                let cell = table.cursor;
                self.choose_cell(cell, out);
            }
            Action::ReviewBack | Action::ReviewForward | Action::ReviewLive => {
                let result = match action {
                    Action::ReviewBack => table.review_step(-1),
                    Action::ReviewForward => table.review_step(1),
                    _ => {
                        table.review = None;
                        Ok("back to the game as it stands".to_owned())
                    }
                };
                match result {
                    Ok(line) => self.say(line),
                    Err(err) => self.complain(err),
                }
            }
            Action::LetGo => {
                table.selection.clear();
                self.say("let go of the piece");
            }
            Action::TypeMove => {
                if let KeyCode::Char(c) = key.code {
                    table.input = Some(TextField::new(MAX_MOVE_TEXT).with_value(&c.to_string()));
                }
            }
            Action::TypeText => table.input = Some(TextField::new(MAX_MOVE_TEXT)),
            Action::Numbers => {
                self.square_numbers = !self.square_numbers;
                self.settings.square_numbers = self.square_numbers;
                self.settings_changed = true;
                self.say(if self.square_numbers {
                    "square numbers on every square (# hides them under pieces)"
                } else {
                    "square numbers on empty squares only"
                });
            }
            Action::Flip => {
                table.flipped = !table.flipped;
                table.cursor = Cell {
                    row: rows - 1 - table.cursor.row,
                    column: columns - 1 - table.cursor.column,
                };
            }
            Action::Resign => self.overlay = Some(Overlay::Confirm(Confirm::Resign)),
            Action::Draw => self.act(Intent::Draw, out),
            Action::Answer => {
                let accept = key.code == KeyCode::Char('a');
                self.act(Intent::Answer { accept }, out);
            }
            Action::Takeback => self.act(Intent::Takeback, out),
            Action::Rematch => self.act(Intent::Rematch, out),
            Action::OpenReviewBoard => self.open_review_board(),
            Action::Chat => self.chat_input = Some(TextField::new(MAX_CHAT_CHARS)),
            Action::Lobby => {
                // The lobby shows what it has at once and asks for the news.
                self.screen = Screen::Lobby;
                out.push(ClientMessage::ListGames);
            }
            Action::Leave => {
                if self.in_live_game() {
                    self.overlay = Some(Overlay::Confirm(Confirm::Leave));
                } else {
                    self.leave(out);
                }
            }
            _ => {}
        }
    }
}
