//! Move targets: each game's move-text parser, and the agreement of `legal_moves` with `play`.
//!
//! A game is first brought to some position by moves the bytes choose among the legal ones, so
//! the parsers are tried in the middle of games (captures pending, kings on the board, Pente
//! openings), not only at the start.

use super::script::Script;
use crate::games::pente::{Pente, PenteRules};
use crate::{AnyGame, AnyMove, GameKind};
use std::collections::HashSet;

/// Most plies a target plays; keeps each run short.
const MAX_PLIES: usize = 200;

/// Most legal moves of one position checked one by one (Pente has up to 361).
const MOVES_CHECKED: usize = 24;

/// A start position of `kind`, the Pente rules chosen by a byte.
fn start(kind: GameKind, script: &mut Script<'_>) -> AnyGame {
    match kind {
        GameKind::Pente if script.byte() % 2 == 1 => {
            AnyGame::Pente(Pente::with_rules(PenteRules::FREE))
        }
        _ => AnyGame::start(kind),
    }
}

/// Plays up to `plies` moves chosen by the bytes.
fn advance(game: &mut AnyGame, plies: usize, script: &mut Script<'_>) {
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return;
        }
        let mv = moves[script.choose(moves.len())];
        game.play(&mv).expect("a listed move is playable");
    }
}

/// The move text after a few chosen moves: if the parser accepts it, the move is one of the legal
/// moves and can be played; if not, playing the text changes nothing.
fn move_text(kind: GameKind, data: &[u8]) {
    let mut script = Script::new(data);
    let mut game = start(kind, &mut script);
    let plies = usize::from(script.byte() % 64);
    advance(&mut game, plies, &mut script);
    let text = script.rest_text();
    let legal = game.legal_moves();
    match game.parse_move(&text) {
        Ok(mv) => {
            assert!(
                legal.contains(&mv),
                "{text:?} was read as {mv:?}, not a legal move"
            );
            game.clone()
                .play(&mv)
                .expect("a move the parser accepts is playable");
        }
        Err(err) => {
            // The message is built for people; building it must not fail either.
            let _ = err.to_string();
            let mut copy = game.clone();
            assert!(copy.play_text(&text).is_err());
            assert_eq!(copy, game, "a refused move text changed the game");
        }
    }
}

/// Checkers move text (`11-15`, `15x24`, `11x18x25`) in the middle of a game.
pub fn checkers_move_text(data: &[u8]) {
    move_text(GameKind::Checkers, data);
}

/// Pente move text (`K10`, `10 10`) in the middle of a game.
pub fn pente_move_text(data: &[u8]) {
    move_text(GameKind::Pente, data);
}

/// Noughts-and-crosses move text (`5`, `b2`) in the middle of a game.
pub fn tictactoe_move_text(data: &[u8]) {
    move_text(GameKind::TicTacToe, data);
}

/// A game played by the bytes (the first picks the game), checking every position: the legal
/// moves are distinct, there are none exactly when the game is over, each one checked is playable
/// and passes the turn, its text reads back to it, and a move of an earlier position that is not
/// legal now is refused without any change.
pub fn legal_moves_play(data: &[u8]) {
    let mut script = Script::new(data);
    let kind = GameKind::ALL[usize::from(script.byte()) % GameKind::ALL.len()];
    let mut game = start(kind, &mut script);
    let mut earlier: Vec<AnyMove> = Vec::new();
    for _ in 0..MAX_PLIES {
        let moves = game.legal_moves();
        let distinct: HashSet<&AnyMove> = moves.iter().collect();
        assert_eq!(distinct.len(), moves.len(), "a move is listed twice");
        assert_eq!(
            moves.is_empty(),
            game.outcome().is_some(),
            "moves are listed exactly while the game goes on: {}",
            game.position_text()
        );
        let stride = moves.len().div_ceil(MOVES_CHECKED).max(1);
        for mv in moves.iter().step_by(stride) {
            let text = game.move_text(mv);
            assert_eq!(game.parse_move(&text).as_ref(), Ok(mv), "{text}");
            let mut after = game.clone();
            after.play(mv).expect("a listed move is playable");
            assert_ne!(after.side_to_move(), game.side_to_move(), "{text}");
        }
        if let Some(old) = earlier.get(script.choose(earlier.len()))
            && !moves.contains(old)
        {
            let mut copy = game.clone();
            assert!(copy.play(old).is_err(), "{old:?} is not legal here");
            assert_eq!(copy, game, "a refused move changed the game");
        }
        if moves.is_empty() || script.rest().is_empty() {
            return;
        }
        let mv = moves[script.choose(moves.len())];
        earlier.extend(moves.iter().step_by(stride).copied());
        game.play(&mv).expect("a listed move is playable");
    }
}
