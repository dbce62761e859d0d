//! Coming back to games, driven by scripted server messages: the welcome lists the games in
//! progress; plain mode goes back to the most recent instead of creating another (and says
//! so), the full-screen app opens it and, for `kingme play`, asks before starting a new one;
//! quitting mid-game resigns nothing.

use crate::fixtures::state;
use kingme_client::net::event::{Event, LinkEvent};
use kingme_client::plain::{Session, Start};
use kingme_client::tui::app::{App, Confirm, Overlay, Screen};
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, GameState, Opponent, PROTOCOL_VERSION, PlayerId,
    SeatChoice, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use ratatui::crossterm::event::{Event as TerminalEvent, KeyCode, KeyEvent, KeyModifiers};
use std::time::Instant;

fn options() -> GameOptions {
    GameOptions {
        spec: GameKind::Checkers.into(),
        seat: SeatChoice::Side(Side::First),
        opponent: Opponent::Bot(kingme_shared::ai::Level::Random),
        time_control: TimeControl::Unlimited,
        start_position: None,
        rated: false,
    }
}

fn welcome(games: &[u64]) -> Event {
    Event::Server(ServerMessage::Welcome {
        protocol_version: PROTOCOL_VERSION,
        player: PlayerId(1),
        resume_token: String::new(),
        games: games.iter().copied().map(GameId).collect(),
    })
}

fn game(id: u64) -> GameState {
    let mut state = state(GameKind::TicTacToe, None, &[], Some(Side::First));
    state.id = GameId(id);
    state
}

fn key(app: &mut App, code: KeyCode) -> Vec<ClientMessage> {
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        code,
        KeyModifiers::NONE,
    ))))
}

#[test]
fn plain_mode_goes_back_to_the_most_recent_game_instead_of_creating_one() {
    let mut session = Session::new(Start::Create(Box::new(options())), false, Vec::new());
    session.event(welcome(&[3, 9]));
    let (sent, done) = session.event(Event::Link(LinkEvent::Connected { resumed: false }));
    assert!(sent.is_empty() && !done, "nothing created: {sent:?}");
    session.event(Event::Server(ServerMessage::State(game(9))));
    session.event(Event::Server(ServerMessage::State(game(3))));
    let out = String::from_utf8(session.output().clone()).unwrap();
    assert!(
        out.contains("game 9 is in progress: back to it (finish or resign it"),
        "{out}"
    );
    assert!(out.contains("game 9: tictactoe"), "{out}");
    assert!(
        !out.contains("game 3: tictactoe"),
        "the older game stays aside: {out}"
    );
}

#[test]
fn plain_quit_mid_game_resigns_nothing() {
    let mut session = Session::new(Start::Lobby, false, Vec::new());
    session.event(welcome(&[9]));
    session.event(Event::Link(LinkEvent::Connected { resumed: false }));
    session.event(Event::Server(ServerMessage::State(game(9))));
    let (sent, done) = session.line("quit");
    assert!(sent.is_empty() && done, "{sent:?}");
    let (sent, done) = session.end_of_input();
    assert!(sent.is_empty() && done, "{sent:?}");
    let out = String::from_utf8(session.output().clone()).unwrap();
    assert!(out.contains("the game waits for you"), "{out}");
}

#[test]
fn the_app_opens_the_game_in_progress_and_asks_before_a_new_one() {
    let mut app = App::new("ada", (100, 30), Instant::now());
    app.first_request = Some(ClientMessage::CreateGame(options()));
    app.update(welcome(&[3, 9]));
    let sent = app.update(Event::Link(LinkEvent::Connected { resumed: false }));
    assert!(
        !sent
            .iter()
            .any(|m| matches!(m, ClientMessage::CreateGame(_))),
        "{sent:?}"
    );
    assert_eq!(app.overlay, Some(Overlay::Confirm(Confirm::NewGame)));
    app.update(Event::Server(ServerMessage::State(game(9))));
    app.update(Event::Server(ServerMessage::State(game(3))));
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(app.table.as_ref().unwrap().id, GameId(9), "the most recent");
    assert!(app.status.contains("back in game 9"), "{}", app.status);
    // n: back to the game, nothing created.
    assert!(key(&mut app, KeyCode::Char('n')).is_empty());
    assert_eq!(app.first_request, None);

    // y: the new game is created after all.
    let mut app = App::new("ada", (100, 30), Instant::now());
    app.first_request = Some(ClientMessage::CreateGame(options()));
    app.update(welcome(&[3]));
    app.update(Event::Link(LinkEvent::Connected { resumed: false }));
    assert_eq!(
        key(&mut app, KeyCode::Char('y')),
        vec![ClientMessage::CreateGame(options())]
    );
}

