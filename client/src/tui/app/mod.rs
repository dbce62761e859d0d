//! The terminal client's state and its one `update` function: every key, click, tick and
//! server message goes through [`App::update`], which changes the state and returns the
//! messages to send. No terminal here: tests drive it directly, and `ui` only reads it.
//!
//! Keys are looked up in the one key table ([`crate::tui::keys`]) and done in `input` (screens
//! and typed lines) and `dialogs`; what reaches the game is an [`crate::game::intent::Intent`]
//! resolved and sent in `board`, which also turns clicks into moves. The review board of a
//! finished game runs and is shown from `review_board`.

mod blocking;
mod board;
mod dialogs;
mod held_letter;
mod input;
pub mod review_board;
mod situation;

use crate::game::game_of;
use crate::game::ratings::Ratings;
use crate::game::table::Table;
use crate::game::words::result_sentence;
use crate::local::blocked::Blocked;
use crate::local::settings::Settings;
use crate::net::event::{Event, LinkEvent};
use crate::tui::create_form::CreateForm;
use crate::tui::text_field::TextField;
use crate::tui::theme::Theme;
use kingme_shared::protocol::{ClientMessage, GameId, GameStatus, GameSummary, ServerMessage};
use ratatui::crossterm::event::{Event as TerminalEvent, KeyEventKind, MouseEventKind};
use std::time::Instant;

/// Which screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The list of games.
    Lobby,
    /// The game on screen.
    Game,
}

/// A dialog over the screen; it takes the keys while open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// The help.
    Help,
    /// The colour themes to choose from.
    Themes {
        /// The theme under the cursor.
        selected: usize,
    },
    /// The create dialog.
    Create(Box<CreateForm>),
    /// A yes/no question.
    Confirm(Confirm),
    /// The whole status message (`s`), for one too long for the status line.
    Message,
    /// The level of a bot to seat in a game's open seat (`a` in the lobby).
    BotLevel {
        /// The game with the open seat.
        game: GameId,
        /// The level under the cursor.
        selected: usize,
    },
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
    /// Dialling, before the first welcome.
    Connecting,
    /// Connected and welcomed.
    Online,
    /// The connection dropped; the client tries again.
    Lost {
        /// Why.
        reason: String,
    },
    /// The connection is over for good.
    Closed {
        /// Why.
        reason: String,
    },
}

/// The whole client state.
#[derive(Debug)]
pub struct App {
    /// The name the person plays under.
    pub name: String,
    /// The screen shown.
    pub screen: Screen,
    /// The lobby's games.
    pub games: Vec<GameSummary>,
    /// When the lobby's list came: its countdowns run from then.
    pub(crate) games_at: Instant,
    pub(crate) lobby_selected: usize,
    /// The game on screen, if any.
    pub table: Option<Table>,
    /// The dialog on top, if any.
    pub overlay: Option<Overlay>,
    /// The colour theme.
    pub theme: Theme,
    /// The connection as the person sees it.
    pub link: Link,
    /// The status line: the last thing worth telling the user.
    pub status: String,
    /// Whether the status line reports a problem.
    pub status_is_error: bool,
    /// A chat line being typed.
    pub(crate) chat_input: Option<TextField>,
    /// Whether the game-over dialog was closed.
    pub(crate) game_over_dismissed: bool,
    /// The terminal size, for mouse hit-testing.
    pub size: (u16, u16),
    /// The time the screen shows (clocks count down from the last update to this).
    pub now: Instant,
    /// Whether the client is to quit.
    pub quit: bool,
    /// Sent once, when first connected (`kingme play` creates its game, `kingme watch` asks
    /// to watch).
    pub first_request: Option<ClientMessage>,
    /// Whether every square shows its number (the `#` key).
    pub square_numbers: bool,
    /// The choices kept between runs; `settings_changed` asks the loop to write them.
    pub settings: Settings,
    /// Whether the settings changed since they were last written.
    pub settings_changed: bool,
    /// Why the settings file could not be read, told once connected.
    pub(crate) settings_problem: Option<String>,
    /// The unfinished games the player is seated in: those the server's welcome listed and
    /// those seen since, until they end. The client goes back to the most recent, and the
    /// lobby marks them.
    pub in_progress: Vec<GameId>,
    /// Whether the person plays as a guest (no identity, never rated).
    pub guest: bool,
    /// The web page of the server inside kingme (`kingme --http`), shown in the lobby.
    pub web_url: Option<String>,
    /// The game last asked for (joined, watched, gone back to): its state is shown even when
    /// it is over.
    asked_for: Option<GameId>,
    /// Where a mouse drag started.
    drag_from: Option<u16>,
    /// Whether the server pushes the lobby's list to this client (asked while the lobby is
    /// on screen and the link is up).
    watching_lobby: bool,
    /// A lower-case letter that may begin a typed square, waiting for the next key.
    held_letter: Option<held_letter::HeldLetter>,
    /// The people whose chat is hidden (`/block`); `blocked_changed` asks the loop to write
    /// them.
    pub blocked: Blocked,
    /// Whether the blocked names changed since they were last written.
    pub blocked_changed: bool,
    /// People's ratings, written beside their names.
    pub ratings: Ratings,
    /// The review board of a finished game (`v`), over the screens while open.
    pub review_screen: Option<review_board::ReviewScreen>,
}

