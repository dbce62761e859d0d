//! Snapshot tests of the screens, drawn into ratatui's `TestBackend`: the start position of
//! each game, a highlighted selection, the lobby, the game-over dialog and a terminal too small
//! for the board. Each picture is compared with `tests/snapshots/<name>.txt`; run with
//! `KINGME_UPDATE_SNAPSHOTS=1` to write new pictures after an intended change (and read them).

use crate::fixtures::{app_with, render, state};
use kingme_client::net::event::Event;
use kingme_client::tui::app::App;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    EndReason, ErrorKind, GameId, GameResult, GameStatus, GameSummary, SeatHolder, ServerMessage,
    TimeControl,
};
use kingme_shared::{GameKind, Side};
use ratatui::crossterm::event::{Event as TerminalEvent, KeyCode, KeyEvent, KeyModifiers};
use std::path::PathBuf;

fn check(name: &str, app: &App) -> String {
    let picture = render(app);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("KINGME_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &picture).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no snapshot {}; run with KINGME_UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    assert_eq!(picture, expected, "snapshot {name} differs:\n{picture}");
    picture
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        code,
        KeyModifiers::NONE,
    ))));
}

#[test]
fn checkers_start_from_blacks_side() {
    let app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 30),
    );
    let picture = check("checkers_start", &app);
    // Black plays from the bottom: its men (filled) on the lower rows, numbered moves listed.
    let lines: Vec<&str> = picture.lines().collect();
    assert!(
        lines[2].contains('○') && !lines[2].contains('●'),
        "{}",
        lines[2]
    );
    assert!(
        lines[16].contains('●') && !lines[16].contains('○'),
        "{}",
        lines[16]
    );
    assert!(picture.contains("1:9-13"), "{picture}");
}

#[test]
fn pente_start() {
    let app = app_with(
        state(GameKind::Pente, None, &["K10", "L11"], Some(Side::Second)),
        (80, 24),
    );
    let picture = check("pente_start", &app);
    assert!(picture.contains("captured pairs"), "{picture}");
    assert!(picture.contains('●') && picture.contains('○'), "{picture}");
}

#[test]
fn noughts_and_crosses_start() {
    let app = app_with(
        state(GameKind::TicTacToe, None, &["5"], Some(Side::Second)),
        (80, 24),
    );
    let picture = check("tictactoe_start", &app);
    assert!(picture.contains('X'), "{picture}");
}

#[test]
fn a_picked_up_piece_shows_its_destinations() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::Second)),
        (80, 30),
    );
    // White (at the bottom) to move after Black's 11-15? Here Black moves first, so wait for it.
    app.update(Event::Server(ServerMessage::MovePlayed {
        game: GameId(7),
        ply: 1,
        record: kingme_shared::protocol::MoveRecord {
            side: Side::First,
            text: "11-15".to_owned(),
            path: vec![11, 15],
            removed: vec![],
        },
        position: "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15".to_owned(),
        side_to_move: Side::Second,
        clocks: kingme_shared::protocol::ClockState {
            remaining_ms: [Some(300_000), Some(300_000)],
            running: Some(Side::Second),
        },
    }));
    // Let the animation finish, then pick up 22 with the keyboard.
    for _ in 0..20 {
        app.update(Event::Tick);
    }
    let table = app.table.as_mut().unwrap();
    table.cursor = table.geometry().cell_of(22).unwrap();
    app.now = app.table.as_ref().unwrap().clocks_at;
    key(&mut app, KeyCode::Enter);
    let picture = check("checkers_selection", &app);
    assert!(picture.contains("picked up the piece on 22"), "{picture}");
}

