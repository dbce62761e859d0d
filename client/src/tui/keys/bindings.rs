//! The key table itself: every key of every screen and dialog, one row per action, in the
//! order the help lists them and the footers name them. Rows that share their keys' text are
//! one line of help (each key once).

use super::when::{
    can_start_review, can_start_review_live, can_take_back, has_game_in_progress, has_games,
    has_question, holds_piece, is_my_turn, is_over_player, is_over_with_moves, is_playing_player,
    is_reviewing, line_is_empty, never, selected_has_open_seat,
};
use super::{Action as A, Binding, Place as P, bind};
use crate::archive::replay::Step;
use crate::archive::review::board::{Go, go_of_key};
use ratatui::crossterm::event::KeyCode as K;

fn up(k: K) -> bool {
    matches!(k, K::Up | K::Char('k'))
}

fn down(k: K) -> bool {
    matches!(k, K::Down | K::Char('j'))
}

fn left(k: K) -> bool {
    matches!(k, K::Left | K::Char('h'))
}

fn right(k: K) -> bool {
    matches!(k, K::Right | K::Char('l'))
}

fn enter(k: K) -> bool {
    k == K::Enter
}

fn esc(k: K) -> bool {
    k == K::Esc
}

fn enter_or_space(k: K) -> bool {
    matches!(k, K::Enter | K::Char(' '))
}

fn any(_: K) -> bool {
    true
}

/// The keys `kingme review` reads for `go`, so the review board's keys are the same in the
/// client.
fn review_key(k: K, go: Go) -> bool {
    go_of_key(k) == Some(Some(go))
}

/// The keys that leave `kingme review`.
fn review_leave(k: K) -> bool {
    go_of_key(k).is_none()
}

