//! The input state machine on the app state, without a terminal: keyboard and mouse moves
//! (click-click, drag, multi-jump), typed moves, refusals with reasons, flipping, and quitting
//! with confirmation.

use crate::fixtures::{app_with, moves_sent, state};
use kingme_client::net::event::Event;
use kingme_client::tui::app::{App, Confirm, Overlay, Screen};
use kingme_client::tui::ui::layout::GameLayout;
use kingme_shared::protocol::{ClientMessage, ServerMessage};
use kingme_shared::{GameKind, Side};
use ratatui::crossterm::event::{
    Event as TerminalEvent, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};
use ratatui::layout::Rect;

fn key(app: &mut App, code: KeyCode) -> Vec<ClientMessage> {
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        code,
        KeyModifiers::NONE,
    ))))
}

fn type_text(app: &mut App, text: &str) -> Vec<ClientMessage> {
    let mut sent = Vec::new();
    for c in text.chars() {
        sent.extend(key(app, KeyCode::Char(c)));
    }
    sent.extend(key(app, KeyCode::Enter));
    sent
}

/// The screen position of the middle of a square's cell.
fn point_of(app: &App, square: u16) -> (u16, u16) {
    let table = app.table.as_ref().unwrap();
    let geometry = table.geometry();
    let board = GameLayout::new(Rect::new(0, 0, app.size.0, app.size.1), &geometry)
        .board
        .unwrap();
    let rect = board.cell_rect(geometry.cell_of(square).unwrap());
    (rect.x + rect.width / 2, rect.y + rect.height / 2)
}

fn mouse(app: &mut App, kind: MouseEventKind, (column, row): (u16, u16)) -> Vec<ClientMessage> {
    app.update(Event::Terminal(TerminalEvent::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })))
}

fn click(app: &mut App, square: u16) -> Vec<ClientMessage> {
    let at = point_of(app, square);
    let mut sent = mouse(app, MouseEventKind::Down(MouseButton::Left), at);
    sent.extend(mouse(app, MouseEventKind::Up(MouseButton::Left), at));
    sent
}

fn checkers_as_black() -> App {
    app_with(
        state(GameKind::Checkers, None, &[], Some(Side::First)),
        (80, 30),
    )
}

#[test]
fn keyboard_picks_up_and_puts_down() {
    let mut app = checkers_as_black();
    // Black sits at the bottom: square 11 is drawn in the lower half.
    let cell = app.table.as_ref().unwrap().geometry().cell_of(11).unwrap();
    assert!(cell.row >= 4, "{cell:?}");
    app.table.as_mut().unwrap().cursor =
        kingme_client::game::board_geometry::Cell { row: 0, column: 0 };
    for _ in 0..cell.row {
        key(&mut app, KeyCode::Char('j'));
    }
    for _ in 0..cell.column {
        key(&mut app, KeyCode::Right);
    }
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    assert_eq!(app.table.as_ref().unwrap().selection.path(), &[11]);
    // 15 is up and to the left or right of 11 from Black's side; go there by the geometry.
    let target = app.table.as_ref().unwrap().geometry().cell_of(15).unwrap();
    app.table.as_mut().unwrap().cursor = target;
    let sent = key(&mut app, KeyCode::Char(' '));
    assert_eq!(moves_sent(&sent), vec!["11-15"]);
    assert!(app.status.contains("you play 11-15"), "{}", app.status);
}

#[test]
fn mouse_click_click_and_drag_both_move() {
    let mut app = checkers_as_black();
    assert!(click(&mut app, 10).is_empty());
    assert_eq!(moves_sent(&click(&mut app, 14)), vec!["10-14"]);

    let mut app = checkers_as_black();
    let from = point_of(&app, 9);
    let to = point_of(&app, 13);
    assert!(mouse(&mut app, MouseEventKind::Down(MouseButton::Left), from).is_empty());
    mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), to);
    let sent = mouse(&mut app, MouseEventKind::Up(MouseButton::Left), to);
    assert_eq!(moves_sent(&sent), vec!["9-13"]);
}

