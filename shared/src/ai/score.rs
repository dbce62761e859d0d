//! The scores every search gives: a won game is [`MATE`] less the plies to it, so quicker wins
//! and slower losses are preferred, and anything beyond [`MATE_BOUND`] is a win or a loss, not an
//! evaluation. Below the search and the transposition table, which both speak it.

/// The score of a won game at the root; a win found `ply` plies deep scores `MATE - ply`, so
/// quicker wins and slower losses are preferred.
pub const MATE: i32 = 10_000;

/// Scores beyond this are wins or losses, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// A terminal score seen `ply` plies from the root: wins sooner and losses later score higher.
pub(crate) fn mate_at(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}
