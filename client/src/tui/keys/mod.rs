//! The one key table: every key of the screens and dialogs, what it does, when it applies and
//! how the footer names it ([`BINDINGS`]). Dispatch, footers and help all read it, so they
//! cannot disagree: the app, seen through [`Situation`], says where keys go now and [`action`]
//! what a key does there; the status line shows [`footer`] (only the keys that apply now);
//! dialogs show [`dialog_keys`]; the help overlay lists [`help_rows`] and the player's
//! guide (docs/player-guide.md) lists [`rows`] (a test checks both). Ctrl-C, which quits from
//! anywhere, is read before the table.

mod bindings;
mod situation;
pub(crate) mod when;

pub use bindings::BINDINGS;
pub use situation::Situation;

use ratatui::crossterm::event::KeyCode;

/// Where a key works: a screen, or a dialog over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On both screens (and over the game-over dialog).
    Anywhere,
    /// The lobby.
    Lobby,
    /// The game screen.
    Game,
    /// The create dialog.
    Create,
    /// Placing pieces on the create dialog's Setup board.
    SetupBoard,
    /// Typing a move's number or text.
    MoveLine,
    /// Typing a chat line.
    ChatLine,
    /// The game-over dialog.
    GameOver,
    /// The colour theme dialog.
    Themes,
    /// The bot level dialog.
    BotLevel,
    /// A yes/no question.
    Question,
    /// The help or the whole status message.
    Reading,
    /// The review board of a finished game (and its progress while it is computed).
    ReviewBoard,
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
            Place::ReviewBoard => "review board",
        }
    }

    /// Whether the help overlay lists this place's keys; the other places are small dialogs
    /// and lines that show their keys themselves ([`dialog_keys`]).
    #[must_use]
    pub(crate) fn in_help(self) -> bool {
        matches!(
            self,
            Place::Anywhere
                | Place::Lobby
                | Place::Game
                | Place::Create
                | Place::SetupBoard
                | Place::ReviewBoard
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
    /// Show the help.
    Help,
    /// Choose a colour theme.
    Themes,
    /// Quit (asking first during a game).
    Quit,
    /// Show the whole status message.
    WholeMessage,
    /// The previous entry of a list (the lobby's games, themes, bot levels).
    SelectUp,
    /// The next entry of a list.
    SelectDown,
    /// Join the selected game's open seat, or watch it.
    JoinOrWatch,
    /// Watch the selected game.
    Watch,
    /// Seat a bot in the selected game's open seat.
    AttachBot,
    /// Open the create dialog.
    Create,
    /// Ask for the lobby's list again.
    Refresh,
    /// Go back to the game in progress.
    BackToGame,
    /// Move the board cursor up.
    CursorUp,
    /// Move the board cursor down.
    CursorDown,
    /// Move the board cursor left.
    CursorLeft,
    /// Move the board cursor right.
    CursorRight,
    /// Pick up the piece at the cursor, or put it down.
    Choose,
    /// The mouse (listed for help; the mouse has its own path).
    Click,
    /// Put the held piece back.
    LetGo,
    /// Start typing a move.
    TypeMove,
    /// Start typing a move with this character.
    TypeText,
    /// Turn the board round.
    Flip,
    /// Show or hide every square's number.
    Numbers,
    /// Look one move back.
    ReviewBack,
    /// Look one move forward.
    ReviewForward,
    /// Back to the live position.
    ReviewLive,
    /// The review board's first position.
    ReviewStart,
    /// The review board's last position.
    ReviewEnd,
    /// The review board's next mistake or blunder.
    NextMistake,
    /// Open the review board of the finished game.
    OpenReviewBoard,
    /// Resign (asking first).
    Resign,
    /// Offer a draw.
    Draw,
    /// Answer a draw offer or a takeback request.
    Answer,
    /// Ask to take a move back.
    Takeback,
    /// Offer a rematch.
    Rematch,
    /// Start typing a chat line.
    Chat,
    /// Go to the lobby.
    Lobby,
    /// Leave the game (asking first).
    Leave,
    /// The dialog's previous row.
    PreviousRow,
    /// The dialog's next row.
    NextRow,
    /// The row's previous value.
    PreviousValue,
    /// The row's next value.
    NextValue,
    /// Change the piece on the setup square.
    NextPiece,
    /// Switch the side to move.
    SwitchSide,
    /// Empty the setup board.
    ClearBoard,
    /// Enter in a dialog or a line: do what it is for (create, apply, play, send, yes).
    Submit,
    /// Close a dialog or stop typing without doing anything (Esc, or "any other key").
    Cancel,
}

/// One row of the key table.
#[derive(Clone, Copy)]
pub struct Binding {
    /// Where the key works.
    pub place: Place,
    /// The keys as shown in help and the player's guide.
    pub keys: &'static str,
    /// What it does, as help and the player's guide say.
    pub what: &'static str,
    /// What it does, for dispatch.
    pub action: Action,
    /// Whether a key code is this binding's.
    pub matches: fn(KeyCode) -> bool,
    /// Whether it applies in the app's present state.
    pub applies: fn(&dyn Situation) -> bool,
    /// The footer's short name, if the footer (or the dialog) shows this key.
    pub footer: Option<&'static str>,
    /// Whether the footer shows it now (by default: whenever it applies).
    pub shown: Option<fn(&dyn Situation) -> bool>,
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
    const fn when(self, applies: fn(&dyn Situation) -> bool) -> Binding {
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
    const fn footer_when(self, name: &'static str, shown: fn(&dyn Situation) -> bool) -> Binding {
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
    pub fn is_shown(&self, now: &dyn Situation) -> bool {
        self.footer.is_some() && self.shown.unwrap_or(self.applies)(now)
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

/// What `key` does where keys go now, if it does something now. A key that works anywhere
/// does not work while a move is typed.
#[must_use]
pub fn action(now: &dyn Situation, key: KeyCode) -> Option<Action> {
    let place = now.place();
    let typing = now.table().is_some_and(|t| t.input.is_some());
    let anywhere = place.takes_anywhere_keys() && !typing;
    BINDINGS
        .iter()
        .filter(|b| b.place == place || (anywhere && b.place == Place::Anywhere))
        .find(|b| (b.matches)(key) && (b.applies)(now))
        .map(|b| b.action)
}

/// The short names of a place's keys that apply now, in the table's order, each once.
#[must_use]
pub(crate) fn hints(place: Place, now: &dyn Situation) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for binding in BINDINGS.iter().filter(|b| b.place == place) {
        if let Some(name) = binding.footer
            && binding.is_shown(now)
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
pub(crate) fn dialog_keys(place: Place) -> Vec<&'static str> {
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
pub fn footer(now: &dyn Situation, width: u16) -> String {
    const HELP: &str = "? help";
    let mut names = hints(now.screen(), now);
    for name in hints(Place::Anywhere, now) {
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