#[test]
fn clicks_off_the_board_or_on_light_squares_do_nothing_harmful() {
    let mut app = checkers_as_black();
    assert!(mouse(&mut app, MouseEventKind::Down(MouseButton::Left), (79, 0)).is_empty());
    assert!(mouse(&mut app, MouseEventKind::Down(MouseButton::Left), (0, 29)).is_empty());
    // The top left cell of the board is a light square.
    let table = app.table.as_ref().unwrap();
    let board = GameLayout::new(Rect::new(0, 0, 80, 30), &table.geometry())
        .board
        .unwrap();
    let sent = mouse(
        &mut app,
        MouseEventKind::Down(MouseButton::Left),
        (board.x, board.y),
    );
    assert!(sent.is_empty());
    assert!(app.status.contains("dark squares"), "{}", app.status);
    assert!(app.status_is_error);
}

#[test]
fn a_multi_jump_is_clicked_square_by_square() {
    let mut app = app_with(
        state(
            GameKind::Checkers,
            Some("W:WK22:B9,10,17,18"),
            &[],
            Some(Side::Second),
        ),
        (80, 30),
    );
    for square in [22, 15, 6] {
        assert!(click(&mut app, square).is_empty(), "{square}");
    }
    assert!(app.status.contains("jump again"), "{}", app.status);
    assert!(click(&mut app, 13).is_empty());
    let sent = click(&mut app, 22);
    assert_eq!(moves_sent(&sent).len(), 1);
    let text = &moves_sent(&sent)[0];
    assert!(text.starts_with("22x15x6x13"), "{text}");
}

#[test]
fn a_refused_pick_up_explains_itself() {
    let mut app = app_with(
        state(
            GameKind::Checkers,
            Some("B:W18:B1,14"),
            &[],
            Some(Side::First),
        ),
        (80, 30),
    );
    assert!(click(&mut app, 1).is_empty());
    assert!(
        app.status.contains("a capture is compulsory elsewhere"),
        "{}",
        app.status
    );
    assert!(app.status_is_error);
}

#[test]
fn not_your_turn_and_watching_are_refused() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::Second)),
        (80, 30),
    );
    assert!(click(&mut app, 22).is_empty());
    assert!(app.status.contains("it is Black's turn"), "{}", app.status);
    let mut app = app_with(state(GameKind::Checkers, None, &[], None), (80, 30));
    assert!(click(&mut app, 11).is_empty());
    assert!(app.status.contains("watching"), "{}", app.status);
}

#[test]
fn typed_numbers_and_texts_play_and_bad_ones_are_explained() {
    let mut app = checkers_as_black();
    let candidates = app.table.as_ref().unwrap().candidates.clone();
    assert_eq!(
        moves_sent(&type_text(&mut app, "3")),
        vec![candidates[2].text.clone()]
    );

    let mut app = checkers_as_black();
    assert!(type_text(&mut app, "99").is_empty());
    assert!(
        app.status
            .contains("there is no move number 99: choose 1 to 7"),
        "{}",
        app.status
    );
    assert!(type_text(&mut app, "11-99").is_empty());
    assert!(app.status.contains("11-99"), "{}", app.status);
    assert_eq!(moves_sent(&type_text(&mut app, "11-16")), vec!["11-16"]);

    let mut app = app_with(
        state(GameKind::Pente, None, &[], Some(Side::First)),
        (80, 24),
    );
    assert_eq!(moves_sent(&type_text(&mut app, "K10")), vec!["K10"]);
    // ':' starts a typed move with whatever comes next.
    let mut app = app_with(
        state(GameKind::TicTacToe, None, &[], Some(Side::First)),
        (80, 24),
    );
    assert_eq!(moves_sent(&type_text(&mut app, ":b2")), vec!["5"]);
}

