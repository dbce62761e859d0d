//! A finished game applied to both sides' ratings, in the store's transaction (the values and
//! the Elo arithmetic are in [`super::ratings`]).

use super::ratings::{Rated, Rating, RatingChange};
use super::records::Participant;
use super::store::{Store, StoreError};
use kingme_shared::domain::GameResult;
use kingme_shared::{GameKind, Side};

/// Applies a finished game of `plies` moves to both sides' ratings, if it counts: both seats
/// rated identities, the game rated, and [`GameResult::counts_for_rating`] (not aborted, both
/// sides moved). Returns the changes, first side first.
pub fn rate_game(
    store: &mut dyn Store,
    kind: GameKind,
    seats: &[Participant; 2],
    rated: bool,
    plies: usize,
    result: &GameResult,
) -> Result<Option<[RatingChange; 2]>, StoreError> {
    if !rated || !result.counts_for_rating(plies) {
        return Ok(None);
    }
    let (Some(first), Some(second)) = (Rated::of(&seats[0]), Rated::of(&seats[1])) else {
        return Ok(None);
    };
    store.lock_ratings(kind, &[first.clone(), second.clone()])?;
    let before = [
        store
            .rating(kind, &first)?
            .unwrap_or_else(|| Rating::seed(kind, &first)),
        store
            .rating(kind, &second)?
            .unwrap_or_else(|| Rating::seed(kind, &second)),
    ];
    let score = |side: Side| match result.winner {
        Some(winner) if winner == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let after = [
        before[0].after(before[1].rating, score(Side::First)),
        before[1].after(before[0].rating, score(Side::Second)),
    ];
    store.set_rating(kind, &first, &after[0])?;
    store.set_rating(kind, &second, &after[1])?;
    Ok(Some([
        RatingChange {
            who: first,
            before: before[0].rating,
            after: after[0].rating,
        },
        RatingChange {
            who: second,
            before: before[1].rating,
            after: after[1].rating,
        },
    ]))
}
