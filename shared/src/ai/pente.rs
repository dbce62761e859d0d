//! Pente for the search. Until the pattern search lands every level plays a random legal move.

use super::classic::Request;
use super::search::Found;
use crate::game::Game;
use crate::games::pente::{Pente, Point};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// The move for a level: for now a random legal point.
pub fn choose(game: &Pente, _request: &Request<'_>, rng: &mut StdRng) -> Option<Found<Point>> {
    let best = *game.legal_moves().choose(rng)?;
    Some(Found {
        best,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![best],
        ties: vec![best],
    })
}