#[test]
fn lower_case_squares_are_moves_and_do_not_run_the_screen_keys() {
    // Noughts and crosses: b then 2 is the square b2 (5), not the lobby's key then 2.
    let mut app = app_with(
        state(GameKind::TicTacToe, None, &[], Some(Side::First)),
        (80, 24),
    );
    assert_eq!(moves_sent(&type_text(&mut app, "b2")), vec!["5"]);
    assert_eq!(app.screen, Screen::Game);
    // Pente: k10 is the point K10, and the cursor that k moved at once goes back.
    let mut app = app_with(
        state(GameKind::Pente, None, &[], Some(Side::First)),
        (120, 40),
    );
    let cursor = app.table.as_ref().unwrap().cursor;
    key(&mut app, KeyCode::Char('k'));
    assert_ne!(
        app.table.as_ref().unwrap().cursor,
        cursor,
        "k moves at once"
    );
    for c in "10".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    assert_eq!(app.table.as_ref().unwrap().cursor, cursor);
    assert_eq!(moves_sent(&key(&mut app, KeyCode::Enter)), vec!["K10"]);
}

#[test]
fn a_letter_that_may_begin_a_square_still_works_as_its_key() {
    let tictactoe = || {
        app_with(
            state(GameKind::TicTacToe, None, &[], Some(Side::First)),
            (80, 24),
        )
    };
    // Followed by a key that is not a digit, b does its own job first.
    let mut app = tictactoe();
    key(&mut app, KeyCode::Char('b'));
    assert_eq!(app.screen, Screen::Game, "b waits for the next key");
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(app.screen, Screen::Lobby);
    // Alone, it acts after a short wait.
    let mut app = tictactoe();
    app.now = std::time::Instant::now()
        .checked_sub(std::time::Duration::from_secs(1))
        .unwrap();
    key(&mut app, KeyCode::Char('b'));
    assert_eq!(app.screen, Screen::Game);
    app.update(Event::Tick);
    assert_eq!(app.screen, Screen::Lobby);
    // Ctrl-C drops a held letter: it does not answer the quit question.
    let mut app = tictactoe();
    app.now = std::time::Instant::now()
        .checked_sub(std::time::Duration::from_secs(1))
        .unwrap();
    key(&mut app, KeyCode::Char('b'));
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    ))));
    app.update(Event::Tick);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Confirm::Quit)));
    assert_eq!(app.screen, Screen::Game);
    // In checkers no letter begins a square: b goes to the lobby at once.
    let mut app = checkers_as_black();
    key(&mut app, KeyCode::Char('b'));
    assert_eq!(app.screen, Screen::Lobby);
}

#[test]
fn flipping_moves_the_squares_under_the_mouse() {
    let mut app = checkers_as_black();
    let before = point_of(&app, 11);
    key(&mut app, KeyCode::Char('f'));
    let after = point_of(&app, 11);
    assert_ne!(before, after);
    assert!(click(&mut app, 11).is_empty());
    assert_eq!(app.table.as_ref().unwrap().selection.path(), &[11]);
}

#[test]
fn quitting_during_a_game_asks_first_and_does_not_resign() {
    let mut app = checkers_as_black();
    assert!(key(&mut app, KeyCode::Char('q')).is_empty());
    assert_eq!(app.overlay, Some(Overlay::Confirm(Confirm::Quit)));
    assert!(key(&mut app, KeyCode::Char('n')).is_empty());
    assert!(!app.quit);
    key(&mut app, KeyCode::Char('q'));
    let sent = key(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
    // The game waits for the player's return: nothing is resigned or left.
    assert!(
        !sent.iter().any(|m| matches!(
            m,
            ClientMessage::Leave { .. } | ClientMessage::Resign { .. }
        )),
        "{sent:?}"
    );
}

#[test]
fn draw_offers_are_answered_with_keys() {
    let mut app = checkers_as_black();
    app.update(Event::Server(
        kingme_shared::protocol::ServerMessage::DrawOffered {
            game: kingme_shared::protocol::GameId(7),
            by: Side::Second,
        },
    ));
    assert!(app.status.contains("offers a draw"), "{}", app.status);
    let sent = key(&mut app, KeyCode::Char('n'));
    assert!(
        matches!(
            sent.as_slice(),
            [ClientMessage::AnswerDraw { accept: false, .. }]
        ),
        "{sent:?}"
    );
    // Answered: the key no longer applies, and the footer no longer offers it.
    let sent = key(&mut app, KeyCode::Char('n'));
    assert!(sent.is_empty());
    assert!(
        !kingme_client::tui::keys::footer(&app, 200).contains("answer"),
        "{}",
        kingme_client::tui::keys::footer(&app, 200)
    );
}

#[test]
fn the_create_dialog_sends_options() {
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    assert!(matches!(app.overlay, Some(Overlay::Create(_))));
    key(&mut app, KeyCode::Right); // pente
    // Up from the first row wraps round to the Create button.
    key(&mut app, KeyCode::Up);
    let sent = key(&mut app, KeyCode::Enter);
    let [ClientMessage::CreateGame(options)] = sent.as_slice() else {
        panic!("{sent:?}");
    };
    assert_eq!(options.spec.kind(), GameKind::Pente);
    assert_eq!(app.overlay, None);
}

#[test]
fn enter_on_the_create_dialogs_defaults_creates_the_game() {
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    let sent = key(&mut app, KeyCode::Enter);
    let [ClientMessage::CreateGame(options)] = sent.as_slice() else {
        panic!("one Enter creates: {sent:?}");
    };
    assert_eq!(options.spec.kind(), GameKind::Checkers);
    assert!(options.rated, "rated by default");
    assert_eq!(app.overlay, None);
    // From any row, after a change.
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Right);
    let sent = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(sent.as_slice(), [ClientMessage::CreateGame(_)]),
        "{sent:?}"
    );
}

