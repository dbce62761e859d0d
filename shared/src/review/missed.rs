//! Pente's missed wins: the threat search, under a fixed budget of positions (so the review is
//! the same on every machine), looks for a win by fours and threes in the position before a
//! move; a win found whose first move was not played, by a move that did not keep the win
//! either, was missed.

use crate::AnyGame;
use crate::ai::pente_tss::{ThreatLimits, ThreatSearch};
use crate::game::Game;

/// The threat search of a review: as deep as the expert's own before it searches, and a
/// bounded number of positions.
const REVIEW_THREATS: ThreatLimits = ThreatLimits {
    threats: 6,
    threes: 2,
    nodes: 20_000,
};

/// The first move (in the game's notation) of a forced win by threats for the side to move
/// in a Pente position, if the threat search finds one; `None` for the other games.
#[must_use]
pub fn forced_win(game: &AnyGame) -> Option<String> {
    let AnyGame::Pente(pente) = game else {
        return None;
    };
    let win = ThreatSearch::new(REVIEW_THREATS, None).find(pente)?;
    Some(pente.move_text(&win.first))
}
