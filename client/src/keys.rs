//! The one key table: every key of the lobby and the game screen, what it does, when it
//! applies and how the footer names it. `App` dispatches through [`action`], the footer shows
//! [`footer`] (only the keys that apply now), and the help overlay and README list
//! [`BINDINGS`], so the three cannot disagree. Keys inside dialogs (create, setup board,
//! themes) are listed here for help; their dialogs read them directly.

use crate::app::{App, Screen};
use kingme_shared::protocol::{GameStatus, SeatHolder};
use ratatui::crossterm::event::KeyCode;

/// Where a key works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Anywhere,
    Lobby,
    Game,
    Create,
    SetupBoard,
}

impl Place {
    /// The place as the help overlay and README name it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Place::Anywhere => "anywhere",
            Place::Lobby => "lobby",
            Place::Game => "game",
            Place::Create => "create",
            Place::SetupBoard => "setup board",
        }
    }
}

/// What a key of a screen does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Help,
    Themes,
    Quit,
    WholeMessage,
    SelectUp,
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
    Choose,
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
}

/// One row of the key table.
pub struct Binding {
    pub place: Place,
    /// The keys as shown in help and README.
    pub keys: &'static str,
    pub what: &'static str,
    /// The footer's short name, if the footer shows this key.
    pub footer: Option<&'static str>,
    /// What it does on a screen (`None`: a dialog's key, listed for help).
    pub action: Option<Action>,
    /// Whether a key code is this binding's.
    pub matches: fn(KeyCode) -> bool,
    /// Whether it applies in the app's present state.
    pub applies: fn(&App) -> bool,
}

fn always(_: &App) -> bool {
    true
}

fn never(_: KeyCode) -> bool {
    false
}

fn has_game(app: &App) -> bool {
    app.table.is_some()
}

fn has_games(app: &App) -> bool {
    !app.games.is_empty()
}

fn selected_has_open_seat(app: &App) -> bool {
    app.selected_game().is_some_and(|game| {
        matches!(game.status, GameStatus::Open)
            && game.seats.iter().any(|s| matches!(s, SeatHolder::Empty))
    })
}

fn is_playing_player(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(|t| t.your_side.is_some() && matches!(t.status, GameStatus::Playing))
}

fn can_take_back(app: &App) -> bool {
    is_playing_player(app) && app.table.as_ref().is_some_and(|t| !t.moves.is_empty())
}

fn has_moves(app: &App) -> bool {
    app.table.as_ref().is_some_and(|t| !t.moves.is_empty())
}

fn is_reviewing(app: &App) -> bool {
    app.table.as_ref().is_some_and(|t| t.review.is_some())
}

fn can_start_review(app: &App) -> bool {
    has_moves(app) && !is_reviewing(app)
}

/// The player's turn, on the live position (not while reviewing).
fn is_my_turn(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(crate::table::Table::is_my_turn)
        && !is_reviewing(app)
}

fn holds_piece(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(|t| !t.selection.path().is_empty())
}

fn has_question(app: &App) -> bool {
    app.table.as_ref().is_some_and(|t| {
        let mine = t.your_side;
        t.your_side.is_some()
            && (t.draw_offer.is_some_and(|by| Some(by) != mine)
                || t.takeback_request.is_some_and(|by| Some(by) != mine))
    })
}

fn is_over_player(app: &App) -> bool {
    app.table
        .as_ref()
        .is_some_and(|t| t.your_side.is_some() && t.result().is_some())
}

