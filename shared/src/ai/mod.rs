//! The AI: strategies for every game behind one interface, used alike by the server's built-in
//! bots and the client's bot mode.
//!
//! [`think`] takes a position, a [`Level`], [`Limits`] (depth, time, nodes and a stop flag that
//! another thread can raise) and a seed, and returns a [`Report`] with the chosen move and what the
//! search found. The same position, seed and depth limit give the same move.

pub mod level;

pub use level::{Level, UnknownLevel};

use crate::any_game::{AnyGame, AnyMove};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A flag another thread raises to end a search early; the search then answers with the best move
/// found so far. Cheap to clone: every clone shares the flag.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// Asks every search holding this flag to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How far a search may go. Unset limits are the level's own defaults.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// The deepest search, in plies.
    pub depth: Option<u32>,
    /// The time the search may use.
    pub time: Option<Duration>,
    /// The most nodes the search may visit.
    pub nodes: Option<u64>,
    /// Raised by another thread to stop at once.
    pub stop: StopFlag,
}

/// What a search chose and found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The chosen move; always legal in the position searched.
    pub best: AnyMove,
    /// Its text in the game's notation.
    pub text: String,
    /// The score from the mover's point of view (game-specific scale; wins are large).
    pub score: i32,
    /// The depth reached, in plies.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation, as move texts from this position.
    pub pv: Vec<String>,
    /// Time used.
    pub elapsed: Duration,
}

/// Chooses a move for the side to move, or `None` when there is no legal move (the game is over).
#[must_use]
pub fn think(game: &AnyGame, level: Level, limits: &Limits, seed: u64) -> Option<Report> {
    let started = Instant::now();
    let mut rng = StdRng::seed_from_u64(seed);
    let moves = game.legal_moves();
    // Every level falls back to a random move until its search is written; `limits` is for them.
    let _ = (level, limits);
    let best = *moves.choose(&mut rng)?;
    let text = game.move_text(&best);
    Some(Report {
        best,
        text: text.clone(),
        score: 0,
        depth: 1,
        nodes: moves.len() as u64,
        pv: vec![text],
        elapsed: started.elapsed(),
    })
}
