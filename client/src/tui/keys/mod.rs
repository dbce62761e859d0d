//! The one key table: every key of the screens and dialogs, what it does, when it applies and
//! how the footer names it ([`BINDINGS`]). Dispatch, footers and help all read it, so they
//! cannot disagree: [`App`] asks [`place`] where keys go now and [`action`]
//! what a key does there; the status line shows [`footer`] (only the keys that apply now);
//! dialogs show [`dialog_keys`]; the help overlay lists [`help_rows`] and the player's
//! guide (docs/player-guide.md) lists [`rows`] (a test checks both). Ctrl-C, which quits from
//! anywhere, is read before the table.

mod bindings;
pub mod when;

pub use bindings::BINDINGS;

use crate::tui::app::{App, Overlay, Screen};
use ratatui::crossterm::event::KeyCode;

/// Where a key works: a screen, or a dialog over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On both screens (and over the game-over dialog).
    Anywhere,
    Lobby,
    Game,
    Create,
    SetupBoard,
    /// Typing a move's number or text.
    MoveLine,
    /// Typing a chat line.
    ChatLine,
    /// The game-over dialog.
    GameOver,
    Themes,
    BotLevel,
    /// A yes/no question.
    Question,
    /// The help or the whole status message.
    Reading,
}

impl Place {
    /// The place as the help overlay and the player's guide name it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Place::Anywhere => "anywhere",
            Place::Lobby => "lobby",
            Place::Game => "game",
            Place::Create => "create",
            Place::SetupBoard => "setup board",
            Place::MoveLine => "move line",
            Place::ChatLine => "chat line",
            Place::GameOver => "game over",
            Place::Themes => "themes",
            Place::BotLevel => "bot level",
            Place::Question => "question",
            Place::Reading => "help, message",
        }
    }

    /// Whether the help overlay lists this place's keys; the other places are small dialogs
    /// and lines that show their keys themselves ([`dialog_keys`]).
    #[must_use]
    pub fn in_help(self) -> bool {
        matches!(
            self,
            Place::Anywhere | Place::Lobby | Place::Game | Place::Create | Place::SetupBoard
        )
    }

    /// Whether the keys that work anywhere work here too.
    fn takes_anywhere_keys(self) -> bool {
        matches!(self, Place::Lobby | Place::Game | Place::GameOver)
    }
}

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Help,
    Themes,
    Quit,
    WholeMessage,
    /// The previous entry of a list (the lobby's games, themes, bot levels).
    SelectUp,
    /// The next entry of a list.
    SelectDown,
    JoinOrWatch,
    Watch,
    AttachBot,
    Create,
    Refresh,
    BackToGame,
    CursorUp,
    CursorDown,
    CursorLeft,
    CursorRight,
    /// Pick up the piece at the cursor, or put it down.
    Choose,
    /// The mouse (listed for help; the mouse has its own path).
    Click,
    LetGo,
    TypeMove,
    TypeText,
    Flip,
    Numbers,
    ReviewBack,
    ReviewForward,
    ReviewLive,
    Resign,
    Draw,
    Answer,
    Takeback,
    Rematch,
    Chat,
    Lobby,
    Leave,
    PreviousRow,
    NextRow,
    PreviousValue,
    NextValue,
    NextPiece,
    SwitchSide,
    ClearBoard,
    /// Enter in a dialog or a line: do what it is for (create, apply, play, send, yes).
    Submit,
    /// Close a dialog or stop typing without doing anything (Esc, or "any other key").
    Cancel,
}

/// One row of the key table.
#[derive(Clone, Copy)]
pub struct Binding {
    pub place: Place,
    /// The keys as shown in help and the player's guide.
    pub keys: &'static str,
    pub what: &'static str,
    pub action: Action,
    /// Whether a key code is this binding's.
    pub matches: fn(KeyCode) -> bool,
    /// Whether it applies in the app's present state.
    pub applies: fn(&App) -> bool,
    /// The footer's short name, if the footer (or the dialog) shows this key.
    pub footer: Option<&'static str>,
    /// Whether the footer shows it now (by default: whenever it applies).
    pub shown: Option<fn(&App) -> bool>,
}

/// A row that always applies and is not in the footer.
const fn bind(
    place: Place,
    keys: &'static str,
    what: &'static str,
    action: Action,
    matches: fn(KeyCode) -> bool,
) -> Binding {
    Binding {
        place,
        keys,
        what,
        action,
        matches,
        applies: when::always,
        footer: None,
        shown: None,
    }
}

impl Binding {
    /// Applies only when `applies` holds.
    const fn when(self, applies: fn(&App) -> bool) -> Binding {
        Binding { applies, ..self }
    }

    /// Named in the footer (or the dialog) as `name` while it applies.
    const fn footer(self, name: &'static str) -> Binding {
        Binding {
            footer: Some(name),
            ..self
        }
    }

