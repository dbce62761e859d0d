//! Position-text targets: the checkers FEN, the classic board file, and the Pente and
//! noughts-and-crosses position texts. Whatever a parser accepts must print back to a text that
//! reads to the same game, and its legal moves must be playable: a setup typed by a person is as
//! hostile as a network frame.

use super::script::Script;
use crate::game::{Game, PositionError};
use crate::games::checkers::{BoardFile, Checkers, fen, parse_fen};
use crate::games::pente::{Pente, PenteRules};
use crate::games::tictactoe::TicTacToe;

/// Most legal moves of one position played to check them.
const MOVES_CHECKED: usize = 24;

/// Reads `text` with `read`; if it is accepted, its printed form reads back to the same text,
/// legal moves and outcome, and a sample of its legal moves is playable.
fn round_trip<G: Game>(text: &str, read: impl Fn(&str) -> Result<G, PositionError>) {
    let game = match read(text) {
        Ok(game) => game,
        Err(err) => {
            let _ = err.to_string();
            return;
        }
    };
    let printed = game.position_text();
    let again =
        read(&printed).unwrap_or_else(|err| panic!("{text:?} printed as {printed:?}: {err}"));
    assert_eq!(again.position_text(), printed, "{text:?}");
    assert_eq!(again.legal_moves(), game.legal_moves(), "{text:?}");
    assert_eq!(again.outcome(), game.outcome(), "{text:?}");
    let moves = game.legal_moves();
    assert_eq!(moves.is_empty(), game.outcome().is_some(), "{text:?}");
    let stride = moves.len().div_ceil(MOVES_CHECKED).max(1);
    for mv in moves.iter().step_by(stride) {
        game.clone()
            .play(mv)
            .unwrap_or_else(|err| panic!("{text:?}: a listed move is refused: {err}"));
    }
}

/// The checkers FEN reader: an accepted FEN prints canonically and reads back to the same position.
pub fn checkers_fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(position) = parse_fen(&text) {
        assert_eq!(parse_fen(&fen(&position)), Ok(position), "{text:?}");
    }
    round_trip::<Checkers>(&text, Checkers::from_position_text);
}

/// The classic board file: an accepted file prints and reads back to the same position and time.
pub fn board_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match text.parse::<BoardFile>() {
        Ok(file) => {
            let printed = file.to_string();
            assert_eq!(
                printed.parse::<BoardFile>(),
                Ok(file),
                "{text:?} printed as {printed:?}"
            );
            round_trip::<Checkers>(&fen(&file.position), Checkers::from_position_text);
        }
        Err(err) => {
            let _ = err.to_string();
        }
    }
}

/// The Pente position text, under the rules the first byte picks.
pub fn pente_position(data: &[u8]) {
    let mut script = Script::new(data);
    let rules = if script.byte().is_multiple_of(2) {
        PenteRules::TOURNAMENT
    } else {
        PenteRules::FREE
    };
    let text = script.rest_text();
    round_trip::<Pente>(&text, |text| {
        Pente::from_position_text_with_rules(text, rules)
    });
}

/// The noughts-and-crosses position text.
pub fn tictactoe_position(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    round_trip::<TicTacToe>(&text, TicTacToe::from_position_text);
}