#[test]
fn the_board_cursor_starts_on_a_playable_square() {
    for kind in GameKind::ALL {
        for side in [Some(Side::First), Some(Side::Second), None] {
            let app = app_with(state(kind, None, &[], side), (120, 40));
            let table = app.table.as_ref().unwrap();
            let geometry = table.geometry();
            let on_a_square = (0..=400).any(|s| geometry.cell_of(s) == Some(table.cursor));
            assert!(on_a_square, "{kind:?} {side:?}: {:?}", table.cursor);
        }
    }
}

#[test]
fn pieces_placed_on_an_empty_board_become_the_start_position() {
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Left); // noughts and crosses
    for _ in 0..5 {
        key(&mut app, KeyCode::Down);
    }
    for _ in 0..3 {
        key(&mut app, KeyCode::Right); // standard, typed, file, placed
    }
    key(&mut app, KeyCode::Enter); // opens the setup board
    let Some(Overlay::Create(form)) = &app.overlay else {
        panic!("the dialog closed");
    };
    assert!(form.placing);
    key(&mut app, KeyCode::Char(' ')); // X on square 1
    key(&mut app, KeyCode::Char('l'));
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Char(' ')); // O on square 5
    key(&mut app, KeyCode::Enter); // done placing
    key(&mut app, KeyCode::Down); // the Create button
    let sent = key(&mut app, KeyCode::Enter);
    let [ClientMessage::CreateGame(options)] = sent.as_slice() else {
        panic!("{sent:?} {:?}", app.overlay);
    };
    assert_eq!(options.spec.kind(), GameKind::TicTacToe);
    assert_eq!(options.start_position.as_deref(), Some("X---O----"));
}

#[test]
fn an_impossible_setup_is_explained_in_the_dialog() {
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    for _ in 0..5 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Right); // typed position
    key(&mut app, KeyCode::Down);
    for c in "B:W1:B1".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Enter); // to the Create button
    let sent = key(&mut app, KeyCode::Enter);
    assert!(sent.is_empty());
    let Some(Overlay::Create(form)) = &app.overlay else {
        panic!("the dialog closed");
    };
    let error = form.error.clone().unwrap_or_default();
    assert!(error.contains("listed twice"), "{error}");
}