#[test]
fn lobby_lists_games() {
    let mut app = App::new("ada", (100, 14), std::time::Instant::now());
    app.update(Event::Link(
        kingme_client::net::event::LinkEvent::Connected { resumed: false },
    ));
    let human = |name: &str| SeatHolder::Human {
        name: name.to_owned(),
        connected: true,
        grace_left_ms: None,
    };
    let games = vec![
        GameSummary {
            id: GameId(1),
            spec: GameKind::Checkers.into(),
            seats: [human("bob"), SeatHolder::Empty],
            time_control: TimeControl::Incremental {
                initial_secs: 300,
                increment_secs: 3,
            },
            moves: 0,
            status: GameStatus::Open,
            spectators: 0,
        },
        GameSummary {
            id: GameId(2),
            spec: GameKind::Pente.into(),
            seats: [
                human("carol"),
                SeatHolder::Bot {
                    level: Level::Expert,
                },
            ],
            time_control: TimeControl::Unlimited,
            moves: 14,
            status: GameStatus::Playing,
            spectators: 2,
        },
        GameSummary {
            id: GameId(3),
            spec: GameKind::TicTacToe.into(),
            seats: [human("dan"), human("eve")],
            time_control: TimeControl::PerMove { secs: 5 },
            moves: 7,
            status: GameStatus::Over(GameResult {
                winner: Some(Side::First),
                reason: EndReason::Win(kingme_shared::WinReason::ThreeInARow),
            }),
            spectators: 3,
        },
        GameSummary {
            id: GameId(4),
            spec: GameKind::Checkers.into(),
            seats: [
                SeatHolder::Human {
                    name: "bartholomew".to_owned(),
                    connected: false,
                    grace_left_ms: Some(42_000),
                },
                human("maximiliana-von-longname"),
            ],
            time_control: TimeControl::Unlimited,
            moves: 31,
            status: GameStatus::Playing,
            spectators: 0,
        },
    ];
    app.update(Event::Server(ServerMessage::GameList { games }));
    key(&mut app, KeyCode::Down);
    let picture = check("lobby", &app);
    // Text longer than its column wraps inside it, never cut.
    assert!(picture.contains("0:42 to return"), "{picture}");
    assert!(picture.contains("longname"), "{picture}");
    assert!(picture.contains("X wins with three in a row"), "{picture}");
    assert!(picture.contains("(2 watching)"), "{picture}");
    assert!(
        !picture.contains("(3 watching)"),
        "a finished game: {picture}"
    );
}

/// A noughts and crosses game at 80x24 that the first side (the person) resigned after four
/// moves: its game-over dialog open.
fn resigned_after_four_moves() -> App {
    let mut app = app_with(
        state(
            GameKind::TicTacToe,
            None,
            &["1", "4", "2", "5"],
            Some(Side::First),
        ),
        (80, 24),
    );
    app.update(Event::Server(crate::fixtures::first_resigns()));
    app
}

#[test]
fn game_over_dialog_names_winner_and_reason() {
    let app = resigned_after_four_moves();
    let picture = check("game_over", &app);
    assert!(picture.contains("O wins: X resigned"), "{picture}");
    assert!(picture.contains("You lost."), "{picture}");
    // The dialog is as wide as its key line, so the keys are not broken across lines.
    assert!(
        picture.contains("m: rematch · v: review board · any other key: close"),
        "{picture}"
    );
    // At 80 columns the footer still names the way out of a finished game.
    let footer = picture.lines().last().unwrap_or_default();
    for name in [
        "m rematch",
        "v review board",
        "b lobby",
        "x leave",
        "? help",
    ] {
        assert!(footer.contains(name), "{name} missing: {footer}");
    }
}

#[test]
fn a_small_terminal_gets_a_message_not_a_broken_board() {
    let app = app_with(
        state(GameKind::Pente, None, &[], Some(Side::First)),
        (60, 20),
    );
    let picture = check("too_small", &app);
    assert!(picture.contains("The terminal is too small."), "{picture}");
    assert!(picture.contains("needs at least 41x23"), "{picture}");
}

