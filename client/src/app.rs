//! The terminal client's state and its one `update` function: every key, click, tick and
//! server message goes through [`App::update`], which changes the state and returns the
//! messages to send. No terminal here: tests drive it directly, and `ui` only reads it.

use crate::board_geometry::Cell;
use crate::create_form::{CreateForm, Field, SetupSource};
use crate::event::{Event, LinkEvent};
use crate::selection::Choice;
use crate::setup_board::step;
use crate::table::{Table, result_text};
use crate::theme::Theme;
use crate::ui::layout::GameLayout;
use kingme_shared::AnyGame;
use kingme_shared::protocol::{
    ClientMessage, GameId, GameStatus, GameSummary, MAX_CHAT_CHARS, MAX_MOVE_TEXT, SeatHolder,
    ServerMessage,
};
use ratatui::crossterm::event::{
    Event as TerminalEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};
use ratatui::layout::Rect;
use std::time::Instant;

/// Which screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Lobby,
    Game,
}

/// A dialog over the screen; it takes the keys while open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    Help,
    Themes { selected: usize },
    Create(Box<CreateForm>),
    Confirm(Confirm),
}

/// What a yes/no question is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// Quit the client during a game (the game waits for the player's return).
    Quit,
    /// Resign the game.
    Resign,
    /// Leave the game for the lobby (resigns a game in progress).
    Leave,
    /// `kingme play` while a game is in progress: start the new one anyway?
    NewGame,
}

impl Confirm {
    /// The question asked.
    #[must_use]
    pub fn question(self) -> &'static str {
        match self {
            Confirm::Quit => {
                "Quit kingme? Your game waits for you: start kingme again within the grace \
                 period to go on (r resigns)."
            }
            Confirm::Resign => "Resign this game?",
            Confirm::Leave => "Leave this game for the lobby? A game in progress is resigned.",
            Confirm::NewGame => {
                "A game of yours is in progress (it is open behind this). Start the new game \
                 anyway? n goes back to the game in progress."
            }
        }
    }
}

/// The connection as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting,
    Online,
    Lost { reason: String },
    Closed { reason: String },
}

/// The whole client state.
#[derive(Debug)]
pub struct App {
    pub name: String,
    pub screen: Screen,
    pub games: Vec<GameSummary>,
    pub lobby_selected: usize,
    pub table: Option<Table>,
    pub overlay: Option<Overlay>,
    pub theme: Theme,
    pub link: Link,
    /// The status line: the last thing worth telling the user.
    pub status: String,
    /// Whether the status line reports a problem.
    pub status_is_error: bool,
    /// A chat line being typed.
    pub chat_input: Option<String>,
    /// Whether the game-over dialog was closed.
    pub game_over_dismissed: bool,
    /// The terminal size, for mouse hit-testing.
    pub size: (u16, u16),
    /// The time the screen shows (clocks count down from the last update to this).
    pub now: Instant,
    pub quit: bool,
    /// Sent once, when first connected (`kingme play` creates its game, `kingme watch` asks
    /// to watch).
    pub first_request: Option<ClientMessage>,
    /// The unfinished games the player is seated in, as the server's welcome listed them; the
    /// client goes back to the most recent, and the lobby marks them.
    pub in_progress: Vec<GameId>,
    /// Where a mouse drag started.
    drag_from: Option<u16>,
    /// Ticks seen, for things done every so many ticks.
    ticks: u32,
}

/// Ticks between refreshes of the lobby's list (about five seconds at the terminal's rate).
pub const LOBBY_REFRESH_TICKS: u32 = 80;

impl App {
    /// A client for the player `name`, not yet connected.
    #[must_use]
    pub fn new(name: &str, size: (u16, u16), now: Instant) -> App {
        App {
            name: name.to_owned(),
            screen: Screen::Lobby,
            games: Vec::new(),
            lobby_selected: 0,
            table: None,
            overlay: None,
            theme: Theme::ALL[0],
            link: Link::Connecting,
            status: "connecting…".to_owned(),
            status_is_error: false,
            chat_input: None,
            game_over_dismissed: false,
            size,
            now,
            quit: false,
            first_request: None,
            in_progress: Vec::new(),
            drag_from: None,
            ticks: 0,
        }
    }