/// Every key, in the order help lists them and the footer names them.
pub const BINDINGS: &[Binding] = &[
    Binding {
        place: Place::Anywhere,
        keys: "?  F1",
        what: "this help (any key closes it)",
        footer: Some("? help"),
        action: Some(Action::Help),
        matches: |k| matches!(k, KeyCode::Char('?') | KeyCode::F(1)),
        applies: always,
    },
    Binding {
        place: Place::Anywhere,
        keys: "t",
        what: "colour themes: ↑↓ choose, Enter apply, Esc cancel",
        footer: Some("t theme"),
        action: Some(Action::Themes),
        matches: |k| k == KeyCode::Char('t'),
        applies: always,
    },
    Binding {
        place: Place::Anywhere,
        keys: "s",
        what: "show the whole status message",
        footer: None,
        action: Some(Action::WholeMessage),
        matches: |k| k == KeyCode::Char('s'),
        applies: always,
    },
    Binding {
        place: Place::Anywhere,
        keys: "q  Ctrl-C",
        what: "quit (asks first; your game waits for your return)",
        footer: Some("q quit"),
        action: Some(Action::Quit),
        matches: |k| k == KeyCode::Char('q'),
        applies: always,
    },
    Binding {
        place: Place::Lobby,
        keys: "↑↓  j k",
        what: "select a game",
        footer: None,
        action: Some(Action::SelectUp),
        matches: |k| matches!(k, KeyCode::Up | KeyCode::Char('k')),
        applies: has_games,
    },
    Binding {
        place: Place::Lobby,
        keys: "↑↓  j k",
        what: "select a game",
        footer: None,
        action: Some(Action::SelectDown),
        matches: |k| matches!(k, KeyCode::Down | KeyCode::Char('j')),
        applies: has_games,
    },
    Binding {
        place: Place::Lobby,
        keys: "c  n",
        what: "create a game (dialog below)",
        footer: Some("c create"),
        action: Some(Action::Create),
        matches: |k| matches!(k, KeyCode::Char('c') | KeyCode::Char('n')),
        applies: always,
    },
    Binding {
        place: Place::Lobby,
        keys: "Enter",
        what: "join the selected game's open seat, or watch it",
        footer: Some("Enter join/watch"),
        action: Some(Action::JoinOrWatch),
        matches: |k| k == KeyCode::Enter,
        applies: has_games,
    },
    Binding {
        place: Place::Lobby,
        keys: "w",
        what: "watch the selected game",
        footer: Some("w watch"),
        action: Some(Action::Watch),
        matches: |k| k == KeyCode::Char('w'),
        applies: has_games,
    },
    Binding {
        place: Place::Lobby,
        keys: "a",
        what: "seat a bot in the open seat (choose its level)",
        footer: Some("a add bot"),
        action: Some(Action::AttachBot),
        matches: |k| k == KeyCode::Char('a'),
        applies: selected_has_open_seat,
    },
    Binding {
        place: Place::Lobby,
        keys: "r",
        what: "refresh the list",
        footer: None,
        action: Some(Action::Refresh),
        matches: |k| k == KeyCode::Char('r'),
        applies: always,
    },
    Binding {
        place: Place::Lobby,
        keys: "g",
        what: "back to your current game",
        footer: Some("g your game"),
        action: Some(Action::BackToGame),
        matches: |k| k == KeyCode::Char('g'),
        applies: has_game,
    },
    Binding {
        place: Place::Create,
        keys: "↑↓  Tab",
        what: "move between rows",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::Create,
        keys: "←→",
        what: "change the value",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::Create,
        keys: "Enter",
        what: "create; on Setup 'place pieces': the setup board",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::Create,
        keys: "Esc",
        what: "close the dialog",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::SetupBoard,
        keys: "arrows  hjkl",
        what: "move the cursor",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::SetupBoard,
        keys: "Space",
        what: "next piece on the square (then empty again)",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::SetupBoard,
        keys: "s / x",
        what: "switch the side to move / clear the board",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::SetupBoard,
        keys: "Enter  Esc",
        what: "done",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "[ ]  ←→",
        what: "step through the moves played; Esc back to live",
        footer: Some("←→ step"),
        action: Some(Action::ReviewBack),
        matches: |k| matches!(k, KeyCode::Left | KeyCode::Char('[')),
        applies: is_reviewing,
    },
    Binding {
        place: Place::Game,
        keys: "[ ]  ←→",
        what: "step through the moves played; Esc back to live",
        footer: Some("Esc live"),
        action: Some(Action::ReviewLive),
        matches: |k| k == KeyCode::Esc,
        applies: is_reviewing,
    },
    Binding {
        place: Place::Game,
        keys: "[ ]  ←→",
        what: "step through the moves played; Esc back to live",
        footer: None,
        action: Some(Action::ReviewForward),
        matches: |k| matches!(k, KeyCode::Right | KeyCode::Char(']')),
        applies: is_reviewing,
    },
    Binding {
        place: Place::Game,
        keys: "[ ]  ←→",
        what: "step through the moves played; Esc back to live",
        footer: Some("[ review"),
        action: Some(Action::ReviewBack),
        matches: |k| k == KeyCode::Char('['),
        applies: can_start_review,
    },
    Binding {
        place: Place::Game,
        keys: "arrows  hjkl",
        what: "move the cursor on the board",
        footer: Some("arrows Enter mouse: move"),
        action: Some(Action::CursorUp),
        matches: |k| matches!(k, KeyCode::Up | KeyCode::Char('k')),
        applies: is_my_turn,
    },
    Binding {
        place: Place::Game,
        keys: "arrows  hjkl",
        what: "move the cursor on the board",
        footer: None,
        action: Some(Action::CursorDown),
        matches: |k| matches!(k, KeyCode::Down | KeyCode::Char('j')),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "arrows  hjkl",
        what: "move the cursor on the board",
        footer: None,
        action: Some(Action::CursorLeft),
        matches: |k| matches!(k, KeyCode::Left | KeyCode::Char('h')),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "arrows  hjkl",
        what: "move the cursor on the board",
        footer: None,
        action: Some(Action::CursorRight),
        matches: |k| matches!(k, KeyCode::Right | KeyCode::Char('l')),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "arrows  hjkl",
        what: "move the cursor on the board",
        footer: None,
        action: Some(Action::CursorUp),
        matches: |k| matches!(k, KeyCode::Up | KeyCode::Char('k')),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "Enter  Space",
        what: "pick up the piece at the cursor / put it down",
        footer: None,
        action: Some(Action::Choose),
        matches: |k| matches!(k, KeyCode::Enter | KeyCode::Char(' ')),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "mouse",
        what: "click a piece then its destination, or drag it",
        footer: None,
        action: None,
        matches: never,
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "Esc",
        what: "let go of the piece, or cancel typing",
        footer: Some("Esc let go"),
        action: Some(Action::LetGo),
        matches: |k| k == KeyCode::Esc,
        applies: holds_piece,
    },
    Binding {
        place: Place::Game,
        keys: "0-9  A-Z",
        what: "type a move's number or text; Enter plays it",
        footer: Some("0-9 A-Z type a move"),
        action: Some(Action::TypeMove),
        matches: |k| matches!(k, KeyCode::Char(c) if c.is_ascii_digit() || c.is_ascii_uppercase()),
        applies: is_my_turn,
    },
    Binding {
        place: Place::Game,
        keys: ":",
        what: "type a move's text in lower case (like :b2)",
        footer: None,
        action: Some(Action::TypeText),
        matches: |k| matches!(k, KeyCode::Char(':') | KeyCode::Char('/')),
        applies: is_my_turn,
    },
    Binding {
        place: Place::Game,
        keys: "f",
        what: "flip the board",
        footer: Some("f flip"),
        action: Some(Action::Flip),
        matches: |k| k == KeyCode::Char('f'),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "#",
        what: "show every square's number, under pieces too",
        footer: None,
        action: Some(Action::Numbers),
        matches: |k| k == KeyCode::Char('#'),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "a / n",
        what: "accept / decline a draw offer or takeback request",
        footer: Some("a/n answer"),
        action: Some(Action::Answer),
        matches: |k| matches!(k, KeyCode::Char('a') | KeyCode::Char('n')),
        applies: has_question,
    },
    Binding {
        place: Place::Game,
        keys: "r",
        what: "resign (asks first)",
        footer: Some("r resign"),
        action: Some(Action::Resign),
        matches: |k| k == KeyCode::Char('r'),
        applies: is_playing_player,
    },
    Binding {
        place: Place::Game,
        keys: "d",
        what: "offer a draw, or accept one offered",
        footer: Some("d draw"),
        action: Some(Action::Draw),
        matches: |k| k == KeyCode::Char('d'),
        applies: is_playing_player,
    },
    Binding {
        place: Place::Game,
        keys: "u",
        what: "ask to take back your last move",
        footer: Some("u undo"),
        action: Some(Action::Takeback),
        matches: |k| k == KeyCode::Char('u'),
        applies: can_take_back,
    },
    Binding {
        place: Place::Game,
        keys: "m",
        what: "offer or accept a rematch",
        footer: Some("m rematch"),
        action: Some(Action::Rematch),
        matches: |k| k == KeyCode::Char('m'),
        applies: is_over_player,
    },
    Binding {
        place: Place::Game,
        keys: "c",
        what: "chat: type a line, Enter sends",
        footer: Some("c chat"),
        action: Some(Action::Chat),
        matches: |k| k == KeyCode::Char('c'),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "b",
        what: "back to the lobby (the game goes on)",
        footer: Some("b lobby"),
        action: Some(Action::Lobby),
        matches: |k| k == KeyCode::Char('b'),
        applies: always,
    },
    Binding {
        place: Place::Game,
        keys: "x",
        what: "leave the game (resigns a game in progress)",
        footer: Some("x leave"),
        action: Some(Action::Leave),
        matches: |k| k == KeyCode::Char('x'),
        applies: always,
    },
];