#[test]
fn the_lobby_is_watched_while_shown_and_only_then() {
    use kingme_client::net::event::LinkEvent;
    let watch = |sent: &[ClientMessage]| -> Vec<bool> {
        sent.iter()
            .filter_map(|m| match m {
                ClientMessage::WatchLobby { on } => Some(*on),
                _ => None,
            })
            .collect()
    };
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    let sent = app.update(Event::Link(LinkEvent::Connected { resumed: false }));
    assert_eq!(watch(&sent), [true], "the lobby is on screen: {sent:?}");
    // The server pushes the changes: ticks ask for nothing.
    for _ in 0..40 {
        assert!(app.update(Event::Tick).is_empty());
    }
    // Into a game: watching stops; back to the lobby: it starts again.
    let game = state(GameKind::Checkers, None, &[], Some(Side::First));
    let sent = app.update(Event::Server(ServerMessage::State(game)));
    assert_eq!(watch(&sent), [false], "{sent:?}");
    assert_eq!(app.screen, Screen::Game);
    let sent = key(&mut app, KeyCode::Char('b'));
    assert_eq!(watch(&sent), [true], "{sent:?}");
    // A new connection watches nothing until asked again.
    app.update(Event::Link(LinkEvent::Lost {
        node: "127.0.0.1:7001".to_owned(),
        reason: "reset".to_owned(),
        next: "127.0.0.1:7002".to_owned(),
        retry_in_secs: 1,
    }));
    let sent = app.update(Event::Link(LinkEvent::Connected { resumed: true }));
    assert_eq!(watch(&sent), [true], "{sent:?}");
}

#[test]
fn the_lobby_seats_a_bot_in_the_selected_game() {
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    assert!(
        key(&mut app, KeyCode::Char('a')).is_empty(),
        "no game selected"
    );
    let summary = kingme_shared::protocol::GameSummary {
        id: kingme_shared::protocol::GameId(4),
        spec: GameKind::Pente.into(),
        seats: [
            kingme_shared::protocol::SeatHolder::Empty,
            kingme_shared::protocol::SeatHolder::Empty,
        ],
        time_control: kingme_shared::protocol::TimeControl::Unlimited,
        moves: 0,
        status: kingme_shared::protocol::GameStatus::Open,
        spectators: 1,
    };
    app.update(Event::Server(
        kingme_shared::protocol::ServerMessage::GameList {
            games: vec![summary],
        },
    ));
    // a asks for the level (intermediate first), Down picks the next stronger one (skilled),
    // Enter seats it.
    assert!(key(&mut app, KeyCode::Char('a')).is_empty());
    assert!(key(&mut app, KeyCode::Down).is_empty());
    let sent = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(sent.as_slice(), [ClientMessage::AttachBot { game, level }]
            if game.0 == 4 && *level == kingme_shared::ai::Level::Skilled),
        "{sent:?}"
    );
}

fn summary(
    id: u64,
    status: kingme_shared::protocol::GameStatus,
) -> kingme_shared::protocol::GameSummary {
    kingme_shared::protocol::GameSummary {
        id: kingme_shared::protocol::GameId(id),
        spec: GameKind::Checkers.into(),
        seats: [
            kingme_shared::protocol::SeatHolder::Empty,
            kingme_shared::protocol::SeatHolder::Empty,
        ],
        time_control: kingme_shared::protocol::TimeControl::Unlimited,
        moves: 0,
        status,
        spectators: 0,
    }
}

#[test]
fn the_lobby_selection_follows_the_game_not_the_row() {
    use kingme_shared::protocol::{GameStatus, ServerMessage};
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    let list = |ids: &[u64]| {
        Event::Server(ServerMessage::GameList {
            games: ids
                .iter()
                .map(|&id| summary(id, GameStatus::Open))
                .collect(),
        })
    };
    app.update(list(&[10, 11]));
    key(&mut app, KeyCode::Down);
    assert_eq!(app.selected_game().map(|g| g.id.0), Some(11));
    // A new game arrives above it: the selection stays on game 11.
    app.update(list(&[12, 10, 11]));
    assert_eq!(app.selected_game().map(|g| g.id.0), Some(11));
    assert!(key(&mut app, KeyCode::Char('a')).is_empty());
    let sent = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(sent.as_slice(), [ClientMessage::AttachBot { game, .. }] if game.0 == 11),
        "{sent:?}"
    );
}