/// After `event`, the status line shows `said` whole at every width: wrapped, or through `s`.
fn the_status_says_it_whole(event: &LinkEvent, said: &str) {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    for width in [120, 80, 50] {
        let mut app = App::new("ann", (width, 24), Instant::now());
        app.update(Event::Link(event.clone()));
        let draw = |app: &App| {
            let mut terminal = Terminal::new(TestBackend::new(width, 24)).unwrap();
            terminal
                .draw(|frame| kingme_client::tui::ui::draw(frame, app))
                .unwrap();
            let buffer = terminal.backend().buffer().clone();
            buffer
                .content()
                .chunks(usize::from(width))
                .map(|row| row.iter().map(|cell| cell.symbol()).collect::<String>())
                .collect::<Vec<String>>()
        };
        // The words on screen in order, box borders left out.
        let words = |text: &str| {
            text.replace('│', " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let wanted = words(said);
        let mut screen = draw(&app);
        if !words(&screen.join(" ")).contains(&wanted) {
            // Too long for the two status lines: they say so, and s shows the whole message.
            assert!(
                words(&screen.join(" ")).contains("s: read all"),
                "{}",
                screen.join("\n")
            );
            key(&mut app, KeyCode::Char('s'));
            screen = draw(&app);
        }
        let all = words(&screen.join(" "));
        assert!(
            all.contains(&wanted),
            "{width} columns:\n{}",
            screen.join("\n")
        );
    }
}

#[test]
fn a_refusal_wraps_in_the_status_line_and_nothing_is_cut() {
    let reason = "the name \"ann\" belongs to another key (fingerprint \
                  ab12cd34ef56ab12cd34ef56ab12cd34); use --name to choose another, or import \
                  ann's key";
    let closed = LinkEvent::Closed {
        reason: reason.to_owned(),
    };
    the_status_says_it_whole(&closed, &format!("disconnected: {reason}"));
}

#[test]
fn a_lost_node_and_the_next_one_are_named_whole_in_the_status_line() {
    let lost = LinkEvent::Lost {
        node: "127.0.0.1:7001".to_owned(),
        reason: "the server closed the connection".to_owned(),
        next: "127.0.0.1:7002".to_owned(),
        retry_in_secs: 1,
    };
    the_status_says_it_whole(
        &lost,
        "node 127.0.0.1:7001 lost (the server closed the connection); reconnecting to \
         127.0.0.1:7002 in 1 s",
    );
}

/// `b` to the lobby. On the player's turn in noughts and crosses `b` may begin a square
/// (`b2`), so it acts after its short wait: the time is put back to let the next tick end it.
fn to_lobby(app: &mut App) {
    app.now = Instant::now()
        .checked_sub(std::time::Duration::from_secs(1))
        .unwrap();
    key(app, KeyCode::Char('b'));
    app.update(Event::Tick);
    assert_eq!(app.screen, Screen::Lobby);
}

/// Game `id`, finished: the second side won by resignation.
fn finished(id: u64) -> GameState {
    let mut state = game(id);
    state.status = kingme_shared::protocol::GameStatus::Over(kingme_shared::protocol::GameResult {
        winner: Some(Side::Second),
        reason: kingme_shared::protocol::EndReason::Resignation,
    });
    state.clocks.running = None;
    state
}

/// The lobby as drawn, one string.
fn lobby_text(app: &App) -> String {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let mut terminal = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    terminal
        .draw(|frame| kingme_client::tui::ui::draw(frame, app))
        .unwrap();
    terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|cell| cell.symbol())
        .collect()
}

fn summary(state: &GameState) -> kingme_shared::protocol::GameSummary {
    kingme_shared::protocol::GameSummary {
        id: state.id,
        spec: state.spec,
        seats: state.seats.clone(),
        time_control: state.time_control,
        moves: 0,
        status: state.status,
        spectators: 0,
    }
}

#[test]
fn a_finished_game_is_never_the_game_in_progress() {
    // Back after a restart: game 4 goes on, game 2 is over (its player came back while it
    // waits for a rematch). Whichever state comes last, g and the lobby mean game 4.
    for order in [[4, 2], [2, 4]] {
        let mut app = App::new("ada", (100, 30), Instant::now());
        app.update(welcome(&[4]));
        app.update(Event::Link(LinkEvent::Connected { resumed: false }));
        for id in order {
            let state = if id == 4 { game(4) } else { finished(2) };
            app.update(Event::Server(ServerMessage::State(state)));
        }
        assert_eq!(app.table.as_ref().unwrap().id, GameId(4), "{order:?}");
        to_lobby(&mut app);
        app.update(Event::Server(ServerMessage::GameList {
            games: vec![summary(&finished(2)), summary(&game(4))],
        }));
        assert!(lobby_text(&app).contains("▶ your game"), "{order:?}");
        key(&mut app, KeyCode::Char('g'));
        assert_eq!(app.screen, Screen::Game, "{order:?}");
        assert_eq!(app.table.as_ref().unwrap().id, GameId(4), "{order:?}");
    }
}

#[test]
fn a_game_created_here_is_marked_in_the_lobby_and_a_finished_one_is_not_offered() {
    let mut app = App::new("ada", (100, 30), Instant::now());
    app.update(Event::Link(LinkEvent::Connected { resumed: false }));
    app.update(Event::Server(ServerMessage::State(game(5))));
    to_lobby(&mut app);
    app.update(Event::Server(ServerMessage::GameList {
        games: vec![summary(&game(5))],
    }));
    assert!(lobby_text(&app).contains("▶ your game"));
    assert!(kingme_client::tui::keys::footer(&app, 200).contains("g your game"));

    // Once it is over, it is not "your game" any more: no marker and no g.
    app.update(Event::Server(ServerMessage::GameOver {
        game: GameId(5),
        clocks: crate::fixtures::stopped_clocks(),
        result: kingme_shared::protocol::GameResult {
            winner: Some(Side::Second),
            reason: kingme_shared::protocol::EndReason::Resignation,
        },
    }));
    app.update(Event::Server(ServerMessage::GameList {
        games: vec![summary(&finished(5))],
    }));
    assert!(!lobby_text(&app).contains("▶ your game"));
    assert!(!kingme_client::tui::keys::footer(&app, 200).contains("g your game"));
    key(&mut app, KeyCode::Char('g'));
    assert_eq!(app.screen, Screen::Lobby);
}
