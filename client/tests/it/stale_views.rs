//! Issue 32, defect 10 (the terminal's part): the lobby's countdown of an absent player runs as
//! time passes, a finished game's seats lose their "(disconnected)" tags, and a spectator is not
//! offered the players' answers (`a accepts, n declines`, `m: rematch`).

use crate::fixtures::{app_with, render, state};
use kingme_client::net::event::{Event, LinkEvent};
use kingme_client::tui::app::App;
use kingme_shared::protocol::{
    EndReason, GameId, GameResult, GameStatus, GameSummary, SeatHolder, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use std::time::{Duration, Instant};

fn away(name: &str, grace_left_ms: Option<u64>) -> SeatHolder {
    SeatHolder::Human {
        name: name.to_owned(),
        connected: false,
        grace_left_ms,
    }
}

fn summary(id: u64, seats: [SeatHolder; 2], status: GameStatus) -> GameSummary {
    GameSummary {
        id: GameId(id),
        spec: GameKind::Checkers.into(),
        seats,
        time_control: TimeControl::Unlimited,
        moves: 12,
        status,
        spectators: 0,
    }
}

/// An app in the lobby at `now` that has received `games`.
fn lobby(now: Instant, games: Vec<GameSummary>) -> App {
    let mut app = App::new("ada", (110, 12), now);
    app.update(Event::Link(LinkEvent::Connected { resumed: false }));
    app.update(Event::Server(ServerMessage::GameList { games }));
    app
}

#[test]
fn the_lobby_counts_down_an_absent_players_time_to_return() {
    let start = Instant::now();
    let playing = summary(
        1,
        [away("ann", Some(60_000)), SeatHolder::Empty],
        GameStatus::Playing,
    );
    let mut app = lobby(start, vec![playing]);
    let picture = render(&app);
    // The seat column is narrow: the text wraps after "ann disconnected:".
    assert!(picture.contains("ann disconnected:"), "{picture}");
    assert!(picture.contains("1:00 to return"), "{picture}");
    // Fifteen seconds later (a tick sets the time the screen shows), with no new list.
    app.now = start + Duration::from_secs(15);
    let picture = render(&app);
    assert!(picture.contains("0:45 to return"), "{picture}");
    assert!(!picture.contains("1:00"), "{picture}");
}

#[test]
fn a_finished_game_in_the_lobby_has_no_disconnected_tags() {
    let over = GameStatus::Over(GameResult {
        winner: Some(Side::Second),
        reason: EndReason::Resignation,
    });
    let finished = summary(1, [away("ann", None), away("bob", Some(30_000))], over);
    let picture = render(&lobby(Instant::now(), vec![finished]));
    assert!(
        picture.contains("ann") && picture.contains("bob"),
        "{picture}"
    );
    assert!(!picture.contains("disconnected"), "{picture}");
    assert!(!picture.contains("to return"), "{picture}");
    // A game going on still says who is away.
    let playing = summary(
        2,
        [away("cat", None), SeatHolder::Empty],
        GameStatus::Playing,
    );
    let picture = render(&lobby(Instant::now(), vec![playing]));
    assert!(picture.contains("(disconnected)"), "{picture}");
}

/// A spectator's app (no seat) on game 7, checkers, with a few moves played.
fn spectator() -> App {
    app_with(
        state(GameKind::Checkers, None, &["11-15", "23-19"], None),
        (80, 24),
    )
}

#[test]
fn a_spectator_is_told_of_offers_but_not_offered_the_answers() {
    let mut app = spectator();
    app.update(Event::Server(ServerMessage::DrawOffered {
        game: GameId(7),
        by: Side::First,
    }));
    assert!(app.status.contains("offers a draw"), "{}", app.status);
    assert!(!app.status.contains("accepts"), "{}", app.status);
    app.update(Event::Server(ServerMessage::TakebackRequested {
        game: GameId(7),
        by: Side::Second,
    }));
    assert!(app.status.contains("asks to take back"), "{}", app.status);
    assert!(!app.status.contains("accepts"), "{}", app.status);
    let picture = render(&app);
    assert!(!picture.contains("a accepts"), "{picture}");
}

#[test]
fn a_spectator_at_the_end_is_not_offered_a_rematch() {
    let mut app = spectator();
    app.update(Event::Server(crate::fixtures::first_resigns()));
    let picture = render(&app);
    assert!(picture.contains("Game over"), "{picture}");
    assert!(!picture.contains("rematch"), "{picture}");
    app.update(Event::Server(ServerMessage::RematchOffered {
        game: GameId(7),
        by: Side::First,
    }));
    assert!(app.status.contains("offers a rematch"), "{}", app.status);
    assert!(!app.status.contains("m accepts"), "{}", app.status);
}
