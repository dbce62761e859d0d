//! Ratings in the full-screen client (issue 32, defect 2): a person's rating from the server's
//! leaderboard beside the name in the lobby and the game panel, a bot level's measured rating,
//! and at the end of a rated game the change it made, in the panel and the game-over dialog.

use crate::fixtures::render;
use crate::fixtures::{app_with, state, stopped_clocks};
use kingme_client::net::event::{Event, LinkEvent};
use kingme_client::tui::app::App;
use kingme_shared::ai::{Level, ladder};
use kingme_shared::protocol::{
    ClientMessage, EndReason, GameId, GameResult, GameStatus, GameSummary, LeaderboardEntry,
    SeatHolder, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};

fn entry(kind: GameKind, player: &str, rating: i32) -> LeaderboardEntry {
    LeaderboardEntry {
        kind,
        player: player.to_owned(),
        bot: false,
        rating,
        games: 3,
        wins: 1,
        draws: 1,
        losses: 1,
    }
}

fn leaderboard(entries: Vec<LeaderboardEntry>) -> Event {
    Event::Server(ServerMessage::Leaderboard { entries })
}

fn asks_for_ratings(sent: &[ClientMessage]) -> bool {
    sent.contains(&ClientMessage::Leaderboard { kind: None })
}

#[test]
fn the_lobby_writes_ratings_beside_people_and_bots() {
    let mut app = App::new("ada", (120, 40), std::time::Instant::now());
    let sent = app.update(Event::Link(LinkEvent::Connected { resumed: false }));
    assert!(asks_for_ratings(&sent), "{sent:?}");
    app.update(leaderboard(vec![
        entry(GameKind::Checkers, "bob", 1532),
        entry(GameKind::Pente, "bob", 1411),
    ]));
    let game = GameSummary {
        id: GameId(1),
        spec: GameKind::Checkers.into(),
        seats: [
            SeatHolder::Human {
                name: "bob".to_owned(),
                connected: true,
                grace_left_ms: None,
            },
            SeatHolder::Bot {
                level: Level::Intermediate,
            },
        ],
        time_control: TimeControl::Unlimited,
        moves: 4,
        status: GameStatus::Playing,
        spectators: 0,
    };
    app.update(Event::Server(ServerMessage::GameList { games: vec![game] }));
    let picture = render(&app);
    // The checkers rating, not the Pente one.
    assert!(picture.contains("bob 1532"), "{picture}");
    let bot = ladder::measured_rating(GameKind::Checkers, Level::Intermediate).unwrap();
    // The bot's seat wraps in its column: "bot intermediate" over its rating.
    assert!(picture.contains("bot intermediate"), "{picture}");
    assert!(picture.contains(&format!("({bot})")), "{picture}");
}

/// A rated game of ada's against a bot, one move each (so its end counts), on screen at
/// `size`, after the ratings were heard once (ada's first rated game: she is not on the list
/// yet).
fn rated_game(size: (u16, u16)) -> App {
    rated_game_after(&["11-15", "23-19"], size)
}

fn rated_game_after(moves: &[&str], size: (u16, u16)) -> App {
    let mut game = state(GameKind::Checkers, None, moves, Some(Side::Second));
    game.rated = true;
    let mut app = app_with(game, size);
    app.update(leaderboard(vec![entry(GameKind::Checkers, "bob", 1532)]));
    app
}

fn resigned(app: &mut App) -> Vec<ClientMessage> {
    app.update(Event::Server(ServerMessage::GameOver {
        game: GameId(7),
        clocks: stopped_clocks(),
        result: GameResult {
            winner: Some(Side::First),
            reason: EndReason::Resignation,
        },
    }))
}

#[test]
fn a_rated_game_shows_the_rating_in_the_panel_and_its_change_at_game_over() {
    let mut app = rated_game((120, 40));
    app.update(leaderboard(vec![
        entry(GameKind::Checkers, "bob", 1532),
        entry(GameKind::Checkers, "ada", 1500),
    ]));
    let picture = render(&app);
    assert!(picture.contains("ada 1500"), "{picture}");

    // The end asks for the list again; its change shows in the panel and the dialog.
    let sent = resigned(&mut app);
    assert!(asks_for_ratings(&sent), "{sent:?}");
    app.update(leaderboard(vec![
        entry(GameKind::Checkers, "bob", 1532),
        entry(GameKind::Checkers, "ada", 1468),
    ]));
    let picture = render(&app);
    assert!(
        picture.contains("    ada 1468 (−32)"),
        "the panel: {picture}"
    );
    assert!(
        picture.contains("Ratings: ada 1468 (−32)"),
        "the dialog: {picture}"
    );
}

#[test]
fn a_first_rated_game_counts_from_1500_and_shows_on_a_small_screen() {
    let mut app = rated_game((80, 24));
    resigned(&mut app);
    app.update(leaderboard(vec![
        entry(GameKind::Checkers, "bob", 1532),
        entry(GameKind::Checkers, "ada", 1484),
    ]));
    let picture = render(&app);
    assert!(picture.contains("Ratings: ada 1484 (−16)"), "{picture}");
}

#[test]
fn a_rated_game_ended_before_both_sides_moved_asks_for_none_and_says_so() {
    let mut app = rated_game_after(&["11-15"], (80, 24));
    let sent = resigned(&mut app);
    assert!(!asks_for_ratings(&sent), "{sent:?}");
    let picture = render(&app);
    assert!(
        picture.contains("Not rated: it ended before both sides moved."),
        "{picture}"
    );
    assert!(!picture.contains("Ratings:"), "{picture}");
}

#[test]
fn an_unrated_game_asks_for_no_ratings_and_shows_no_change() {
    let mut app = app_with(
        state(GameKind::Checkers, None, &["11-15"], Some(Side::Second)),
        (120, 40),
    );
    app.update(leaderboard(vec![entry(GameKind::Checkers, "ada", 1500)]));
    let sent = resigned(&mut app);
    assert!(!asks_for_ratings(&sent), "{sent:?}");
    let picture = render(&app);
    assert!(picture.contains("ada 1500"), "{picture}");
    assert!(!picture.contains("Ratings:"), "{picture}");
}

#[test]
fn the_panel_says_whether_the_game_is_rated() {
    for rated in [true, false] {
        let mut state = state(GameKind::Checkers, None, &[], Some(Side::First));
        state.rated = rated;
        let app = app_with(state, (120, 40));
        let picture = render(&app);
        let clock_line = picture
            .lines()
            .find(|line| line.contains("clock: "))
            .unwrap_or_default()
            .to_owned();
        let word = if rated { "rated" } else { "casual" };
        assert!(clock_line.contains(word), "{word}: {clock_line}");
    }
}