#[test]
fn help_lists_every_key_and_fits_a_standard_terminal() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 24),
    );
    key(&mut app, KeyCode::Char('?'));
    let in_game = render(&app);
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('b'));
    key(&mut app, KeyCode::Char('?'));
    let in_lobby = render(&app);
    // The review board's `?` lists its own keys: a finished game, its dialog closed, then `v`.
    let mut app = resigned_after_four_moves();
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Char('v'));
    key(&mut app, KeyCode::Char('?'));
    let on_review_board = render(&app);
    assert!(
        on_review_board.contains("Keys on the review board"),
        "{on_review_board}"
    );
    assert!(!on_review_board.contains("resign"), "{on_review_board}");
    for (place, keys, what) in kingme_client::tui::ui::help::help_rows() {
        let picture = match place {
            "game" => &in_game,
            "review board" => &on_review_board,
            _ => &in_lobby,
        };
        assert!(picture.contains(keys), "{keys} missing:\n{picture}");
        assert!(picture.contains(what), "{what} missing:\n{picture}");
    }
}

#[test]
fn the_monochrome_theme_shades_dark_squares() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &["11-15"], Some(Side::Second)),
        (80, 30),
    );
    key(&mut app, KeyCode::Char('t'));
    for _ in 0..4 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Enter);
    assert!(app.theme.monochrome, "{}", app.theme.name);
    let picture = check("monochrome", &app);
    assert!(picture.contains("░░░"), "{picture}");
    // The last move (11-15) is marked by characters, not italics: both its squares.
    assert_eq!(picture.matches("(░░░)").count(), 1, "{picture}");
    assert_eq!(picture.matches("( ● )").count(), 1, "{picture}");
    // The cursor by its brackets.
    assert!(picture.contains('[') && picture.contains(']'), "{picture}");
}

#[test]
fn the_create_dialog_and_its_setup_board() {
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    for _ in 0..5 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Left); // place pieces
    let picture = check("create_dialog", &app);
    assert!(
        picture.contains("place pieces on an empty board"),
        "{picture}"
    );
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('l'));
    key(&mut app, KeyCode::Char(' '));
    let picture = check("setup_board", &app);
    assert!(picture.contains('●'), "{picture}");
    assert!(picture.contains("Black to move"), "{picture}");
}

#[test]
fn history_starting_with_the_second_side_is_numbered_from_dots() {
    let app = app_with(
        state(
            GameKind::Checkers,
            Some("W:W22:B9"),
            &["22-18", "9-14"],
            Some(Side::First),
        ),
        (80, 30),
    );
    let lines = kingme_client::tui::ui::panel::history_lines(app.table.as_ref().unwrap());
    assert_eq!(lines, vec!["  1. ...       22-18", "  2. 9-14      "]);
}

#[test]
fn the_running_clock_ticks_down_between_messages() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 30),
    );
    let since = app.table.as_ref().unwrap().clocks_at;
    app.now = since + std::time::Duration::from_millis(61_000);
    let picture = render(&app);
    // Black (to move) had 5:00 and runs; White's 4:47 stands still.
    assert!(picture.contains("3:59"), "{picture}");
    assert!(picture.contains("4:47"), "{picture}");
}

/// The rows of a picture between `from` and `to` (the status lines, a panel) joined into one
/// text with single spaces, to find a wrapped message in it.
fn joined(picture: &str) -> String {
    picture.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_long_refusal_wraps_onto_the_second_status_line() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 24),
    );
    let reason = "expected a move like 11-15 or 11x18x25, got \"12-16-20\": a step has exactly two \
                  squares; write a multi-jump with x";
    app.update(Event::Server(ServerMessage::MoveRejected {
        game: GameId(7),
        text: "12-16-20".to_owned(),
        kind: ErrorKind::IllegalMove,
        reason: reason.to_owned(),
    }));
    let picture = check("long_status", &app);
    let bottom: Vec<&str> = picture.lines().rev().take(2).collect();
    let status = joined(&format!("{} {}", bottom[1], bottom[0]));
    assert!(status.ends_with("write a multi-jump with x"), "{picture}");
    // Longer still: the end is replaced by a pointer to `s`, which shows it all.
    let long = "word ".repeat(60);
    app.update(Event::Server(ServerMessage::MoveRejected {
        game: GameId(7),
        text: "1".to_owned(),
        kind: ErrorKind::IllegalMove,
        reason: long.clone(),
    }));
    let picture = render(&app);
    assert!(picture.contains("s: read all"), "{picture}");
    key(&mut app, KeyCode::Char('s'));
    let picture = render(&app);
    // The status lines hold at most 32 of the 60 words; the dialog holds them all.
    assert!(picture.matches("word").count() >= 60, "{picture}");
    assert!(picture.contains("any key closes"), "{picture}");
}