#[test]
fn the_footer_offers_only_the_keys_that_apply() {
    use kingme_client::tui::keys::footer;
    let mut app = checkers_as_black();
    let playing = footer(&app, 200);
    for wanted in ["r resign", "d draw", "f flip", "? help"] {
        assert!(playing.contains(wanted), "{wanted}: {playing}");
    }
    assert!(
        !playing.contains("u undo"),
        "no move to take back: {playing}"
    );
    assert!(!playing.contains("m rematch"), "{playing}");
    app.update(Event::Server(
        kingme_shared::protocol::ServerMessage::GameOver {
            game: kingme_shared::protocol::GameId(7),
            clocks: crate::fixtures::stopped_clocks(),
            result: kingme_shared::protocol::GameResult {
                winner: Some(Side::First),
                reason: kingme_shared::protocol::EndReason::Resignation,
            },
        },
    ));
    let over = footer(&app, 200);
    for gone in ["r resign", "d draw", "u undo"] {
        assert!(!over.contains(gone), "{gone}: {over}");
    }
    assert!(over.contains("m rematch"), "{over}");
    // r does nothing once the game is over: no resign question.
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('r'));
    assert!(app.overlay.is_none(), "{:?}", app.overlay);
    // A spectator is offered none of a player's keys.
    let watching = crate::fixtures::app_with(
        crate::fixtures::state(GameKind::Checkers, None, &[], None),
        (80, 24),
    );
    let keys = footer(&watching, 200);
    // Narrow: fewer keys, but always the way to help, and never wider than the screen.
    let narrow = footer(&app, 40);
    assert!(
        narrow.ends_with("? help") && narrow.chars().count() <= 40,
        "{narrow}"
    );
    for gone in ["r resign", "d draw", "u undo", "m rematch", "type a move"] {
        assert!(!keys.contains(gone), "{gone}: {keys}");
    }
}

#[test]
fn text_fields_take_the_usual_editing_keys() {
    use kingme_client::tui::create_form::Field;
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    for _ in 0..5 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Right); // type a position
    key(&mut app, KeyCode::Down);
    for c in "W:W9:B1,1".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    // Left moves the cursor inside the text (not the row's value); Ctrl-W deletes a word,
    // Ctrl-U the line, and no 'u' or 'w' is typed.
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Char('2'));
    let form = |app: &App| match &app.overlay {
        Some(Overlay::Create(form)) => form.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(form(&app).text.value(), "W:W9:B1,21");
    assert_eq!(form(&app).field, Field::Text);
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        KeyCode::Char('u'),
        KeyModifiers::CONTROL,
    ))));
    assert_eq!(form(&app).text.value(), "");
    // The chat line too.
    let mut app = checkers_as_black();
    key(&mut app, KeyCode::Char('c'));
    for c in "hello world".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        KeyCode::Char('w'),
        KeyModifiers::CONTROL,
    ))));
    key(&mut app, KeyCode::Home);
    key(&mut app, KeyCode::Char('>'));
    let sent = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(sent.as_slice(), [ClientMessage::Chat { text, .. }] if text == ">hello "),
        "{sent:?}"
    );
}

#[test]
fn choices_are_kept_in_the_settings_for_the_next_run() {
    use kingme_client::tui::create_form::Field;
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    // Theme: the fifth, Monochrome.
    key(&mut app, KeyCode::Char('t'));
    for _ in 0..4 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Enter);
    assert!(app.settings_changed);
    assert_eq!(app.settings.theme.as_deref(), Some("Monochrome"));
    // A Pente game against an open seat.
    app.settings_changed = false;
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Right); // pente
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Left); // the next weaker bot
    let Some(Overlay::Create(form)) = &app.overlay else {
        panic!("the dialog");
    };
    assert_eq!(form.field, Field::Opponent);
    for _ in 0..3 {
        key(&mut app, KeyCode::Down);
    }
    let sent = key(&mut app, KeyCode::Enter);
    assert!(
        matches!(sent.as_slice(), [ClientMessage::CreateGame(o)] if o.spec.kind() == GameKind::Pente),
        "{sent:?}"
    );
    assert!(app.settings_changed);
    // The next run starts with them.
    let next =
        App::new("ada", (80, 24), std::time::Instant::now()).with_settings(app.settings.clone());
    assert!(next.theme.monochrome);
    let mut next = next;
    key(&mut next, KeyCode::Char('c'));
    let Some(Overlay::Create(form)) = &next.overlay else {
        panic!("the dialog");
    };
    assert_eq!(form.kind, GameKind::Pente);
    let Some(kingme_client::local::settings::GameSettings { opponent, .. }) =
        app.settings.last_game
    else {
        panic!("kept");
    };
    assert_eq!(form.opponent, opponent);
    assert_ne!(opponent, Some(kingme_shared::ai::Level::Intermediate));
}