fn screen_place(app: &App) -> Place {
    match app.screen {
        Screen::Lobby => Place::Lobby,
        Screen::Game => Place::Game,
    }
}

/// The action a key does on the screen shown, if it does one now.
#[must_use]
pub fn action(app: &App, key: KeyCode) -> Option<Action> {
    let place = screen_place(app);
    BINDINGS
        .iter()
        .filter(|b| b.place == Place::Anywhere || b.place == place)
        .filter(|b| b.action.is_some() && (b.matches)(key) && (b.applies)(app))
        .find_map(|b| b.action)
}

/// The footer: the keys of the screen shown that apply now, then those that work anywhere,
/// as many as fit in `width` columns in that order; `? help` always ends it.
#[must_use]
pub fn footer(app: &App, width: u16) -> String {
    const HELP: &str = "? help";
    let place = screen_place(app);
    let mut names: Vec<&str> = Vec::new();
    for wanted in [place, Place::Anywhere] {
        for binding in BINDINGS.iter().filter(|b| b.place == wanted) {
            if let Some(name) = binding.footer
                && name != HELP
                && (binding.applies)(app)
                && !names.contains(&name)
            {
                names.push(name);
            }
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

/// The help rows: each key once (place, keys, what).
pub fn help_rows() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    let mut seen: Vec<(Place, &str)> = Vec::new();
    BINDINGS.iter().filter_map(move |b| {
        if seen.contains(&(b.place, b.keys)) {
            return None;
        }
        seen.push((b.place, b.keys));
        Some((b.place.name(), b.keys, b.what))
    })
}
