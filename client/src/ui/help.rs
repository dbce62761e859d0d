//! The list of every key, shown by the help overlay and copied into the README.

/// (where, keys, what they do)
pub const KEYS: &[(&str, &str, &str)] = &[
    ("anywhere", "?  F1", "this help (any key closes it)"),
    (
        "anywhere",
        "t",
        "colour themes: ↑↓ choose, Enter apply, Esc cancel",
    ),
    (
        "anywhere",
        "q  Ctrl-C",
        "quit (asks first during your game, which waits for your return)",
    ),
    ("lobby", "↑↓  j k", "select a game"),
    (
        "lobby",
        "Enter",
        "join the selected game's open seat, or watch it",
    ),
    ("lobby", "w", "watch the selected game"),
    (
        "lobby",
        "a",
        "seat a bot (intermediate) in the game's open seat",
    ),
    ("lobby", "c  n", "create a game (dialog below)"),
    ("lobby", "r", "refresh the list"),
    ("lobby", "g", "back to your current game"),
    ("create", "↑↓  Tab", "move between rows"),
    ("create", "←→", "change the value"),
    (
        "create",
        "Enter",
        "create; on Setup 'place pieces': the setup board",
    ),
    ("create", "Esc", "close the dialog"),
    ("setup board", "arrows  hjkl", "move the cursor"),
    ("setup board", "Space", "cycle the piece on the square"),
    (
        "setup board",
        "s / x",
        "switch the side to move / clear the board",
    ),
    ("setup board", "Enter  Esc", "done"),
    ("game", "arrows  hjkl", "move the cursor on the board"),
    (
        "game",
        "Enter  Space",
        "pick up the piece at the cursor / put it down",
    ),
    (
        "game",
        "mouse",
        "click a piece then its destination, or drag it",
    ),
    ("game", "Esc", "let go of the piece, or cancel typing"),
    (
        "game",
        "0-9  A-Z",
        "type a move's number or text; Enter plays it",
    ),
    ("game", ":", "type a move's text in lower case (like :b2)"),
    ("game", "f", "flip the board"),
    ("game", "r", "resign (asks first)"),
    ("game", "d", "offer a draw, or accept one offered"),
    (
        "game",
        "a / n",
        "accept / decline a draw offer or takeback request",
    ),
    ("game", "u", "ask to take back your last move"),
    ("game", "m", "offer or accept a rematch"),
    ("game", "c", "chat: type a line, Enter sends"),
    ("game", "b", "back to the lobby (the game goes on)"),
    ("game", "x", "leave the game (resigns a game in progress)"),
];
