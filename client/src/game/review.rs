//! Looking back through a game while it goes on: the position after any number of the moves
//! played, rebuilt from the start position and the moves' texts through the rules. The game
//! screen draws it instead of the live position until the person returns to the live game.

use kingme_shared::AnyGame;
use kingme_shared::protocol::MoveRecord;

/// The position shown while reviewing.
#[derive(Debug, Clone)]
pub struct Review {
    /// How many moves have been played in the position shown.
    pub at: usize,
    /// The game at the position being looked at.
    pub game: AnyGame,
    /// The squares of the move that led to it (empty at the start).
    pub(crate) last_move: Vec<u16>,
}

impl Review {
    /// The position after the first `at` of `moves` from `start`.
    pub fn new(start: &AnyGame, moves: &[MoveRecord], at: usize) -> Result<Review, String> {
        let at = at.min(moves.len());
        let mut game = start.clone();
        for record in &moves[..at] {
            game.play_text(&record.text)
                .map_err(|err| format!("cannot replay {}: {err}", record.text))?;
        }
        Ok(Review {
            at,
            game,
            last_move: at
                .checked_sub(1)
                .map(|last| moves[last].path.clone())
                .unwrap_or_default(),
        })
    }

    /// Where the review stands, for the status line.
    #[must_use]
    pub(crate) fn caption(&self, moves: &[MoveRecord]) -> String {
        let total = moves.len();
        let place = match self.at.checked_sub(1) {
            None => format!("the start (0 of {total} moves)"),
            Some(last) => format!("move {} of {total}: {}", self.at, moves[last].text),
        };
        format!("reviewing {place}; ←→ or [ ] step, Esc back to the game")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;

    #[test]
    fn the_position_after_some_moves_is_rebuilt() {
        let start = AnyGame::start(GameKind::TicTacToe);
        let mut game = start.clone();
        let moves: Vec<MoveRecord> = ["5", "1", "9"]
            .iter()
            .map(|text| {
                let side = game.side_to_move();
                let (text, effect) = game.play_text(text).expect("legal");
                MoveRecord {
                    side,
                    text,
                    path: effect.path,
                    removed: effect.removed,
                }
            })
            .collect();
        let review = Review::new(&start, &moves, 2).expect("replayed");
        assert_eq!(review.game.position_text(), "O---X----");
        assert_eq!(review.last_move, moves[1].path);
        assert!(review.caption(&moves).contains("move 2 of 3: 1"));
        let review = Review::new(&start, &moves, 0).expect("start");
        assert_eq!(review.game, start);
        assert!(review.last_move.is_empty());
    }
}