#[test]
fn the_clocks_after_the_end_are_the_servers() {
    let mut app = checkers_as_black();
    let table = app.table.as_ref().unwrap();
    let later = table.clocks_at + std::time::Duration::from_secs(4);
    app.now = later;
    app.update(Event::Server(
        kingme_shared::protocol::ServerMessage::GameOver {
            game: kingme_shared::protocol::GameId(7),
            result: kingme_shared::protocol::GameResult {
                winner: Some(Side::Second),
                reason: kingme_shared::protocol::EndReason::TimeForfeit,
            },
            clocks: kingme_shared::protocol::ClockState {
                remaining_ms: [Some(0), Some(287_500)],
                running: None,
            },
        },
    ));
    let table = app.table.as_ref().unwrap();
    // The flagged side shows nothing left, however long after it is drawn.
    for wait in [0, 10] {
        let when = later + std::time::Duration::from_secs(wait);
        assert_eq!(table.clock_at(Side::First, when), Some(0));
        assert_eq!(table.clock_at(Side::Second, when), Some(287_500));
    }
}

#[test]
fn back_in_the_lobby_the_list_is_asked_for_at_once() {
    let mut app = checkers_as_black();
    let sent = key(&mut app, KeyCode::Char('b'));
    assert_eq!(app.screen, kingme_client::tui::app::Screen::Lobby);
    assert!(
        sent.iter().any(|m| matches!(m, ClientMessage::ListGames)),
        "{sent:?}"
    );
}

#[test]
fn an_offer_the_opponent_answers_by_moving_is_told_to_the_asker() {
    // ada (White) offers a draw while Black thinks; Black moves instead of answering.
    let mut app = app_with(
        state(GameKind::Checkers, None, &[], Some(Side::Second)),
        (80, 30),
    );
    let sent = key(&mut app, KeyCode::Char('d'));
    assert!(
        matches!(sent.as_slice(), [ClientMessage::OfferDraw { .. }]),
        "{sent:?}"
    );
    app.update(Event::Server(ServerMessage::DrawOffered {
        game: kingme_shared::protocol::GameId(7),
        by: Side::Second,
    }));
    let clocks = kingme_shared::protocol::ClockState {
        remaining_ms: [Some(300_000), Some(300_000)],
        running: Some(Side::Second),
    };
    app.update(Event::Server(ServerMessage::MovePlayed {
        game: kingme_shared::protocol::GameId(7),
        ply: 1,
        record: kingme_shared::protocol::MoveRecord {
            side: Side::First,
            text: "11-15".to_owned(),
            path: vec![11, 15],
            removed: vec![],
        },
        position: "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15".to_owned(),
        side_to_move: Side::Second,
        clocks,
    }));
    app.update(Event::Server(ServerMessage::YourTurn {
        game: kingme_shared::protocol::GameId(7),
        legal_moves: vec!["22-18".to_owned()],
        clocks,
    }));
    assert!(
        app.status
            .contains("Black moved instead of answering your draw offer"),
        "{}",
        app.status
    );
    assert_eq!(app.table.as_ref().unwrap().draw_offer, None);
}

#[test]
fn the_create_dialog_has_a_rated_row_and_a_guest_plays_unrated() {
    let mut app = App::new("ada", (80, 24), std::time::Instant::now());
    key(&mut app, KeyCode::Char('c'));
    for _ in 0..4 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Right);
    let sent = key(&mut app, KeyCode::Enter);
    let [ClientMessage::CreateGame(options)] = sent.as_slice() else {
        panic!("{sent:?}");
    };
    assert!(!options.rated, "the rated row turned it off");
    let mut guest = App::new("guest", (80, 24), std::time::Instant::now());
    guest.guest = true;
    key(&mut guest, KeyCode::Char('c'));
    let sent = key(&mut guest, KeyCode::Enter);
    let [ClientMessage::CreateGame(options)] = sent.as_slice() else {
        panic!("{sent:?}");
    };
    assert!(!options.rated, "a guest has no rating");
}