#[test]
fn the_panel_wraps_the_result_and_chat() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 30),
    );
    let chat = "this is a long line of chat that cannot fit in the side panel at all";
    app.update(Event::Server(ServerMessage::Chat {
        game: GameId(7),
        from: "bob".to_owned(),
        text: chat.to_owned(),
    }));
    app.update(Event::Server(ServerMessage::GameOver {
        game: GameId(7),
        clocks: crate::fixtures::stopped_clocks(),
        result: GameResult {
            winner: Some(Side::Second),
            reason: EndReason::Win(kingme_shared::WinReason::NoLegalMoves),
        },
    }));
    key(&mut app, KeyCode::Esc); // close the game-over dialog
    let picture = check("panel_wraps", &app);
    let panel: String = picture
        .lines()
        .map(|line| line.chars().skip(46).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n");
    let panel = joined(&panel.replace('│', " "));
    assert!(panel.contains(&format!("bob: {chat}")), "{picture}");
    assert!(panel.contains("has no legal move"), "{picture}");
}

#[test]
fn a_board_file_error_shows_whole_in_the_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.txt");
    std::fs::write(&path, "1111\n1111\n1111\n0000\n0000\n2222\n2222\n22x2\n2\n").unwrap();
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    for _ in 0..5 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Right); // load a board file
    key(&mut app, KeyCode::Down);
    for c in path.display().to_string().chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    let picture = render(&app);
    let text = joined(&picture.replace('│', " "));
    assert!(text.contains("line 8"), "{picture}");
    assert!(!text.contains("FEN"), "{picture}");
    // The focus stayed on the file row: Backspace edits the path.
    let before = path.display().to_string();
    key(&mut app, KeyCode::Backspace);
    let Some(kingme_client::tui::app::Overlay::Create(form)) = &app.overlay else {
        panic!("the dialog closed");
    };
    assert_eq!(form.text.value(), &before[..before.len() - 1]);
}

#[test]
fn the_number_key_shows_square_numbers_under_pieces() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 30),
    );
    let before = render(&app);
    // Black's men stand on 1-12: their numbers hide until # is pressed.
    assert!(!before.contains("11 "), "{before}");
    key(&mut app, KeyCode::Char('#'));
    let picture = check("square_numbers", &app);
    for number in ["1 ", "11", "12", "21", "32"] {
        assert!(picture.contains(number), "{number}: {picture}");
    }
    key(&mut app, KeyCode::Char('#'));
    let board = |picture: &str| picture.lines().take(20).collect::<Vec<_>>().join("\n");
    assert_eq!(board(&render(&app)), board(&before));
}

#[test]
fn pente_history_marks_captures() {
    let app = app_with(
        state(
            GameKind::Pente,
            None,
            &["K10", "L10", "O10", "M10", "N10"],
            Some(Side::First),
        ),
        (80, 24),
    );
    let lines = kingme_client::tui::ui::panel::history_lines(app.table.as_ref().unwrap());
    assert_eq!(
        lines.last().map(|l| l.trim()),
        Some("3. N10x2"),
        "{lines:?}"
    );
}