impl App {
    /// A client for the player `name`, not yet connected.
    #[must_use]
    pub fn new(name: &str, size: (u16, u16), now: Instant) -> App {
        App {
            name: name.to_owned(),
            screen: Screen::Lobby,
            games: Vec::new(),
            games_at: now,
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
            square_numbers: false,
            settings: Settings::default(),
            settings_changed: false,
            settings_problem: None,
            in_progress: Vec::new(),
            guest: false,
            web_url: None,
            asked_for: None,
            drag_from: None,
            watching_lobby: false,
            held_letter: None,
            blocked: Blocked::default(),
            blocked_changed: false,
            ratings: Ratings::default(),
            review_screen: None,
        }
    }

    /// Applies the kept choices (theme, square numbers; the create dialog reads the rest).
    #[must_use]
    pub fn with_settings(mut self, settings: Settings) -> App {
        if let Some(theme) = Theme::ALL
            .iter()
            .find(|t| Some(t.name) == settings.theme.as_deref())
        {
            self.theme = *theme;
        }
        self.square_numbers = settings.square_numbers;
        self.settings = settings;
        self
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
                if let Some(table) = &mut self.table {
                    table.tick();
                }
                self.release_held_letter(&mut out);
                self.collect_review();
            }
            Event::Terminal(TerminalEvent::Resize(width, height)) => self.size = (width, height),
            Event::Terminal(TerminalEvent::Key(key)) if key.kind != KeyEventKind::Release => {
                self.key(key, &mut out);
            }
            Event::Terminal(TerminalEvent::Mouse(mouse)) => {
                if matches!(mouse.kind, MouseEventKind::Down(_)) {
                    self.let_go_of_held_letter(&mut out);
                }
                self.mouse(mouse, &mut out);
            }
            Event::Terminal(_) => {}
            Event::Server(message) => self.server(message, &mut out),
            Event::Link(link) => self.link(link, &mut out),
        }
        self.watch_lobby_while_shown(&mut out);
        out
    }

    /// The lobby keeps itself current while it is on screen: the server pushes its list to a
    /// client that watches it, so the client asks to watch when the lobby comes up and stops
    /// when it goes (a new connection starts unwatched).
    fn watch_lobby_while_shown(&mut self, out: &mut Vec<ClientMessage>) {
        if self.link != Link::Online {
            self.watching_lobby = false;
            return;
        }
        let wanted = self.screen == Screen::Lobby;
        if wanted != self.watching_lobby {
            self.watching_lobby = wanted;
            out.push(ClientMessage::WatchLobby { on: wanted });
            // The ratings beside the lobby's names are as current as the list.
            if wanted {
                out.push(ClientMessage::Leaderboard { kind: None });
            }
        }
    }

    fn link(&mut self, event: LinkEvent, out: &mut Vec<ClientMessage>) {
        match event {
            LinkEvent::Connected { resumed } => {
                self.link = Link::Online;
                // The new connection watches nothing yet.
                self.watching_lobby = false;
                // The server sends a game's chat so far again with its state.
                if let Some(table) = &mut self.table {
                    table.chat.clear();
                }
                self.say(if resumed {
                    "reconnected; your games are back"
                } else {
                    "connected: press c to create a game, Enter to join, ? for help"
                });
                if let Some(problem) = self.settings_problem.take() {
                    self.complain(format!("connected, but {problem}"));
                }
                out.push(ClientMessage::ListGames);
                // The lobby asks for the ratings when it comes up; a game on screen asks now.
                if self.screen != Screen::Lobby {
                    out.push(ClientMessage::Leaderboard { kind: None });
                }
                let creating = matches!(self.first_request, Some(ClientMessage::CreateGame(_)));
                if creating && !self.in_progress.is_empty() {
                    // `kingme play` with a game in progress: say so and offer it.
                    self.overlay = Some(Overlay::Confirm(Confirm::NewGame));
                } else {
                    out.extend(self.first_request.take());
                }
            }
            LinkEvent::Lost { ref reason, .. } => {
                let reason = reason.clone();
                self.complain(event.notice().unwrap_or_default());
                self.link = Link::Lost { reason };
            }
            LinkEvent::Reseating { .. } | LinkEvent::Unseated { .. } => {
                self.complain(event.notice().unwrap_or_default());
            }
            LinkEvent::Notice { text } => self.say(text),
            LinkEvent::Closed { reason } => {
                self.complain(format!("disconnected: {reason}"));
                self.link = Link::Closed { reason };
            }
        }
    }

    fn server(&mut self, message: ServerMessage, out: &mut Vec<ClientMessage>) {
        match &message {
            ServerMessage::GameList { games } => {
                // The selection stays on the same game wherever the list puts it.
                let selected = self.selected_game().map(|g| g.id);
                self.games = games.clone();
                self.games_at = self.now;
                self.lobby_selected = selected
                    .and_then(|id| self.games.iter().position(|g| g.id == id))
                    .unwrap_or(self.lobby_selected)
                    .min(self.games.len().saturating_sub(1));
            }
            ServerMessage::Leaderboard { entries } => self.ratings.update(entries),
            ServerMessage::Welcome { games, .. } => {
                self.in_progress = games.clone();
            }
            ServerMessage::State(state) => {
                let returning = self.in_progress.contains(&state.id)
                    && self.table.as_ref().is_none_or(|t| t.id != state.id);
                let finished = matches!(state.status, GameStatus::Over(_));
                if state.your_side.is_some() && !finished {
                    if !self.in_progress.contains(&state.id) {
                        self.in_progress.push(state.id);
                    }
                } else {
                    self.in_progress.retain(|id| *id != state.id);
                }
                let asked = self.asked_for == Some(state.id);
                // Back after a restart with several games in progress: the most recent (the
                // highest number) stays open; the lobby marks the others.
                if !asked
                    && self.in_progress.contains(&state.id)
                    && self
                        .table
                        .as_ref()
                        .is_some_and(|t| t.id > state.id && self.in_progress.contains(&t.id))
                {
                    return;
                }
                // A finished game sent unasked (its player came back while it waits for a
                // rematch) does not take the place of the game in progress.
                if !asked
                    && finished
                    && self
                        .table
                        .as_ref()
                        .is_some_and(|t| t.id != state.id && t.is_yours_in_progress())
                {
                    return;
                }
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
                self.in_progress.retain(|id| id != game);
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
            // A blocked person's chat is dropped unseen.
            ServerMessage::Chat { from, .. } if self.blocked.contains(from) => {}
            ServerMessage::Announcement { from, text } => {
                self.say(format!("announcement from {from}: {text}"));
            }
            ServerMessage::ShuttingDown { message } => {
                self.complain(format!(
                    "the server is shutting down: {message}; reconnecting when it is back"
                ));
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
                // A rated game's end moved ratings (once both sides moved): the list after it
                // tells by how much.
                if let ServerMessage::GameOver { game, result, .. } = &message
                    && table.rated
                    && result.counts_for_rating(table.moves.len())
                {
                    self.ratings.expect_change(*game);
                    out.push(ClientMessage::Leaderboard { kind: None });
                }
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

    /// "Your game in progress": the game on the table if it is one (seated, not over), else
    /// the most recent of the others the player is seated in. A finished game never is.
    #[must_use]
    pub fn game_in_progress(&self) -> Option<GameId> {
        match &self.table {
            Some(table) if table.is_yours_in_progress() => Some(table.id),
            _ => self.in_progress.iter().max().copied(),
        }
    }

    /// Goes back to the game in progress: on screen if it is the table's, else asked for (the
    /// server gives a seated player its seat back).
    pub(super) fn back_to_game_in_progress(&mut self, out: &mut Vec<ClientMessage>) {
        match self.game_in_progress() {
            Some(game) if self.table.as_ref().is_some_and(|t| t.id == game) => {
                self.screen = Screen::Game;
            }
            Some(game) => {
                self.asked_for = Some(game);
                out.push(ClientMessage::Watch { game });
            }
            None => self.complain("no game of yours is in progress: press c to create one"),
        }
    }

    /// Notes that `game` was asked for: its state is shown when it comes, finished or not.
    pub(super) fn ask_for(&mut self, game: GameId) {
        self.asked_for = Some(game);
    }

    /// A line saying whose turn it is.
    fn turn_text(&self) -> String {
        let Some(table) = &self.table else {
            return String::new();
        };
        if let Some(result) = table.result() {
            return result_sentence(table.kind, result);
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
}