    /// Named in the footer as `name` only while `shown` holds.
    const fn footer_when(self, name: &'static str, shown: fn(&App) -> bool) -> Binding {
        Binding {
            footer: Some(name),
            shown: Some(shown),
            ..self
        }
    }

    /// The key codes this row matches, among every key the client reads (see [`codes`]).
    #[must_use]
    pub fn codes(&self) -> Vec<KeyCode> {
        codes().into_iter().filter(|k| (self.matches)(*k)).collect()
    }

    /// Whether the footer names this key now.
    #[must_use]
    pub fn is_shown(&self, app: &App) -> bool {
        self.footer.is_some() && self.shown.unwrap_or(self.applies)(app)
    }
}

/// Every key code a row could match: the printable characters, the arrows and editing keys,
/// and F1 to F12.
#[must_use]
pub fn codes() -> Vec<KeyCode> {
    let mut keys: Vec<KeyCode> = (' '..='~').map(KeyCode::Char).collect();
    keys.extend([
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
    ]);
    keys.extend((1..=12).map(KeyCode::F));
    keys
}

/// Where keys go now: the dialog on top, else the line being typed, else the screen.
#[must_use]
pub fn place(app: &App) -> Place {
    match &app.overlay {
        Some(Overlay::Help | Overlay::Message) => return Place::Reading,
        Some(Overlay::Themes { .. }) => return Place::Themes,
        Some(Overlay::BotLevel { .. }) => return Place::BotLevel,
        Some(Overlay::Confirm(_)) => return Place::Question,
        Some(Overlay::Create(form)) if form.placing && form.board.is_some() => {
            return Place::SetupBoard;
        }
        Some(Overlay::Create(_)) => return Place::Create,
        None => {}
    }
    if app.chat_input.is_some() {
        return Place::ChatLine;
    }
    match app.screen {
        Screen::Lobby => Place::Lobby,
        Screen::Game => match &app.table {
            Some(table) if table.result().is_some() && !app.game_over_dismissed => Place::GameOver,
            Some(table) if table.input.is_some() => Place::MoveLine,
            _ => Place::Game,
        },
    }
}

/// What `key` does where keys go now, if it does something now. A key that works anywhere
/// does not work while a move is typed.
#[must_use]
pub fn action(app: &App, key: KeyCode) -> Option<Action> {
    let place = place(app);
    let typing = app.table.as_ref().is_some_and(|t| t.input.is_some());
    let anywhere = place.takes_anywhere_keys() && !typing;
    BINDINGS
        .iter()
        .filter(|b| b.place == place || (anywhere && b.place == Place::Anywhere))
        .find(|b| (b.matches)(key) && (b.applies)(app))
        .map(|b| b.action)
}

/// The short names of a place's keys that apply now, in the table's order, each once.
#[must_use]
pub fn hints(place: Place, app: &App) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for binding in BINDINGS.iter().filter(|b| b.place == place) {
        if let Some(name) = binding.footer
            && binding.is_shown(app)
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    names
}

/// The short names of all a dialog's keys (or a typed line's), in the table's order, each
/// once: the line a dialog shows under its content. Its keys apply whenever it is open.
#[must_use]
pub fn dialog_keys(place: Place) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in BINDINGS
        .iter()
        .filter(|b| b.place == place)
        .filter_map(|b| b.footer)
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The footer: the keys of the screen shown that apply now, then those that work anywhere,
/// as many as fit in `width` columns in that order; `? help` always ends it.
#[must_use]
pub fn footer(app: &App, width: u16) -> String {
    const HELP: &str = "? help";
    let place = match app.screen {
        Screen::Lobby => Place::Lobby,
        Screen::Game => Place::Game,
    };
    let mut names = hints(place, app);
    for name in hints(Place::Anywhere, app) {
        if name != HELP && !names.contains(&name) {
            names.push(name);
        }
    }
    let mut shown: Vec<&str> = Vec::new();
    for name in names {
        let mut trial = shown.clone();
        trial.extend([name, HELP]);
        if trial.join(" · ").chars().count() <= usize::from(width) {
            shown.push(name);
        }
    }
    shown.push(HELP);
    shown.join(" · ")
}

/// Every row of the table as the player's guide lists it, each key once: (place, keys, what).
pub fn rows() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    rows_where(|_| true)
}

/// The rows of the help overlay: those of the places it lists.
pub fn help_rows() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    rows_where(Place::in_help)
}

/// The rows of the places `keep` accepts, each (place, keys) once.
fn rows_where(
    keep: fn(Place) -> bool,
) -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    let mut seen: Vec<(Place, &str)> = Vec::new();
    BINDINGS
        .iter()
        .filter(move |b| keep(b.place))
        .filter_map(move |b| {
            if seen.contains(&(b.place, b.keys)) {
                return None;
            }
            seen.push((b.place, b.keys));
            Some((b.place.name(), b.keys, b.what))
        })
}

#[cfg(test)]
mod tests;