    fn say(&mut self, text: impl Into<String>) {
        self.status = text.into();
        self.status_is_error = false;
    }

    fn complain(&mut self, text: impl Into<String>) {
        self.status = text.into();
        self.status_is_error = true;
    }

    /// Handles one event and returns the messages to send to the server.
    pub fn update(&mut self, event: Event) -> Vec<ClientMessage> {
        let mut out = Vec::new();
        match event {
            Event::Tick => {
                self.now = Instant::now();
                self.ticks = self.ticks.wrapping_add(1);
                // The lobby keeps itself current while it is on screen.
                if self.screen == Screen::Lobby
                    && self.link == Link::Online
                    && self.overlay.is_none()
                    && self.ticks.is_multiple_of(LOBBY_REFRESH_TICKS)
                {
                    out.push(ClientMessage::ListGames);
                }
                if let Some(table) = &mut self.table {
                    table.tick();
                }
            }
            Event::Terminal(TerminalEvent::Resize(width, height)) => self.size = (width, height),
            Event::Terminal(TerminalEvent::Key(key)) if key.kind != KeyEventKind::Release => {
                self.key(key, &mut out);
            }
            Event::Terminal(TerminalEvent::Mouse(mouse)) => self.mouse(mouse, &mut out),
            Event::Terminal(_) => {}
            Event::Server(message) => self.server(message, &mut out),
            Event::Link(link) => self.link(link, &mut out),
        }
        out
    }

    fn link(&mut self, event: LinkEvent, out: &mut Vec<ClientMessage>) {
        match event {
            LinkEvent::Connected { resumed } => {
                self.link = Link::Online;
                self.say(if resumed {
                    "reconnected; your games are back"
                } else {
                    "connected: press c to create a game, Enter to join, ? for help"
                });
                out.push(ClientMessage::ListGames);
                let creating = matches!(self.first_request, Some(ClientMessage::CreateGame(_)));
                if creating && !self.in_progress.is_empty() {
                    // `kingme play` with a game in progress: say so and offer it.
                    self.overlay = Some(Overlay::Confirm(Confirm::NewGame));
                } else {
                    out.extend(self.first_request.take());
                }
            }
            LinkEvent::Lost {
                reason,
                retry_in_secs,
            } => {
                self.complain(format!(
                    "connection lost ({reason}); reconnecting in {retry_in_secs} s"
                ));
                self.link = Link::Lost { reason };
            }
            LinkEvent::Closed { reason } => {
                self.complain(format!("disconnected: {reason}"));
                self.link = Link::Closed { reason };
            }
        }
    }

