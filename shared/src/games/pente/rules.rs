//! Which variant of Pente a game plays, and the opening restrictions that follow from it.
//!
//! Everything after the opening is the same in every variant (captures, five in a row, five
//! pairs); what differs is where the first player may put its first two stones. Keeping those
//! checks here lets move generation, move parsing and the AI ask one question: may this point be
//! played now?

use super::point::Point;

/// How far from the centre the first player's second stone must be under the tournament rule.
pub const TOURNAMENT_DISTANCE: u8 = 3;

/// The per-game rule switches. `Default` is pente.org's: the tournament rule on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PenteRules {
    /// The first player's second stone must be at least [`TOURNAMENT_DISTANCE`] points from the
    /// centre (outside the 5x5 block around K10).
    pub tournament: bool,
}

impl Default for PenteRules {
    fn default() -> Self {
        PenteRules::TOURNAMENT
    }
}

impl PenteRules {
    /// The tournament rule on: pente.org's default.
    pub const TOURNAMENT: PenteRules = PenteRules { tournament: true };

    /// Free play: only the opening on K10 is prescribed.
    pub const FREE: PenteRules = PenteRules { tournament: false };
}

/// Where the first player stands in its opening, which decides what it may play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// The first player's first stone: only the centre.
    FirstStone,
    /// The first player's second stone under the tournament rule: not near the centre.
    TournamentSecondStone,
    /// No restriction beyond an empty point.
    Free,
}

impl Opening {
    /// The opening restriction when `stones_placed` stones have been placed by the first player
    /// and it is the first player's turn (`first_to_move`).
    #[must_use]
    pub fn of(rules: PenteRules, first_to_move: bool, stones_placed: u16) -> Opening {
        match (first_to_move, stones_placed) {
            (true, 0) => Opening::FirstStone,
            (true, 1) if rules.tournament => Opening::TournamentSecondStone,
            _ => Opening::Free,
        }
    }

    /// Whether the restriction allows an (empty) point.
    #[must_use]
    pub fn allows(self, point: Point) -> bool {
        match self {
            Opening::FirstStone => point == Point::CENTRE,
            Opening::TournamentSecondStone => point.distance(Point::CENTRE) >= TOURNAMENT_DISTANCE,
            Opening::Free => true,
        }
    }

    /// Why a point is not allowed, for an error message.
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            Opening::FirstStone => "the first player must open on the centre, K10",
            Opening::TournamentSecondStone => {
                "tournament rule: the first player's second stone must be at least 3 points from \
                 K10 (outside the 5x5 block around it)"
            }
            Opening::Free => "",
        }
    }
}
