//! The review board inside the full-screen client (issue 32): `v` on a finished game, at the
//! game-over dialog or later (a watched game too), reviews its moves off the reactor, shows the
//! progress and then the board with its marks; Esc goes back. A game in progress offers no `v`.

use crate::fixtures::{app_with, render, state};
use kingme_client::net::event::Event;
use kingme_client::tui::app::review_board::ReviewScreen;
use kingme_client::tui::app::{App, Screen};
use kingme_client::tui::keys::{self, Place, Situation};
use kingme_shared::protocol::ClientMessage;
use kingme_shared::{GameKind, Side};
use ratatui::crossterm::event::{Event as TerminalEvent, KeyCode, KeyEvent, KeyModifiers};

/// Noughts answers the centre on an edge (a blunder), crosses gives the win back, and the
/// board fills: a draw.
const DRAWN: [&str; 9] = ["5", "2", "1", "9", "3", "7", "8", "4", "6"];

fn key(app: &mut App, code: KeyCode) -> Vec<ClientMessage> {
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        code,
        KeyModifiers::NONE,
    ))))
}

fn finished(side: Option<Side>, size: (u16, u16)) -> App {
    app_with(state(GameKind::TicTacToe, None, &DRAWN, side), size)
}

fn is_computing(app: &App) -> bool {
    matches!(app.review_screen, Some(ReviewScreen::Computing(_)))
}

#[test]
fn v_at_game_over_opens_the_review_board_with_its_marks_at_every_size() {
    for size in [(120, 40), (80, 24), (60, 20)] {
        let mut app = finished(Some(Side::First), size);
        assert_eq!(app.place(), Place::GameOver);
        let screen = render(&app);
        assert!(screen.contains("v: review board"), "{size:?}:\n{screen}");

        assert!(key(&mut app, KeyCode::Char('v')).is_empty());
        assert!(is_computing(&app), "{size:?}: the review runs");
        assert_eq!(app.place(), Place::ReviewBoard);
        let screen = render(&app);
        assert!(screen.contains("reviewing: "), "{size:?}:\n{screen}");
        assert!(screen.contains("Esc or q stops"), "{size:?}:\n{screen}");

        app.wait_for_review();
        assert!(
            matches!(app.review_screen, Some(ReviewScreen::Shown(_))),
            "{size:?}: {}",
            app.status
        );
        key(&mut app, KeyCode::Char('m'));
        let screen = render(&app);
        assert!(
            screen.contains("2. O played 2 ?? (blunder); best"),
            "{size:?}:\n{screen}"
        );
        assert!(screen.contains("O: 0?! 0? 1??"), "{size:?}:\n{screen}");
        assert!(screen.contains("evaluation"), "{size:?}:\n{screen}");
        // A step key steps, as in `kingme review`.
        key(&mut app, KeyCode::Right);
        let screen = render(&app);
        assert!(screen.contains("3. X played 1"), "{size:?}:\n{screen}");

        // Esc goes back to the game, the dialog closed.
        key(&mut app, KeyCode::Esc);
        assert!(app.review_screen.is_none());
        assert_eq!(app.place(), Place::Game);
        assert_eq!(app.screen, Screen::Game);
        assert!(
            app.status.starts_with("back from the review board"),
            "{}",
            app.status
        );
        let screen = render(&app);
        assert!(!screen.contains("evaluation"), "{size:?}:\n{screen}");
        assert!(!app.quit);
    }
}

#[test]
fn a_watched_finished_game_offers_v_on_its_screen_and_q_goes_back() {
    let mut app = finished(None, (80, 24));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.place(), Place::Game);
    assert!(keys::footer(&app, 1000).contains("v review board"));
    key(&mut app, KeyCode::Char('v'));
    app.wait_for_review();
    let screen = render(&app);
    assert!(screen.contains("X: 0?! 0? 1??"), "{screen}");
    // q leaves the review board, not the client.
    key(&mut app, KeyCode::Char('q'));
    assert!(app.review_screen.is_none());
    assert!(!app.quit);
    assert_eq!(app.place(), Place::Game);
}