    fn server(&mut self, message: ServerMessage, out: &mut Vec<ClientMessage>) {
        match &message {
            ServerMessage::GameList { games } => {
                self.games = games.clone();
                self.lobby_selected = self.lobby_selected.min(self.games.len().saturating_sub(1));
            }
            ServerMessage::Welcome { games, .. } => {
                self.in_progress = games.clone();
            }
            ServerMessage::State(state) => {
                // Back after a restart with several games in progress: the most recent (the
                // highest number) stays open; the lobby marks the others.
                if self.in_progress.contains(&state.id)
                    && self
                        .table
                        .as_ref()
                        .is_some_and(|t| t.id > state.id && self.in_progress.contains(&t.id))
                {
                    return;
                }
                let returning = self.in_progress.contains(&state.id)
                    && self.table.as_ref().is_none_or(|t| t.id != state.id);
                let result = match &mut self.table {
                    Some(table) if table.id == state.id => table.reset(state, self.now),
                    _ => Table::from_state(state, self.now).map(|table| {
                        self.table = Some(table);
                        self.game_over_dismissed = false;
                    }),
                };
                match result {
                    Ok(()) => {
                        self.screen = Screen::Game;
                        if matches!(self.overlay, Some(Overlay::Create(_))) {
                            self.overlay = None;
                        }
                        let text = self.turn_text();
                        if returning {
                            self.say(format!("back in game {}: {text}", state.id));
                        } else {
                            self.say(text);
                        }
                    }
                    Err(err) => self.complain(err),
                }
            }
            ServerMessage::Error { message, .. } => self.complain(message.clone()),
            ServerMessage::Left { game } => {
                if self.table.as_ref().is_some_and(|t| t.id == *game) {
                    self.table = None;
                    self.screen = Screen::Lobby;
                }
                out.push(ClientMessage::ListGames);
            }
            ServerMessage::RematchStarted { game, rematch } => {
                // Players get the new game's state unasked; a spectator follows it by asking.
                if let Some(table) = self.table.as_ref().filter(|t| t.id == *game) {
                    if table.your_side.is_none() {
                        out.push(ClientMessage::Watch { game: *rematch });
                    }
                    self.say(format!("the rematch is game {rematch}"));
                }
            }
            ServerMessage::ShuttingDown { message } => {
                self.complain(format!("the server is shutting down: {message}"));
            }
            ServerMessage::Ping { .. } | ServerMessage::Pong { .. } => {}
            _ => {
                if let ServerMessage::GameOver { game, .. } = &message {
                    self.in_progress.retain(|id| id != game);
                }
                let now = self.now;
                let Some(table) = self
                    .table
                    .as_mut()
                    .filter(|t| Some(t.id) == game_of(&message))
                else {
                    // News of another game: the lobby list may have changed.
                    if matches!(message, ServerMessage::GameOver { .. }) {
                        out.push(ClientMessage::ListGames);
                    }
                    return;
                };
                let rejected = matches!(message, ServerMessage::MoveRejected { .. });
                if let Some(line) = table.apply(&message, now) {
                    if rejected {
                        self.complain(line);
                    } else {
                        self.say(line);
                    }
                }
            }
        }
    }

    /// A line saying whose turn it is.
    fn turn_text(&self) -> String {
        let Some(table) = &self.table else {
            return String::new();
        };
        if let Some(result) = table.result() {
            return result_text(table.kind, result);
        }
        if matches!(table.status, GameStatus::Open) {
            return "waiting for an opponent to join".to_owned();
        }
        if table.is_my_turn() {
            let placing = table.candidates.iter().any(|c| c.path.len() == 1);
            let what = if placing {
                "choose a square"
            } else {
                "pick up a piece"
            };
            format!("your move: {what} (Enter or click), or type a move's number or text")
        } else {
            format!(
                "{} to move",
                table.game.side_name(table.game.side_to_move())
            )
        }
    }