#[test]
fn a_game_in_progress_is_reviewed_move_by_move() {
    let mut app = app_with(
        state(
            GameKind::Checkers,
            None,
            &["11-15", "22-18", "15x22"],
            Some(Side::Second),
        ),
        (80, 30),
    );
    let live = render(&app);
    key(&mut app, KeyCode::Char('['));
    key(&mut app, KeyCode::Left);
    let picture = check("review", &app);
    assert!(
        app.status.contains("reviewing move 1 of 3: 11-15"),
        "{}",
        app.status
    );
    // After 11-15 alone, White's man still stands on 22 and nothing on 18.
    let table = app.table.as_ref().unwrap();
    let review = table.review.as_ref().unwrap();
    assert!(review.game.piece_on(22).is_some() && review.game.piece_on(18).is_none());
    assert_ne!(picture, live);
    // A click on the board does not play from the past.
    key(&mut app, KeyCode::Enter);
    assert!(
        app.status.contains("Esc returns to the game"),
        "{}",
        app.status
    );
    key(&mut app, KeyCode::Right);
    assert!(app.status.contains("move 2 of 3"), "{}", app.status);
    // Forward onto the last move is the live game again.
    key(&mut app, KeyCode::Right);
    assert!(app.table.as_ref().unwrap().review.is_none());
    assert!(app.status.contains("back to the game"), "{}", app.status);
    key(&mut app, KeyCode::Char('['));
    key(&mut app, KeyCode::Esc);
    assert!(app.table.as_ref().unwrap().review.is_none());
    let board = |picture: &str| picture.lines().take(20).collect::<Vec<_>>().join("\n");
    assert_eq!(board(&render(&app)), board(&live));
}

#[test]
fn checkers_at_60x20_shows_the_board_and_a_compact_panel() {
    let app = app_with(
        state(GameKind::Checkers, None, &["11-15"], Some(Side::First)),
        (60, 20),
    );
    let picture = check("checkers_60x20", &app);
    assert!(!picture.contains("too small"), "{picture}");
    assert!(picture.contains('●') && picture.contains('○'), "{picture}");
    // What matters most: both clocks, whose move it is and the game's status.
    assert!(
        picture.contains("5:00") && picture.contains("4:47"),
        "{picture}"
    );
    assert!(picture.contains("White to move"), "{picture}");
    assert!(picture.contains("(you)"), "{picture}");
    // And who the opponent is, cut to the panel's width rather than left out.
    assert!(picture.contains("bot intermed…"), "{picture}");
}

#[test]
fn every_question_shows_its_whole_text_and_its_keys() {
    use kingme_client::tui::app::{Confirm, Overlay};
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 24),
    );
    for what in [
        Confirm::Quit,
        Confirm::Resign,
        Confirm::Leave,
        Confirm::NewGame,
    ] {
        app.overlay = Some(Overlay::Confirm(what));
        let picture = joined(&render(&app));
        assert!(picture.contains("y: yes · any other key: no"), "{picture}");
        let last_words: Vec<&str> = what.question().split_whitespace().rev().take(2).collect();
        for word in last_words {
            assert!(picture.contains(word), "{word:?} cut from {picture}");
        }
    }
}

#[test]
fn before_the_first_move_the_deadline_is_shown_and_the_clock_stands() {
    // Black has not moved: the server counts down the first-move allowance on Black's clock
    // and gives the clock back when Black moves. The panel shows the clock standing at its
    // start and the deadline as what it is.
    let (black, picture) = ten_seconds_after(&[]);
    assert!(black.contains("5:00"), "{black}");
    assert!(picture.contains("first move within 4:50"), "{picture}");
    // Once Black has moved, its clock is a clock again.
    let (black, picture) = ten_seconds_after(&["11-15", "23-19"]);
    assert!(black.contains("4:50"), "{black}");
    assert!(!picture.contains("first move"), "{picture}");
}

/// The screen of a checkers game as Black after `moves`, ten seconds on: Black's line in the
/// panel and the whole picture.
fn ten_seconds_after(moves: &[&str]) -> (String, String) {
    let mut app = app_with(
        state(GameKind::Checkers, None, moves, Some(Side::First)),
        (120, 40),
    );
    app.now += std::time::Duration::from_secs(10);
    let picture = render(&app);
    let black = picture
        .lines()
        .find(|line| line.contains("▶ Black"))
        .unwrap()
        .to_owned();
    (black, picture)
}

#[test]
fn the_lobby_shows_the_web_page_of_kingme_http() {
    for (width, height) in [(120, 40), (80, 24)] {
        let mut app = App::new("ada", (width, height), std::time::Instant::now());
        app.web_url = Some("https://127.0.0.1:41234/".to_owned());
        let picture = render(&app);
        assert!(
            picture.contains("web page: https://127.0.0.1:41234/"),
            "{picture}"
        );
    }
}
