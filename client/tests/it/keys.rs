//! The key table against the app in the situations a player meets: every key the footer names
//! applies now and does what the footer says (no earlier row takes it), and keys that do not
//! apply are not named.

use crate::fixtures::{app_with, state};
use kingme_client::net::event::Event;
use kingme_client::tui::app::App;
use kingme_client::tui::keys::{self, BINDINGS, Place, Situation};
use kingme_shared::protocol::{
    EndReason, GameId, GameResult, GameStatus, GameSummary, SeatHolder, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use ratatui::crossterm::event::{Event as TerminalEvent, KeyCode, KeyEvent, KeyModifiers};

fn key(app: &mut App, code: KeyCode) {
    app.update(Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        code,
        KeyModifiers::NONE,
    ))));
}

fn playing(moves: &[&str], side: Option<Side>) -> App {
    app_with(state(GameKind::Checkers, None, moves, side), (120, 40))
}

/// The situations: a name for each, and the app in it.
fn situations() -> Vec<(&'static str, App)> {
    let mut list = vec![
        ("my turn", playing(&[], Some(Side::First))),
        (
            "my turn after moves",
            playing(&["11-15", "23-19"], Some(Side::First)),
        ),
        ("their turn", playing(&["11-15"], Some(Side::First))),
        ("watching", playing(&["11-15"], None)),
    ];

    let mut reviewing = playing(&["11-15", "23-19"], Some(Side::First));
    key(&mut reviewing, KeyCode::Char('['));
    list.push(("reviewing", reviewing));

    let mut holding = playing(&[], Some(Side::First));
    let table = holding.table.as_mut().unwrap();
    table.cursor = table.geometry().cell_of(11).unwrap();
    key(&mut holding, KeyCode::Enter);
    assert!(!holding.table.as_ref().unwrap().selection.path().is_empty());
    list.push(("holding a piece", holding));

    let mut asked = playing(&["11-15"], Some(Side::First));
    asked.update(Event::Server(ServerMessage::DrawOffered {
        game: GameId(7),
        by: Side::Second,
    }));
    list.push(("a draw offered to me", asked));

    let mut over = playing(&[], Some(Side::First));
    over.update(Event::Server(ServerMessage::GameOver {
        game: GameId(7),
        clocks: crate::fixtures::stopped_clocks(),
        result: GameResult {
            winner: Some(Side::Second),
            reason: EndReason::Resignation,
        },
    }));
    key(&mut over, KeyCode::Esc);
    list.push(("after the game", over));

    let mut lobby = playing(&[], Some(Side::First));
    key(&mut lobby, KeyCode::Char('b'));
    lobby.update(Event::Server(ServerMessage::GameList {
        games: vec![GameSummary {
            id: GameId(9),
            spec: GameKind::Checkers.into(),
            seats: [SeatHolder::Empty, SeatHolder::Empty],
            time_control: TimeControl::Unlimited,
            moves: 0,
            status: GameStatus::Open,
            spectators: 0,
        }],
    }));
    list.push(("the lobby", lobby));
    list.push((
        "an empty lobby",
        App::new("ada", (80, 24), std::time::Instant::now()),
    ));
    list
}

#[test]
fn every_key_the_footer_names_applies_and_does_its_action() {
    for (situation, app) in situations() {
        let place = app.place();
        assert!(matches!(place, Place::Lobby | Place::Game), "{situation}");
        let footer = keys::footer(&app, 1000);
        for binding in BINDINGS
            .iter()
            .filter(|b| b.place == place || b.place == Place::Anywhere)
        {
            let Some(name) = binding.footer else { continue };
            let named = footer.split(" · ").any(|shown| shown == name);
            if binding.is_shown(&app) {
                assert!(named, "{situation}: {name:?} missing from {footer:?}");
                assert!(
                    (binding.applies)(&app),
                    "{situation}: {name:?} is shown but does not apply"
                );
                let works = binding
                    .codes()
                    .into_iter()
                    .any(|code| keys::action(&app, code) == Some(binding.action));
                assert!(
                    works,
                    "{situation}: {name:?} does not do {:?}",
                    binding.action
                );
            } else if !(binding.applies)(&app) {
                // A key named by another row of the same name may still be shown.
                let same_name_shown = BINDINGS
                    .iter()
                    .any(|b| b.footer == Some(name) && b.place == place && b.is_shown(&app));
                assert!(
                    !named || same_name_shown,
                    "{situation}: {name:?} is shown but does not apply: {footer:?}"
                );
            }
        }
    }
}

#[test]
fn the_situations_offer_what_a_player_expects() {
    let footers: Vec<(&str, String)> = situations()
        .into_iter()
        .map(|(name, app)| (name, keys::footer(&app, 1000)))
        .collect();
    let footer = |name: &str| &footers.iter().find(|(n, _)| *n == name).unwrap().1;
    assert!(footer("my turn after moves").contains("u undo"));
    assert!(footer("my turn after moves").contains("[ review"));
    assert!(footer("reviewing").contains("Esc live"));
    assert!(!footer("reviewing").contains("[ review"));
    assert!(footer("holding a piece").contains("Esc let go"));
    assert!(footer("a draw offered to me").contains("a/n answer"));
    assert!(!footer("their turn").contains("type a move"));
    assert!(footer("after the game").contains("m rematch"));
    assert!(footer("the lobby").contains("a add bot"));
    assert!(!footer("an empty lobby").contains("w watch"));
    assert!(!footer("watching").contains("r resign"));
}
