//! Plain mode's session driven by scripted server messages and typed lines: the board after
//! every move, the numbered moves and prompt, bad lines answered with a message and the prompt
//! again, and the end of the game ending the session.

#![allow(clippy::unwrap_used)]

mod common;

use common::state;
use kingme_client::event::{Event, LinkEvent};
use kingme_client::plain::{Session, Start};
use kingme_shared::protocol::{
    ClientMessage, ClockState, EndReason, GameId, GameOptions, GameResult, MoveRecord, Opponent,
    SeatChoice, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};

fn options() -> GameOptions {
    GameOptions {
        kind: GameKind::TicTacToe,
        seat: SeatChoice::Side(Side::First),
        opponent: Opponent::Bot(kingme_shared::ai::Level::Random),
        time_control: TimeControl::Unlimited,
        start_position: None,
        pente_tournament_rule: true,
        rated: false,
    }
}

fn text(session: &Session<Vec<u8>>) -> String {
    String::from_utf8(session.output().clone()).unwrap()
}

fn your_turn(legal: &[&str]) -> Event {
    Event::Server(ServerMessage::YourTurn {
        game: GameId(7),
        legal_moves: legal.iter().map(|m| (*m).to_owned()).collect(),
        clocks: ClockState {
            remaining_ms: [None, None],
            running: None,
        },
    })
}

#[test]
fn a_game_is_played_from_the_prompt() {
    let mut session = Session::new(Start::Create(Box::new(options())), false, Vec::new());
    let (sent, done) = session.event(Event::Link(LinkEvent::Connected { resumed: false }));
    assert_eq!(sent, vec![ClientMessage::CreateGame(options())]);
    assert!(!done && !session.wants_input());

    session.event(Event::Server(ServerMessage::State(state(
        GameKind::TicTacToe,
        None,
        &[],
        Some(Side::First),
    ))));
    session.event(your_turn(&["1", "2", "3", "4", "5", "6", "7", "8", "9"]));
    assert!(session.wants_input());
    let out = text(&session);
    assert!(out.contains(" 3  . . .  3"), "{out}");
    assert!(out.contains("legal moves: 1  2  3"), "{out}");
    assert!(out.ends_with("> "), "{out}");

    // Bad lines: a message and the prompt again, nothing sent.
    for bad in ["hello", "0", "join", &"9".repeat(100)] {
        let (sent, done) = session.line(bad);
        assert!(sent.is_empty() && !done, "{bad}");
        assert!(session.wants_input());
    }
    let out = text(&session);
    assert!(out.contains("error: expected a square 1-9"), "{out}");
    assert!(out.contains("error: join needs a game number"), "{out}");
    assert!(out.contains("a move is at most 64"), "{out}");

    let (sent, _) = session.line("5");
    assert_eq!(
        sent,
        vec![ClientMessage::Move {
            game: GameId(7),
            text: "5".to_owned()
        }]
    );
    assert!(!session.wants_input(), "no reading until the next turn");
    session.event(Event::Server(ServerMessage::MovePlayed {
        game: GameId(7),
        ply: 1,
        record: MoveRecord {
            side: Side::First,
            text: "5".to_owned(),
            path: vec![5],
            removed: vec![],
        },
        position: "----X----".to_owned(),
        side_to_move: Side::Second,
        clocks: ClockState {
            remaining_ms: [None, None],
            running: None,
        },
    }));
    assert!(text(&session).contains(" 2  . X .  2"));
    let (sent, done) = session.event(Event::Server(ServerMessage::GameOver {
        game: GameId(7),
        result: GameResult {
            winner: Some(Side::First),
            reason: EndReason::Resignation,
        },
    }));
    assert!(sent.is_empty() && done);
    assert!(text(&session).contains("X wins by resignation"));
    assert!(session.is_ok());
}

#[test]
fn a_refused_game_ends_with_failure() {
    let mut session = Session::new(Start::Create(Box::new(options())), false, Vec::new());
    session.event(Event::Link(LinkEvent::Connected { resumed: false }));
    let (_, done) = session.event(Event::Server(ServerMessage::Error {
        kind: kingme_shared::protocol::ErrorKind::InvalidOptions,
        message: "the start position is already over".to_owned(),
        fatal: false,
    }));
    assert!(done);
    assert!(!session.is_ok());
    assert!(text(&session).contains("error: the start position is already over"));
}

#[test]
fn quitting_and_end_of_input_keep_the_game_waiting() {
    let mut session = Session::new(Start::Create(Box::new(options())), false, Vec::new());
    session.event(Event::Server(ServerMessage::State(state(
        GameKind::Checkers,
        None,
        &[],
        Some(Side::First),
    ))));
    session.event(your_turn(&["9-13"]));
    // Closing the client is not resigning or leaving: the seat waits for the player's return.
    let (sent, done) = session.end_of_input();
    assert!(done);
    assert_eq!(sent, vec![]);
    let (sent, done) = session.line("quit");
    assert!(done);
    assert_eq!(sent, vec![]);
    assert!(text(&session).contains("the game waits for you"));
}