#[test]
fn a_game_in_progress_offers_no_review_board() {
    let mut app = app_with(
        state(GameKind::TicTacToe, None, &DRAWN[..4], Some(Side::First)),
        (120, 40),
    );
    assert_eq!(app.place(), Place::Game);
    let footer = keys::footer(&app, 1000);
    assert!(!footer.contains("v review"), "{footer}");
    assert!(key(&mut app, KeyCode::Char('v')).is_empty());
    assert!(app.review_screen.is_none());
    assert!(!render(&app).contains("reviewing"));
}

#[test]
fn esc_while_the_review_runs_stops_it_and_goes_back() {
    let mut app = finished(Some(Side::First), (80, 24));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('v'));
    assert!(is_computing(&app));
    key(&mut app, KeyCode::Esc);
    assert!(app.review_screen.is_none());
    assert_eq!(app.status, "review stopped");
    assert_eq!(app.place(), Place::Game);
    // Ticks after it change nothing.
    app.update(Event::Tick);
    assert!(app.review_screen.is_none());
}

#[test]
fn clicks_on_the_review_board_do_not_reach_the_game_behind_it() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = finished(Some(Side::First), (80, 24));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('v'));
    app.wait_for_review();
    let (cursor, status) = (app.table.as_ref().unwrap().cursor, app.status.clone());
    // Every cell of the game's board, clicked where the review board is drawn.
    for (column, row) in [(3, 2), (10, 3), (17, 8), (24, 12), (30, 15), (6, 14)] {
        for kind in [
            MouseEventKind::Down(MouseButton::Left),
            MouseEventKind::Up(MouseButton::Left),
        ] {
            app.update(Event::Terminal(TerminalEvent::Mouse(MouseEvent {
                kind,
                column,
                row,
                modifiers: KeyModifiers::NONE,
            })));
        }
    }
    assert_eq!(app.table.as_ref().unwrap().cursor, cursor);
    assert_eq!(app.status, status);
    assert!(matches!(app.review_screen, Some(ReviewScreen::Shown(_))));
}

/// Whether the first board drawn on `screen` has its columns lettered h to a (seen from the
/// second side), from its line of column letters; `None` if no such line.
fn columns_flipped(screen: &str) -> Option<bool> {
    let letters: Vec<&str> = ["a", "b", "c", "d", "e", "f", "g", "h"].to_vec();
    screen.lines().find_map(|line| {
        let board_part = line.split(['│', '┌', '└']).next().unwrap_or(line);
        let tokens: Vec<&str> = board_part.split_whitespace().collect();
        let mut reversed = letters.clone();
        reversed.reverse();
        if tokens == letters {
            Some(false)
        } else if tokens == reversed {
            Some(true)
        } else {
            None
        }
    })
}

#[test]
fn the_review_board_shows_the_board_the_way_round_the_game_screen_does() {
    // Black takes White's last man: the game is over at once.
    let mut seen = Vec::new();
    for side in [Side::First, Side::Second] {
        let over = state(
            GameKind::Checkers,
            Some("B:W18:B14"),
            &["14x23"],
            Some(side),
        );
        let mut app = app_with(over, (120, 40));
        let game_screen = render(&app);
        let game_flipped = columns_flipped(&game_screen).expect("the game screen's letters");
        key(&mut app, KeyCode::Char('v'));
        app.wait_for_review();
        let review = render(&app);
        assert!(review.contains("evaluation"), "{review}");
        assert_eq!(
            columns_flipped(&review),
            Some(game_flipped),
            "{side:?}: the game screen:\n{game_screen}\nthe review board:\n{review}"
        );
        seen.push(game_flipped);
    }
    // One side sees the board each way round.
    assert_eq!(
        seen.iter().filter(|flipped| **flipped).count(),
        1,
        "{seen:?}"
    );
}
