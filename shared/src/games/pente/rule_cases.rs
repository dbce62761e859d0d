//! The rules of Pente as one-line cases: a start position, the moves played, and the position
//! and outcome that must follow (or the error the last move must get). Also the reference game
//! from pente.org's rules engine, replayed from `shared/data/pente-games.txt`.

use super::{Pente, PenteRules, Point};
use crate::game::{Game, Outcome};
use crate::{AnyGame, GameKind};

/// The reference games: records of a `moves:` line and an `expect:` line.
const REFERENCE_GAMES: &str = include_str!("../../../data/pente-games.txt");

/// The outcome in words, as the cases and the reference file write it.
fn outcome_text(outcome: Option<Outcome>) -> String {
    match outcome {
        None => "-".to_owned(),
        Some(Outcome::Win { winner, reason }) => {
            format!("{} wins: {reason}", Pente::side_name(winner))
        }
        Some(Outcome::Draw { reason }) => format!("draw: {reason}"),
    }
}

/// Plays space-separated moves from a position text (`start` for the empty board) and returns
/// the position text and outcome after them, or the first error.
fn play(start: &str, moves: &str, rules: PenteRules) -> String {
    let mut game = if start == "start" {
        Pente::with_rules(rules)
    } else {
        match Pente::from_position_text_with_rules(start, rules) {
            Ok(game) => game,
            Err(err) => return format!("error: {err}"),
        }
    };
    for text in moves.split_whitespace() {
        let before = game.clone();
        let result = game.parse_move(text).and_then(|mv| game.play(&mv));
        if let Err(err) = result {
            assert_eq!(game, before, "a refused move changed the game");
            return format!("error: {err}");
        }
    }
    format!("{} {}", game.position_text(), outcome_text(game.outcome()))
}

/// Runs a case under the tournament rule: `expected` is the whole result, or for an error
/// `error: ` and a part of its message.
fn check(start: &str, moves: &str, expected: &str) {
    check_with(PenteRules::TOURNAMENT, start, moves, expected);
}

fn check_with(rules: PenteRules, start: &str, moves: &str, expected: &str) {
    let got = play(start, moves, rules);
    if let Some(message) = expected.strip_prefix("error: ") {
        assert!(
            got.starts_with("error: ") && got.contains(message),
            "{start} + {moves}:\n  got  {got}\n  want {expected}"
        );
    } else {
        assert_eq!(got, expected, "{start} + {moves}");
    }
}

