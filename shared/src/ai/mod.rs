//! The AI: strategies for every game behind one interface, used alike by the server's built-in
//! bots and the client's bot mode.
//!
//! [`think`] takes a position, a [`Level`], [`Limits`] (depth, time, nodes and a stop flag that
//! another thread can raise) and a seed, and returns a [`Report`] with the chosen move and what the
//! search found. The same position, seed and depth limit give the same move.
//!
//! Files: `level` (the names), `strength` (what each level does in each game), `ladder` (their
//! measured ratings), `clock` (the clock a search reads) and `budget` (how much of the time a
//! move may take, by the position's sharpness), `egdb` (checkers endgame databases), `book` (the checkers opening book),
//! `search` (generic negamax, alpha-beta, iterative deepening), `texel` and `weights_file` (fitting
//! an evaluation's weights to game results, and keeping them as data),
//! `tt` and `zobrist` (the transposition table and checkers keys), `classic` (how each level
//! drives the search), and one file per game: `tictactoe` with `tictactoe_solver`, `checkers` with `checkers_eval`, and
//! `pente` with `pente_patterns`, `pente_eval` (the evaluation and its weights), `pente_beginner`, `pente_threats`, `pente_sharpness` (for the
//! time budget) and `pente_tss` (the threat search; and, for tests,
//! `pente_oracle`: facts from the rules alone).

pub mod book;
pub mod budget;
mod checkers;
pub mod checkers_eval;
mod classic;
pub mod clock;
pub mod egdb;
pub mod ladder;
pub mod level;
mod pente;
mod pente_beginner;
pub mod pente_eval;
#[cfg(test)]
mod pente_oracle;
mod pente_patterns;
mod pente_sharpness;
mod pente_threats;
pub(crate) mod pente_tss;
pub mod score;
pub mod search;
pub mod strength;
pub mod texel;
mod tictactoe;
mod tictactoe_solver;
mod tt;
pub mod weights_file;
mod zobrist;

pub use level::{Level, UnknownLevel};
pub use search::MATE;

use crate::any_game::{AnyGame, AnyMove};
use crate::game::Game;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use search::Found;
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

/// How far a search may go. Unset limits are the level's own defaults (the classic levels' fixed
/// depths; one second for `expert`).
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
    /// A checkers endgame database the expert may consult (exact scores in the search, and a
    /// won position converted); `None` to search without one.
    pub egdb: Option<Arc<egdb::Egdb>>,
    /// Keep the expert out of the opening book shipped with kingme (to measure what the book
    /// is worth); by default it plays the book's move wherever the position is in it.
    pub no_book: bool,
    /// The clock the time limit is read by (the system's by default).
    pub clock: clock::Clock,
    /// How the time budget bends to the position (the Pente expert reads it): by default more
    /// when it is sharp and less when quiet, never beyond twice `time` ([`budget::TimeUse`]).
    pub time_use: budget::TimeUse,
}

impl Limits {
    /// The limits of a search governed by time, for a position of this `sharpness`: the time
    /// budget (`default` when neither a time, a depth nor a node limit is set) bent by
    /// [`Limits::time_use`]. A search limited only by depth or nodes is left as it is.
    #[must_use]
    pub fn for_sharpness(&self, sharpness: budget::Sharpness, default: Duration) -> Limits {
        let base = match self.time {
            Some(time) => time,
            None if self.depth.is_none() && self.nodes.is_none() => default,
            None => return self.clone(),
        };
        Limits {
            time: Some(self.time_use.budget(base, sharpness)),
            ..self.clone()
        }
    }
}