#[test]
fn a_blocked_persons_chat_is_hidden_and_the_command_is_never_sent() {
    let mut app = checkers_as_black();
    let said = |app: &mut App, from: &str, text: &str| {
        app.update(Event::Server(ServerMessage::Chat {
            game: kingme_shared::protocol::GameId(7),
            from: from.to_owned(),
            text: text.to_owned(),
        }));
    };
    let chat = |app: &App| app.table.as_ref().map(|table| table.chat.clone()).unwrap();
    key(&mut app, KeyCode::Char('c'));
    let sent = type_text(&mut app, "/block mallory");
    assert!(sent.is_empty(), "{sent:?}");
    assert!(app.status.contains("blocked mallory"), "{}", app.status);
    assert!(app.blocked_changed && app.blocked.contains("mallory"));
    said(&mut app, "mallory", "buy cheap gold");
    said(&mut app, "bob", "good luck");
    assert_eq!(chat(&app), [("bob".to_owned(), "good luck".to_owned())]);
    // Unblocked: shown again; an ordinary line is still sent.
    key(&mut app, KeyCode::Char('c'));
    assert!(type_text(&mut app, "/unblock mallory").is_empty());
    said(&mut app, "mallory", "sorry");
    assert_eq!(chat(&app).len(), 2);
    key(&mut app, KeyCode::Char('c'));
    let sent = type_text(&mut app, "/blocks are fun");
    assert!(
        matches!(sent.as_slice(), [ClientMessage::Chat { text, .. }] if text == "/blocks are fun"),
        "{sent:?}"
    );
}

#[test]
fn an_announcement_shows_on_the_status_line() {
    let mut app = checkers_as_black();
    app.update(Event::Server(ServerMessage::Announcement {
        from: "root".to_owned(),
        text: "the server restarts at five".to_owned(),
    }));
    assert_eq!(
        app.status,
        "announcement from root: the server restarts at five"
    );
}

#[test]
fn blocked_names_are_kept_beside_the_key_over_a_restart() {
    use kingme_client::identity::KeyStore;
    use kingme_client::local::blocked::Blocked;
    let home = tempfile::tempdir().unwrap();
    let keys = KeyStore::new(home.path().join("identities"));
    let path = keys.blocked_path("ada");
    assert_eq!(path, home.path().join("identities").join("ada.blocked"));
    let mut app = checkers_as_black();
    key(&mut app, KeyCode::Char('c'));
    type_text(&mut app, "/block mallory");
    // What the terminal loop does when the names changed, and at the next start.
    app.blocked.save(&path).unwrap();
    let mut again = checkers_as_black();
    again.blocked = Blocked::load(&path).unwrap();
    again.update(Event::Server(ServerMessage::Chat {
        game: kingme_shared::protocol::GameId(7),
        from: "mallory".to_owned(),
        text: "still here".to_owned(),
    }));
    assert!(again.table.as_ref().unwrap().chat.is_empty());
}

#[test]
fn back_on_a_new_connection_the_chat_is_read_again_not_doubled() {
    use kingme_client::net::event::LinkEvent;
    let mut app = checkers_as_black();
    let said = |app: &mut App, text: &str| {
        app.update(Event::Server(ServerMessage::Chat {
            game: kingme_shared::protocol::GameId(7),
            from: "bob".to_owned(),
            text: text.to_owned(),
        }));
    };
    said(&mut app, "good luck");
    app.update(Event::Link(LinkEvent::Connected { resumed: true }));
    // The server sends the chat so far again after the game's state.
    said(&mut app, "good luck");
    said(&mut app, "you too?");
    let chat = &app.table.as_ref().unwrap().chat;
    let texts: Vec<&str> = chat.iter().map(|(_, text)| text.as_str()).collect();
    assert_eq!(texts, ["good luck", "you too?"]);
}