    fn key(&mut self, key: KeyEvent, out: &mut Vec<ClientMessage>) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c')) {
            self.ask_quit(out);
            return;
        }
        if let Some(overlay) = self.overlay.take() {
            self.overlay_key(overlay, key, out);
            return;
        }
        if let Some(mut line) = self.chat_input.take() {
            match key.code {
                KeyCode::Enter => {
                    if let Some(table) = &self.table
                        && !line.trim().is_empty()
                    {
                        out.push(ClientMessage::Chat {
                            game: table.id,
                            text: line,
                        });
                    }
                }
                KeyCode::Esc => {}
                KeyCode::Backspace => {
                    line.pop();
                    self.chat_input = Some(line);
                }
                KeyCode::Char(c) => {
                    if line.chars().count() < MAX_CHAT_CHARS {
                        line.push(c);
                    }
                    self.chat_input = Some(line);
                }
                _ => self.chat_input = Some(line),
            }
            return;
        }
        match key.code {
            KeyCode::Char('?') | KeyCode::F(1) => self.overlay = Some(Overlay::Help),
            KeyCode::Char('t') if !self.typing() => {
                let selected = Theme::ALL
                    .iter()
                    .position(|t| t.name == self.theme.name)
                    .unwrap_or(0);
                self.overlay = Some(Overlay::Themes { selected });
            }
            KeyCode::Char('q') if !self.typing() => self.ask_quit(out),
            _ => match self.screen {
                Screen::Lobby => self.lobby_key(key, out),
                Screen::Game => self.game_key(key, out),
            },
        }
    }

    fn typing(&self) -> bool {
        self.table.as_ref().is_some_and(|t| t.input.is_some())
    }

    fn in_live_game(&self) -> bool {
        self.table.as_ref().is_some_and(|t| {
            t.your_side.is_some() && matches!(t.status, GameStatus::Playing | GameStatus::Open)
        })
    }

    fn ask_quit(&mut self, out: &mut Vec<ClientMessage>) {
        if self.in_live_game() {
            self.overlay = Some(Overlay::Confirm(Confirm::Quit));
        } else {
            self.leave(out);
            self.quit = true;
        }
    }

    fn leave(&mut self, out: &mut Vec<ClientMessage>) {
        if let Some(table) = self.table.take() {
            out.push(ClientMessage::Leave { game: table.id });
        }
        self.screen = Screen::Lobby;
        out.push(ClientMessage::ListGames);
    }

    fn overlay_key(&mut self, overlay: Overlay, key: KeyEvent, out: &mut Vec<ClientMessage>) {
        match overlay {
            Overlay::Help => {}
            Overlay::Themes { selected } => match key.code {
                KeyCode::Up | KeyCode::Char('k') => {
                    self.overlay = Some(Overlay::Themes {
                        selected: (selected + Theme::ALL.len() - 1) % Theme::ALL.len(),
                    });
                }
                KeyCode::Down | KeyCode::Char('j') => {
                    self.overlay = Some(Overlay::Themes {
                        selected: (selected + 1) % Theme::ALL.len(),
                    });
                }
                KeyCode::Enter | KeyCode::Char(' ') => {
                    self.theme = Theme::ALL[selected % Theme::ALL.len()];
                    self.say(format!("theme: {}", self.theme.name));
                }
                KeyCode::Esc => {}
                _ => self.overlay = Some(Overlay::Themes { selected }),
            },
            Overlay::Confirm(what) => match key.code {
                KeyCode::Char('y') | KeyCode::Enter => match what {
                    // Closing the client is not resigning: the seat waits, as after a
                    // dropped connection, and the next start goes back to the game.
                    Confirm::Quit => self.quit = true,
                    Confirm::Resign => {
                        if let Some(table) = &self.table {
                            out.push(ClientMessage::Resign { game: table.id });
                        }
                    }
                    Confirm::Leave => self.leave(out),
                    Confirm::NewGame => out.extend(self.first_request.take()),
                },
                _ if what == Confirm::NewGame => {
                    self.first_request = None;
                    self.say("back to your game in progress");
                }
                _ => {}
            },
            Overlay::Create(mut form) => {
                if self.form_key(&mut form, key, out) {
                    self.overlay = Some(Overlay::Create(form));
                }
            }
        }
    }

    /// Handles a key in the create dialog; false closes it.
    fn form_key(
        &mut self,
        form: &mut CreateForm,
        key: KeyEvent,
        out: &mut Vec<ClientMessage>,
    ) -> bool {
        if form.placing {
            let Some(board) = form.board.as_mut() else {
                form.placing = false;
                return true;
            };
            match key.code {
                KeyCode::Up | KeyCode::Char('k') => board.move_cursor(-1, 0),
                KeyCode::Down | KeyCode::Char('j') => board.move_cursor(1, 0),
                KeyCode::Left | KeyCode::Char('h') => board.move_cursor(0, -1),
                KeyCode::Right | KeyCode::Char('l') => board.move_cursor(0, 1),
                KeyCode::Char(' ') => {
                    if let Err(err) = board.cycle() {
                        form.error = Some(err);
                    } else {
                        form.error = None;
                    }
                }
                KeyCode::Char('s') => board.side_to_move = board.side_to_move.opponent(),
                KeyCode::Char('x') => board.pieces.clear(),
                KeyCode::Enter | KeyCode::Esc => {
                    form.placing = false;
                    form.error = board.build().err();
                }
                _ => {}
            }
            return true;
        }
        match key.code {
            KeyCode::Esc => return false,
            KeyCode::Up => form.move_field(-1),
            KeyCode::Down | KeyCode::Tab => form.move_field(1),
            KeyCode::Left => form.change(-1),
            KeyCode::Right => form.change(1),
            KeyCode::Backspace => form.backspace(),
            KeyCode::Enter => match form.field {
                Field::Setup if form.setup == SetupSource::Placed => form.open_board(),
                Field::Text => form.move_field(1),
                Field::Create => match form.options() {
                    Ok(options) => {
                        out.push(ClientMessage::CreateGame(options));
                        self.say("creating the game…");
                        return false;
                    }
                    Err(err) => form.error = Some(err),
                },
                _ => form.move_field(1),
            },
            KeyCode::Char(c) if form.field == Field::Text => form.type_char(c),
            KeyCode::Char('k') => form.move_field(-1),
            KeyCode::Char('j') => form.move_field(1),
            KeyCode::Char('h') => form.change(-1),
            KeyCode::Char('l') => form.change(1),
            _ => {}
        }
        true
    }

    fn lobby_key(&mut self, key: KeyEvent, out: &mut Vec<ClientMessage>) {
        let selected = self.games.get(self.lobby_selected).map(|g| g.id);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.lobby_selected = self.lobby_selected.saturating_sub(1);
            }
            KeyCode::Down | KeyCode::Char('j') if self.lobby_selected + 1 < self.games.len() => {
                self.lobby_selected += 1;
            }
            KeyCode::Char('c') | KeyCode::Char('n') => {
                self.overlay = Some(Overlay::Create(Box::default()));
            }
            KeyCode::Char('r') => {
                out.push(ClientMessage::ListGames);
                self.say("refreshing the list of games");
            }
            KeyCode::Enter => {
                let Some(summary) = self.games.get(self.lobby_selected) else {
                    self.complain("no game selected: press c to create one");
                    return;
                };
                if self.table.as_ref().is_some_and(|t| t.id == summary.id) {
                    self.screen = Screen::Game;
                    return;
                }
                let open = matches!(summary.status, GameStatus::Open)
                    && summary.seats.iter().any(|s| matches!(s, SeatHolder::Empty));
                out.push(if open {
                    ClientMessage::Join { game: summary.id }
                } else {
                    ClientMessage::Watch { game: summary.id }
                });
            }
            KeyCode::Char('w') => {
                if let Some(game) = selected {
                    out.push(ClientMessage::Watch { game });
                }
            }
            KeyCode::Char('a') => {
                if let Some(game) = selected {
                    out.push(ClientMessage::AttachBot {
                        game,
                        level: kingme_shared::ai::Level::Intermediate,
                    });
                    self.say(format!("asked for a bot (intermediate) in game {game}"));
                }
            }
            KeyCode::Char('g') if self.table.is_some() => self.screen = Screen::Game,
            _ => {}
        }
    }

    fn game_key(&mut self, key: KeyEvent, out: &mut Vec<ClientMessage>) {
        let Some(table) = self.table.as_mut() else {
            self.screen = Screen::Lobby;
            return;
        };
        let game = table.id;
        let kind = table.kind;
        if let Some(result) = table.result()
            && !self.game_over_dismissed
        {
            // The game-over dialog takes the first key.
            self.game_over_dismissed = true;
            if key.code == KeyCode::Char('m') {
                out.push(ClientMessage::Rematch { game });
                self.say("rematch offered");
            } else {
                self.say(result_text(kind, result));
            }
            return;
        }
        if let Some(mut input) = table.input.take() {
            match key.code {
                KeyCode::Enter => self.submit(input.trim().to_owned(), out),
                KeyCode::Esc => {}
                KeyCode::Backspace => {
                    input.pop();
                    if !input.is_empty() {
                        table.input = Some(input);
                    }
                }
                KeyCode::Char(c) => {
                    if input.len() < MAX_MOVE_TEXT {
                        input.push(c);
                    }
                    table.input = Some(input);
                }
                _ => table.input = Some(input),
            }
            return;
        }
        let layout = table.geometry().layout;
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                table.cursor = step(table.cursor, -1, 0, layout.rows, layout.columns);
            }
            KeyCode::Down | KeyCode::Char('j') => {
                table.cursor = step(table.cursor, 1, 0, layout.rows, layout.columns);
            }
            KeyCode::Left | KeyCode::Char('h') => {
                table.cursor = step(table.cursor, 0, -1, layout.rows, layout.columns);
            }
            KeyCode::Right | KeyCode::Char('l') => {
                table.cursor = step(table.cursor, 0, 1, layout.rows, layout.columns);
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let cell = table.cursor;
                self.choose_cell(cell, out);
            }
            KeyCode::Esc => {
                table.selection.clear();
                self.say("let go of the piece");
            }
            KeyCode::Char(c) if c.is_ascii_digit() || c.is_ascii_uppercase() => {
                table.input = Some(c.to_string());
            }
            KeyCode::Char(':') | KeyCode::Char('/') => table.input = Some(String::new()),
            KeyCode::Char('f') => {
                table.flipped = !table.flipped;
                let (rows, columns) = (layout.rows, layout.columns);
                table.cursor = Cell {
                    row: rows - 1 - table.cursor.row,
                    column: columns - 1 - table.cursor.column,
                };
            }
            KeyCode::Char('r') if table.your_side.is_some() && table.result().is_none() => {
                self.overlay = Some(Overlay::Confirm(Confirm::Resign));
            }
            KeyCode::Char('d') if table.your_side.is_some() => {
                let offered_to_me = table
                    .draw_offer
                    .is_some_and(|by| Some(by) != table.your_side);
                out.push(if offered_to_me {
                    ClientMessage::AnswerDraw { game, accept: true }
                } else {
                    ClientMessage::OfferDraw { game }
                });
                self.say(if offered_to_me {
                    "draw accepted"
                } else {
                    "draw offered"
                });
            }
            KeyCode::Char('a') | KeyCode::Char('n') => {
                let accept = key.code == KeyCode::Char('a');
                let mine = table.your_side;
                if table.draw_offer.is_some_and(|by| Some(by) != mine) {
                    table.draw_offer = None;
                    out.push(ClientMessage::AnswerDraw { game, accept });
                } else if table.takeback_request.is_some_and(|by| Some(by) != mine) {
                    table.takeback_request = None;
                    out.push(ClientMessage::AnswerTakeback { game, accept });
                } else {
                    self.complain("nothing to answer: no draw offer or takeback request");
                }
            }
            KeyCode::Char('u') if table.your_side.is_some() => {
                out.push(ClientMessage::RequestTakeback { game });
                self.say("takeback requested");
            }
            KeyCode::Char('m') if table.your_side.is_some() => {
                out.push(ClientMessage::Rematch { game });
                self.say("rematch offered");
            }
            KeyCode::Char('c') => self.chat_input = Some(String::new()),
            KeyCode::Char('b') => self.screen = Screen::Lobby,
            KeyCode::Char('x') => {
                if self.in_live_game() {
                    self.overlay = Some(Overlay::Confirm(Confirm::Leave));
                } else {
                    self.leave(out);
                }
            }
            _ => {}
        }
    }

    /// Plays a typed move: a number from the list or a move's text.
    fn submit(&mut self, text: String, out: &mut Vec<ClientMessage>) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        if text.is_empty() {
            return;
        }
        if !table.is_my_turn() {
            self.complain(format!("{text:?} not sent: it is not your turn"));
            return;
        }
        let chosen = if text.bytes().all(|b| b.is_ascii_digit())
            && !crate::plain::moves_are_numbers(&table.game)
        {
            let count = table.candidates.len();
            match text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=count).contains(n))
            {
                Some(n) => Ok(table.candidates[n - 1].text.clone()),
                None => Err(format!(
                    "there is no move number {text}: choose 1 to {count}"
                )),
            }
        } else {
            table
                .game
                .parse_move(&text)
                .map(|mv| table.game.move_text(&mv))
                .map_err(|err| err.to_string())
        };
        match chosen {
            Ok(text) => self.send_move(text, out),
            Err(err) => self.complain(err),
        }
    }

    fn send_move(&mut self, text: String, out: &mut Vec<ClientMessage>) {
        if let Some(table) = self.table.as_mut() {
            table.selection.clear();
            table.pending_move = Some(text.clone());
            out.push(ClientMessage::Move {
                game: table.id,
                text: text.clone(),
            });
            self.say(format!("you play {text}"));
        }
    }

    /// The player chose a cell (keyboard or mouse).
    fn choose_cell(&mut self, cell: Cell, out: &mut Vec<ClientMessage>) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        table.cursor = cell;
        let Some(square) = table.geometry().square_at(cell) else {
            self.complain("pieces stand on the dark squares only");
            return;
        };
        let refusal = if table.your_side.is_none() {
            Some("you are watching this game".to_owned())
        } else if let Some(result) = table.result() {
            Some(format!(
                "the game is over: {}",
                result_text(table.kind, result)
            ))
        } else if !table.is_my_turn() {
            Some(format!(
                "wait: it is {}'s turn",
                table.game.side_name(table.game.side_to_move())
            ))
        } else if table.pending_move.is_some() {
            Some("your move was sent; waiting for the server".to_owned())
        } else {
            None
        };
        let (Some(me), None) = (table.your_side, &refusal) else {
            self.complain(refusal.unwrap_or_default());
            return;
        };
        let name = AnyGame::square_name(table.kind, square);
        match table
            .selection
            .choose(square, &table.game, &table.candidates, me)
        {
            Choice::PickedUp { .. } => self.say(format!(
                "picked up the piece on {name}; choose where it goes (Esc lets go)"
            )),
            Choice::Continued { .. } => {
                self.say(format!("landed on {name}; the capture goes on: jump again"));
            }
            Choice::PutBack => self.say("put the piece back"),
            Choice::Play { text } => self.send_move(text, out),
            Choice::Refused { reason } => self.complain(reason),
        }
    }

    fn mouse(&mut self, mouse: MouseEvent, out: &mut Vec<ClientMessage>) {
        if self.overlay.is_some() || self.screen != Screen::Game {
            return;
        }
        let Some(table) = &self.table else {
            return;
        };
        let geometry = table.geometry();
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        let Some(board) = GameLayout::new(area, &geometry).board else {
            return;
        };
        let cell = board.hit(mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.drag_from = None;
                if let Some(cell) = cell {
                    self.choose_cell(cell, out);
                    let holding = self
                        .table
                        .as_ref()
                        .and_then(|t| t.selection.path().last().copied());
                    self.drag_from = holding;
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                // Releasing on another square than where the drag began puts the piece there.
                let from = self.drag_from.take();
                if let (Some(from), Some(cell)) = (from, cell)
                    && geometry.square_at(cell) != Some(from)
                {
                    self.choose_cell(cell, out);
                }
            }
            _ => {}
        }
    }
}

/// The game a server message is about, if it is about one.
#[must_use]
pub fn game_of(message: &ServerMessage) -> Option<GameId> {
    match message {
        ServerMessage::State(state) => Some(state.id),
        ServerMessage::YourTurn { game, .. }
        | ServerMessage::MovePlayed { game, .. }
        | ServerMessage::MoveRejected { game, .. }
        | ServerMessage::SeatChanged { game, .. }
        | ServerMessage::GameOver { game, .. }
        | ServerMessage::DrawOffered { game, .. }
        | ServerMessage::DrawDeclined { game, .. }
        | ServerMessage::TakebackRequested { game, .. }
        | ServerMessage::TakebackDeclined { game, .. }
        | ServerMessage::RematchOffered { game, .. }
        | ServerMessage::Chat { game, .. }
        | ServerMessage::TookBack { game, .. }
        | ServerMessage::RematchStarted { game, .. }
        | ServerMessage::Left { game } => Some(*game),
        _ => None,
    }
}
