//! The starting positions the engine tools play pairs of games from, one pair (a game with each
//! colour) a position: checkers' three-move ballots in order, and for Pente and noughts and
//! crosses seeded random openings. The ladder and the engine match both use them.

use super::ballots;
use kingme_shared::{AnyGame, GameKind};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// The starting positions of `games` games, a pair of games (one with each colour) from each:
/// game `index` starts from `openings[index / 2]`.
pub(super) fn openings(kind: GameKind, games: u32, seed: u64) -> anyhow::Result<Vec<AnyGame>> {
    let count = games.div_ceil(2) as usize;
    if kind == GameKind::Checkers {
        let ballots = ballots::playable()?;
        return Ok((0..count)
            .map(|i| ballots[i % ballots.len()].game.clone())
            .collect());
    }
    // Pente: the centre stone and a second stone where the tournament rule allows; noughts and
    // crosses: one random first move.
    let mut rng = StdRng::seed_from_u64(seed);
    let plies = if kind == GameKind::Pente { 2 } else { 1 };
    let mut starts = Vec::with_capacity(count);
    for _ in 0..count {
        let mut game = AnyGame::start(kind);
        for _ in 0..plies {
            let moves = game.legal_moves();
            let Some(mv) = moves.choose(&mut rng) else {
                break;
            };
            game.play(mv)?;
        }
        starts.push(game);
    }
    Ok(starts)
}