/// Switches for engine tools, beyond what bots use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThinkOptions {
    /// Search without alpha-beta pruning (plain minimax) to a fixed depth, to show how many more
    /// nodes that takes; the chosen move's score is the same. Cold: the level's temperature is
    /// not used.
    pub minimax: bool,
    /// Search exactly the depth limit with alpha-beta, as the classic levels do, even for
    /// `expert`, and cold (the level's temperature is not used): the other half of a minimax
    /// comparison.
    pub fixed_depth: bool,
    /// Pente: search as before the threat search (issue 18): only a win in two at the root, no
    /// threat search at the leaves, no capture threats in the evaluation. For measuring what the
    /// threat search gains (`kingme match --b-without-threats`).
    pub without_threats: bool,
    /// Checkers: the expert's contempt for draws, in percent of its root evaluation, instead
    /// of its own (`CONTEMPT_PERCENT` in `ai/checkers.rs`), to tune it by matches (`kingme match
    /// --a-contempt`).
    pub contempt: Option<i32>,
    /// Checkers: the expert evaluates with these weights instead of the shipped ones (the
    /// hand-set weights the tuning replaced, or a file `kingme tune` wrote), to measure one
    /// against the other (`kingme match --b-weights`).
    pub checkers_weights: Option<&'static checkers_eval::Weights>,
    /// Pente: the expert evaluates with these weights instead of the shipped ones (the hand-set
    /// weights, or a file `kingme tune --game pente` wrote), for the tuning's games and to
    /// measure one against the other.
    pub pente_weights: Option<&'static pente_eval::Weights>,
}

/// What a search chose and found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The chosen move; always legal in the position searched.
    pub best: AnyMove,
    /// Its text in the game's notation.
    pub text: String,
    /// The score from the mover's point of view (game-specific scale; wins are near [`MATE`]).
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
    think_with(game, level, limits, seed, &ThinkOptions::default())
}

/// [`think`] with engine-tool options.
#[must_use]
pub fn think_with(
    game: &AnyGame,
    level: Level,
    limits: &Limits,
    seed: u64,
    options: &ThinkOptions,
) -> Option<Report> {
    let started = limits.clock.now();
    let mut rng = StdRng::seed_from_u64(seed);
    let request = classic::Request {
        kind: game.kind(),
        level,
        limits,
        options: *options,
        started,
    };
    match game {
        AnyGame::Checkers(g) => decide(
            g,
            AnyMove::Checkers,
            level,
            started,
            limits.clock,
            &mut rng,
            |rng| checkers::choose(g, &request, rng),
        ),
        AnyGame::Pente(g) => decide(
            g,
            AnyMove::Pente,
            level,
            started,
            limits.clock,
            &mut rng,
            |rng| pente::choose(g, &request, rng),
        ),
        AnyGame::TicTacToe(g) => decide(
            g,
            AnyMove::TicTacToe,
            level,
            started,
            limits.clock,
            &mut rng,
            |rng| tictactoe::choose(g, &request, rng),
        ),
    }
}

/// The part every game shares: no move means no answer, `random` and a single legal move need no
/// search, and whatever a search returns is checked against the legal moves before it is used.
fn decide<G: Game>(
    game: &G,
    wrap: fn(G::Move) -> AnyMove,
    level: Level,
    started: Instant,
    clock: clock::Clock,
    rng: &mut StdRng,
    search: impl FnOnce(&mut StdRng) -> Option<Found<G::Move>>,
) -> Option<Report> {
    let legal = game.legal_moves();
    let &first = legal.first()?;
    let answer_now = |best: G::Move| Found {
        best,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![best],
        ties: vec![best],
    };
    let found = if level == Level::Random {
        answer_now(*legal.choose(rng)?)
    } else if legal.len() == 1 {
        answer_now(first)
    } else {
        match search(rng) {
            Some(found) if legal.contains(&found.best) => found,
            // Stopped before any move was scored: the first legal move is still a legal answer.
            Some(found) => Found {
                nodes: found.nodes,
                ..answer_now(first)
            },
            None => answer_now(first),
        }
    };
    let mut replay = game.clone();
    let mut pv = Vec::with_capacity(found.pv.len());
    for mv in &found.pv {
        pv.push(replay.move_text(mv));
        if replay.play(mv).is_err() {
            pv.pop();
            break;
        }
    }
    Some(Report {
        best: wrap(found.best),
        text: game.move_text(&found.best),
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        pv,
        elapsed: clock.now().saturating_duration_since(started),
    })
}