/// Every key, in the order help lists them and the footers name them.
pub const BINDINGS: &[Binding] = &[
    // Anywhere on the two screens (and over the game-over dialog).
    bind(
        P::Anywhere,
        "?  F1",
        "this help (any key closes it)",
        A::Help,
        |k| matches!(k, K::Char('?') | K::F(1)),
    )
    .footer("? help"),
    bind(
        P::Anywhere,
        "t",
        "colour themes: ↑↓ choose, Enter apply, Esc cancel",
        A::Themes,
        |k| k == K::Char('t'),
    )
    .footer("t theme"),
    bind(
        P::Anywhere,
        "s",
        "show the whole status message",
        A::WholeMessage,
        |k| k == K::Char('s'),
    ),
    // Ctrl-C is read before the table, in dialogs too (see `App::key`).
    bind(
        P::Anywhere,
        "q  Ctrl-C",
        "quit (asks first; your game waits for your return)",
        A::Quit,
        |k| k == K::Char('q'),
    )
    .footer("q quit"),
    // The lobby.
    bind(P::Lobby, "↑↓  j k", "select a game", A::SelectUp, up).when(has_games),
    bind(P::Lobby, "↑↓  j k", "select a game", A::SelectDown, down).when(has_games),
    bind(
        P::Lobby,
        "c  n",
        "create a game (dialog below)",
        A::Create,
        |k| matches!(k, K::Char('c' | 'n')),
    )
    .footer("c create"),
    bind(
        P::Lobby,
        "Enter",
        "join the selected game's open seat, or watch it",
        A::JoinOrWatch,
        enter,
    )
    .when(has_games)
    .footer("Enter join/watch"),
    bind(P::Lobby, "w", "watch the selected game", A::Watch, |k| {
        k == K::Char('w')
    })
    .when(has_games)
    .footer("w watch"),
    bind(
        P::Lobby,
        "a",
        "seat a bot in the open seat (choose its level)",
        A::AttachBot,
        |k| k == K::Char('a'),
    )
    .when(selected_has_open_seat)
    .footer("a add bot"),
    bind(P::Lobby, "r", "refresh the list", A::Refresh, |k| {
        k == K::Char('r')
    }),
    bind(
        P::Lobby,
        "g",
        "back to your game in progress",
        A::BackToGame,
        |k| k == K::Char('g'),
    )
    .when(has_game_in_progress)
    .footer("g your game"),
    // The create dialog (its text row takes the keys it can edit first).
    bind(
        P::Create,
        "↑↓  j k  Tab",
        "move between rows",
        A::PreviousRow,
        up,
    )
    .footer("↑↓ row"),
    bind(
        P::Create,
        "↑↓  j k  Tab",
        "move between rows",
        A::NextRow,
        |k| down(k) || k == K::Tab,
    ),
    bind(
        P::Create,
        "←→  h l",
        "change the value",
        A::PreviousValue,
        left,
    )
    .footer("←→ change"),
    bind(
        P::Create,
        "←→  h l",
        "change the value",
        A::NextValue,
        right,
    ),
    bind(
        P::Create,
        "Enter",
        "create the game; on Setup 'place pieces': its board",
        A::Submit,
        enter,
    )
    .footer("Enter create"),
    bind(P::Create, "Esc", "close the dialog", A::Cancel, esc).footer("Esc cancel"),
    // The create dialog's setup board.
    bind(
        P::SetupBoard,
        "arrows  hjkl",
        "move the cursor",
        A::CursorUp,
        up,
    ),
    bind(
        P::SetupBoard,
        "arrows  hjkl",
        "move the cursor",
        A::CursorDown,
        down,
    ),
    bind(
        P::SetupBoard,
        "arrows  hjkl",
        "move the cursor",
        A::CursorLeft,
        left,
    ),
    bind(
        P::SetupBoard,
        "arrows  hjkl",
        "move the cursor",
        A::CursorRight,
        right,
    ),
    bind(
        P::SetupBoard,
        "Space",
        "next piece on the square (then empty again)",
        A::NextPiece,
        |k| k == K::Char(' '),
    )
    .footer("Space: next piece"),
    bind(
        P::SetupBoard,
        "s / x",
        "switch the side to move / clear the board",
        A::SwitchSide,
        |k| k == K::Char('s'),
    )
    .footer("s: side"),
    bind(
        P::SetupBoard,
        "s / x",
        "switch the side to move / clear the board",
        A::ClearBoard,
        |k| k == K::Char('x'),
    )
    .footer("x: clear"),
    bind(P::SetupBoard, "Enter  Esc", "done", A::Submit, |k| {
        matches!(k, K::Enter | K::Esc)
    })
    .footer("Enter: done"),
    // The game screen.
    bind(
        P::Game,
        "[ ]  ←→",
        "step through the moves played",
        A::ReviewBack,
        |k| matches!(k, K::Left | K::Char('[')),
    )
    .when(is_reviewing)
    .footer("←→ step"),
    bind(
        P::Game,
        "Esc",
        "back to the live game, or let go of the piece",
        A::ReviewLive,
        esc,
    )
    .when(is_reviewing)
    .footer("Esc live"),
    bind(
        P::Game,
        "[ ]  ←→",
        "step through the moves played",
        A::ReviewForward,
        |k| matches!(k, K::Right | K::Char(']')),
    )
    .when(is_reviewing),
    bind(
        P::Game,
        "[ ]  ←→",
        "step through the moves played",
        A::ReviewBack,
        |k| k == K::Char('['),
    )
    .when(can_start_review)
    .footer_when("[ review", can_start_review_live),
    bind(
        P::Game,
        "arrows  hjkl",
        "move the cursor on the board",
        A::CursorUp,
        up,
    )
    .footer_when("arrows Enter mouse: move", is_my_turn),
    bind(
        P::Game,
        "arrows  hjkl",
        "move the cursor on the board",
        A::CursorDown,
        down,
    ),
    bind(
        P::Game,
        "arrows  hjkl",
        "move the cursor on the board",
        A::CursorLeft,
        left,
    ),
    bind(
        P::Game,
        "arrows  hjkl",
        "move the cursor on the board",
        A::CursorRight,
        right,
    ),
    bind(
        P::Game,
        "Enter  Space",
        "pick up the piece at the cursor / put it down",
        A::Choose,
        enter_or_space,
    ),
    bind(
        P::Game,
        "mouse",
        "click a piece then its destination, or drag it",
        A::Click,
        never,
    ),
    bind(
        P::Game,
        "Esc",
        "back to the live game, or let go of the piece",
        A::LetGo,
        esc,
    )
    .when(holds_piece)
    .footer("Esc let go"),
    bind(
        P::Game,
        "0-9  A-Z",
        "type a move's number or text; Enter plays it",
        A::TypeMove,
        |k| matches!(k, K::Char(c) if c.is_ascii_digit() || c.is_ascii_uppercase()),
    )
    .when(is_my_turn)
    .footer("0-9 A-Z type a move"),
    bind(
        P::Game,
        ":  /",
        "start typing a move (like :b2)",
        A::TypeText,
        |k| matches!(k, K::Char(':' | '/')),
    )
    .when(is_my_turn),
    bind(P::Game, "f", "flip the board", A::Flip, |k| {
        k == K::Char('f')
    })
    .footer("f flip"),
    bind(
        P::Game,
        "#",
        "show every square's number, under pieces too",
        A::Numbers,
        |k| k == K::Char('#'),
    ),
    bind(
        P::Game,
        "a / n",
        "accept / decline a draw offer or takeback request",
        A::Answer,
        |k| matches!(k, K::Char('a' | 'n')),
    )
    .when(has_question)
    .footer("a/n answer"),
    bind(P::Game, "r", "resign (asks first)", A::Resign, |k| {
        k == K::Char('r')
    })
    .when(is_playing_player)
    .footer("r resign"),
    bind(
        P::Game,
        "d",
        "offer a draw, or accept one offered",
        A::Draw,
        |k| k == K::Char('d'),
    )
    .when(is_playing_player)
    .footer("d draw"),
    bind(
        P::Game,
        "u",
        "ask to take back your last move",
        A::Takeback,
        |k| k == K::Char('u'),
    )
    .when(can_take_back)
    .footer("u undo"),
    bind(P::Game, "m", "offer or accept a rematch", A::Rematch, |k| {
        k == K::Char('m')
    })
    .when(is_over_player)
    .footer("m rematch"),
    bind(
        P::Game,
        "v",
        "the review board: every move looked at by the engine",
        A::OpenReviewBoard,
        |k| k == K::Char('v'),
    )
    .when(is_over_with_moves)
    .footer("v review board"),
    bind(
        P::Game,
        "c",
        "chat: type a line, Enter sends",
        A::Chat,
        |k| k == K::Char('c'),
    )
    .footer("c chat"),
    bind(
        P::Game,
        "b",
        "back to the lobby (the game goes on)",
        A::Lobby,
        |k| k == K::Char('b'),
    )
    .footer("b lobby"),
    bind(
        P::Game,
        "x",
        "leave the game (resigns a game in progress)",
        A::Leave,
        |k| k == K::Char('x'),
    )
    .footer("x leave"),
    // The line of a typed move.
    bind(
        P::MoveLine,
        "Enter",
        "play the move typed",
        A::Submit,
        enter,
    )
    .footer("Enter plays"),
    bind(P::MoveLine, "Esc", "stop typing", A::Cancel, esc).footer("Esc cancels"),
    bind(
        P::MoveLine,
        "Backspace",
        "on an empty line: stop typing",
        A::Cancel,
        |k| k == K::Backspace,
    )
    .when(line_is_empty),
    // The chat line.
    bind(P::ChatLine, "Enter", "send the line", A::Submit, enter).footer("Enter sends"),
    bind(P::ChatLine, "Esc", "stop typing", A::Cancel, esc).footer("Esc cancels"),
    // The game-over dialog.
    bind(P::GameOver, "m", "offer a rematch", A::Rematch, |k| {
        k == K::Char('m')
    })
    .when(is_over_player)
    .footer("m: rematch"),
    bind(
        P::GameOver,
        "v",
        "the review board: every move looked at by the engine",
        A::OpenReviewBoard,
        |k| k == K::Char('v'),
    )
    .when(is_over_with_moves)
    .footer("v: review board"),
    bind(
        P::GameOver,
        "any other key",
        "close the dialog",
        A::Cancel,
        any,
    )
    .footer("any other key: close"),
    // The theme list.
    bind(P::Themes, "↑↓  j k", "choose a theme", A::SelectUp, up).footer("↑↓ choose"),
    bind(P::Themes, "↑↓  j k", "choose a theme", A::SelectDown, down),
    bind(
        P::Themes,
        "Enter  Space",
        "apply the theme",
        A::Submit,
        enter_or_space,
    )
    .footer("Enter apply"),
    bind(P::Themes, "Esc", "keep the theme", A::Cancel, esc).footer("Esc cancel"),
    // The bot level list of the lobby's `a`.
    bind(P::BotLevel, "↑↓  j k", "choose a level", A::SelectUp, up).footer("↑↓ choose"),
    bind(
        P::BotLevel,
        "↑↓  j k",
        "choose a level",
        A::SelectDown,
        down,
    ),
    bind(
        P::BotLevel,
        "Enter  Space",
        "seat a bot of that level",
        A::Submit,
        enter_or_space,
    )
    .footer("Enter seat it"),
    bind(P::BotLevel, "Esc", "seat no bot", A::Cancel, esc).footer("Esc cancel"),
    // A yes/no question.
    bind(P::Question, "y  Enter", "yes", A::Submit, |k| {
        matches!(k, K::Char('y') | K::Enter)
    })
    .footer("y: yes"),
    bind(P::Question, "any other key", "no", A::Cancel, any).footer("any other key: no"),
    // The review board (its own footer names its keys, as `kingme review`'s does).
    bind(
        P::ReviewBoard,
        "→  n  Space",
        "forward a move",
        A::ReviewForward,
        |k| review_key(k, Go::Step(Step::Forward)),
    ),
    bind(
        P::ReviewBoard,
        "←  p",
        "back a move",
        A::ReviewBack,
        |k| review_key(k, Go::Step(Step::Back)),
    ),
    bind(
        P::ReviewBoard,
        "Home  s",
        "the start",
        A::ReviewStart,
        |k| review_key(k, Go::Step(Step::Start)),
    ),
    bind(P::ReviewBoard, "End  e", "the end", A::ReviewEnd, |k| {
        review_key(k, Go::Step(Step::End))
    }),
    bind(
        P::ReviewBoard,
        "m",
        "the next mistake or blunder",
        A::NextMistake,
        |k| review_key(k, Go::NextMistake),
    ),
    bind(
        P::ReviewBoard,
        "Esc  q",
        "go back (stops a review still running)",
        A::Cancel,
        review_leave,
    ),
    bind(P::ReviewBoard, "?", "these keys", A::Help, |k| {
        k == K::Char('?')
    }),
    // The help and the whole status message.
    bind(P::Reading, "any key", "close it", A::Cancel, any).footer("any key closes"),
];