/// A full board with no five and no capture for the stone placed last: rows of three alike,
/// shifted by three each row. `empty` is left free; `side` is the side to move.
fn full_board(side: char, empty: &str) -> String {
    let owner = |p: Point| (usize::from(p.column()) + 3 * usize::from(p.row())) % 6 < 3;
    let points = |first: bool| {
        Point::all()
            .filter(|&p| owner(p) == first && p.to_string() != empty)
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("{side}:{}:{}:0,0", points(true), points(false))
}

#[test]
fn the_opening_and_the_tournament_rule() {
    check("start", "K10", "2:K10::0,0 -");
    check(
        "start",
        "A1",
        "error: the first player must open on the centre, K10",
    );
    check("start", "K10 L10 K13", "2:K10,K13:L10:0,0 -");
    check("start", "K10 L10 N13", "2:K10,N13:L10:0,0 -");
    check("start", "K10 L10 M12", "error: at least 3 points from K10");
    check("start", "K10 L10 A1 J12", "1:A1,K10:L10,J12:0,0 -");
    check_with(
        PenteRules::FREE,
        "start",
        "K10 L10 J12",
        "2:K10,J12:L10:0,0 -",
    );
    check(
        "start",
        "K10 K10",
        "error: \"K10\" is not a legal move here: K10 is taken; legal moves: any empty point",
    );
    check(
        "start",
        "K10 L10 J12",
        "error: \"J12\" is not a legal move here: tournament rule: the first player's second \
         stone must be at least 3 points from K10 (outside the 5x5 block around it); legal \
         moves: any empty point at least 3 rows or columns from K10",
    );
}

#[test]
fn captures() {
    // A single capture: N10 flanks L10 and M10 with K10.
    check("start", "K10 L10 A1 M10 N10", "2:A1,K10,N10::2,0 -");
    // Two pairs at once, in two directions.
    check(
        "1:N10,K13,A1:L10,M10,K11,K12:0,0",
        "K10",
        "2:A1,K10,N10,K13::4,0 -",
    );
    // Both senses of one line at once.
    check(
        "1:H10,O10,A1:J10,K10,M10,N10:0,0",
        "L10",
        "2:A1,H10,L10,O10::4,0 -",
    );
    // Three stones are never captured.
    check(
        "1:K10,A1:L10,M10,N10:0,0",
        "O10",
        "2:A1,K10,O10:L10,M10,N10:0,0 -",
    );
    // Placing into a flanked gap is safe: only the stone just placed captures.
    check("2:K10,N10,A1:L10:0,0", "M10", "1:A1,K10,N10:L10,M10:0,0 -");
    // A capture at the edge of the board, along a diagonal.
    check("1:K10,A1:B2,C3:0,0", "D4", "2:A1,D4,K10::2,0 -");
    // A freed point can be played again.
    check("start", "K10 L10 A1 M10 N10 L10", "1:A1,K10,N10:L10:2,0 -");
}

#[test]
fn wins_and_draws() {
    // Five in a row.
    check(
        "1:K10,L10,M10,N10:A1,A3,A5,A7:0,0",
        "O10",
        "2:K10,L10,M10,N10,O10:A1,A3,A5,A7:0,0 first player wins: five in a row",
    );
    // An overline (six) wins too.
    check(
        "1:K10,L10,M10,O10,P10:A1,A3,A5,A7,A9:0,0",
        "N10",
        "2:K10,L10,M10,N10,O10,P10:A1,A3,A5,A7,A9:0,0 first player wins: five in a row",
    );
    // The fifth pair captured wins.
    check(
        "1:K10,A1:L10,M10:8,0",
        "N10",
        "2:A1,K10,N10::10,0 first player wins: five pairs captured",
    );
    check(
        "2:K10,L10,A1:A2,J10:0,8",
        "M10",
        "1:A1:A2,J10,M10:0,10 second player wins: five pairs captured",
    );
    // A five ends the game at once, although L12 would capture L10 and L11 out of it.
    check(
        "1:K10,L10,M10,N10,L11:L9,A1,A3,A5:0,0",
        "O10",
        "2:K10,L10,M10,N10,O10,L11:A1,A3,A5,L9:0,0 first player wins: five in a row",
    );
    check(
        "1:K10,L10,M10,N10,L11:L9,A1,A3,A5:0,0",
        "O10 L12",
        "error: the game is over",
    );
    // The last point filled with no five and no capture.
    check(
        &full_board('1', "A1"),
        "A1",
        &format!("{} draw: the board is full", full_board('2', "")),
    );
}

#[test]
fn the_reference_game_replays_to_its_recorded_result() {
    let mut records = 0;
    let mut lines = REFERENCE_GAMES
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty());
    while let Some(moves) = lines.next() {
        let moves = moves
            .strip_prefix("moves:")
            .expect("a record starts with moves:");
        let expected = lines
            .next()
            .and_then(|line| line.strip_prefix("expect:"))
            .expect("a record goes on with expect:");
        let mut game = Pente::start();
        for (number, text) in moves.split_whitespace().enumerate() {
            let mv = game
                .parse_move(text)
                .unwrap_or_else(|err| panic!("move {} {text}: {err}", number + 1));
            let removed = game.move_effect(&mv).removed.len() as u16;
            let before = game.captured_by(game.side_to_move());
            let mover = game.side_to_move();
            game.play(&mv).expect("a parsed move plays");
            assert_eq!(game.captured_by(mover), before + removed, "move {text}");
        }
        let status = match game.outcome() {
            None => "game goes on".to_owned(),
            Some(Outcome::Win { winner, reason }) => {
                format!("game over; winner {} ({reason})", Pente::side_name(winner))
            }
            Some(Outcome::Draw { reason }) => format!("game over; draw ({reason})"),
        };
        let got = format!(
            "stones captured by first player {}, by second player {}; {status}",
            game.captured_by(crate::Side::First),
            game.captured_by(crate::Side::Second)
        );
        assert_eq!(got, expected.trim());
        records += 1;
    }
    assert!(records > 0, "no reference games read");
}

#[test]
fn any_game_plays_pente_with_the_tournament_rule_unless_switched_off() {
    let mut game = AnyGame::start(GameKind::Pente);
    for text in ["K10", "L10"] {
        game.play_text(text).expect(text);
    }
    assert!(game.play_text("J12").is_err());
    assert!(game.play_text("K13").is_ok());

    let mut free = AnyGame::Pente(Pente::with_rules(PenteRules::FREE));
    for text in ["K10", "L10", "J12"] {
        free.play_text(text).expect(text);
    }
    let (text, effect) = free.play_text("10 12").expect("numeric input");
    assert_eq!(text, "M10");
    assert_eq!(effect.path, [9 * 19 + 11]);

    let setup = Pente::from_position_text_with_rules("1:K10,A1:L10,M10:0,0", PenteRules::FREE)
        .map(AnyGame::Pente)
        .expect("a setup");
    let mut setup = setup;
    let (_, effect) = setup.play_text("n10").expect("a capture");
    assert_eq!(effect.removed, [9 * 19 + 11, 9 * 19 + 10]);
}
