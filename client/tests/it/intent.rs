//! One meaning for what the player asks, in both modes: moves by number or text resolved
//! against the legal list, turns and spectators refused with reasons, and the draw key or line
//! that offers a draw or accepts the one offered.

use crate::fixtures::state;
use kingme_client::game::intent::{Intent, Refused, Request, resolve};
use kingme_client::game::table::Table;
use kingme_shared::protocol::{ClientMessage, GameId};
use kingme_shared::{GameKind, Side};
use std::time::Instant;

/// A table of `kind` at its start (or `position`), the player seated as `side` (none:
/// watching), and its legal moves in the server's order.
fn seated(kind: GameKind, position: Option<&str>, side: Option<Side>) -> (Table, Vec<String>) {
    let table = Table::from_state(&state(kind, position, &[], side), Instant::now()).unwrap();
    let legal = table.game.legal_move_texts();
    (table, legal)
}

fn move_text(intent: Intent, table: &Table, legal: &[String]) -> Result<String, String> {
    match resolve(intent, table, legal) {
        Ok(Request {
            message: ClientMessage::Move { text, .. },
            ..
        }) => Ok(text),
        Ok(other) => panic!("not a move: {other:?}"),
        Err(err) => Err(err.to_string()),
    }
}

fn number(n: usize) -> Intent {
    Intent::Move(n.to_string())
}

#[test]
fn moves_resolve_against_the_legal_list() {
    let (table, legal) = seated(GameKind::Checkers, None, Some(Side::First));
    assert_eq!(move_text(number(1), &table, &legal), Ok("9-13".to_owned()));
    let err = move_text(number(0), &table, &legal).expect_err("0");
    assert_eq!(err, "there is no move number 0: choose 1 to 7");
    let err = move_text(number(8), &table, &legal).expect_err("8");
    assert!(err.contains("choose 1 to 7"), "{err}");
    let err = move_text(Intent::Move("11-99".to_owned()), &table, &legal).expect_err("bad");
    assert!(err.contains("square 99"), "{err}");
    assert_eq!(
        move_text(Intent::Move("11-15".to_owned()), &table, &legal),
        Ok("11-15".to_owned())
    );
    // In noughts and crosses a number is the square itself.
    let (ttt, legal) = seated(GameKind::TicTacToe, Some("X--------"), Some(Side::Second));
    assert_eq!(move_text(number(5), &ttt, &legal), Ok("5".to_owned()));
    let err = move_text(number(1), &ttt, &legal).expect_err("taken");
    assert!(err.contains("square 1 is taken"), "{err}");
}

#[test]
fn only_the_player_to_move_plays() {
    let (table, legal) = seated(GameKind::Checkers, None, Some(Side::Second));
    let err = move_text(Intent::Move("11-15".to_owned()), &table, &legal).expect_err("turn");
    assert_eq!(err, "\"11-15\" not sent: it is not your turn");
    let (watching, legal) = seated(GameKind::Checkers, None, None);
    for intent in [number(1), Intent::Draw, Intent::Resign, Intent::Takeback] {
        assert_eq!(resolve(intent, &watching, &legal), Err(Refused::Watching));
    }
    // A spectator may still chat and leave.
    assert!(resolve(Intent::Chat("hello".to_owned()), &watching, &legal).is_ok());
    assert!(resolve(Intent::Leave, &watching, &legal).is_ok());
}

#[test]
fn draw_offers_or_accepts_and_answers_go_to_the_question_asked() {
    let (mut table, legal) = seated(GameKind::Checkers, None, Some(Side::First));
    let game = GameId(7);
    let message = |intent, table: &Table| resolve(intent, table, &legal).map(|r| r.message);
    assert_eq!(
        message(Intent::Draw, &table),
        Ok(ClientMessage::OfferDraw { game })
    );
    // One's own offer is not answered by oneself.
    table.draw_offer = Some(Side::First);
    assert_eq!(
        message(Intent::Draw, &table),
        Ok(ClientMessage::OfferDraw { game })
    );
    assert_eq!(
        message(Intent::Answer { accept: true }, &table),
        Err(Refused::NothingToAnswer)
    );
    table.draw_offer = Some(Side::Second);
    assert_eq!(
        message(Intent::Draw, &table),
        Ok(ClientMessage::AnswerDraw { game, accept: true })
    );
    table.draw_offer = None;
    table.takeback_request = Some(Side::Second);
    let answer = message(Intent::Answer { accept: false }, &table).unwrap();
    assert_eq!(
        answer,
        ClientMessage::AnswerTakeback {
            game,
            accept: false
        }
    );
    // Once answered, the question is no longer asked.
    table.sent(&answer);
    assert_eq!(table.takeback_request, None);
}

#[test]
fn an_empty_chat_line_is_not_sent() {
    let (table, legal) = seated(GameKind::Checkers, None, None);
    assert_eq!(
        resolve(Intent::Chat("  ".to_owned()), &table, &legal),
        Err(Refused::EmptyChat)
    );
}
