//! How each level drives the search, for any game, following its [`super::strength`] plan: the
//! fixed-depth levels search their depth and choose at random among the moves that share the best
//! minimax score, or among the near-best moves weighted by a temperature; `expert` deepens
//! iteratively under its time budget with every search feature switched on, and the levels below
//! it whose plans deepen (`master` in every game) do the same under a budget of nodes.

use super::level::Level;
use super::search::{DEFAULT_TIME, Found, MAX_PLY, SearchConfig, SearchGame, Searcher};
use super::strength::{Plan, plan};
use super::{Limits, ThinkOptions};
use crate::GameKind;
use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::time::Instant;

/// Everything a game's `choose` needs to know besides the position.
pub struct Request<'a> {
    pub kind: GameKind,
    pub level: Level,
    pub limits: &'a Limits,
    pub options: ThinkOptions,
    pub started: Instant,
}

impl Request<'_> {
    /// What the level does in this game ([`super::strength`]).
    #[must_use]
    pub fn plan(&self) -> Plan {
        plan(self.kind, self.level)
    }

    /// The depth of a fixed-depth level unless the limits say otherwise (the deepening levels'
    /// fixed depth, for plain-minimax comparisons, is 6).
    #[must_use]
    pub fn classic_depth(&self) -> u32 {
        let plan = self.plan();
        let own = if plan.deepens { 6 } else { plan.depth };
        self.limits.depth.unwrap_or(own).max(1)
    }

    /// How widely a fixed-depth level strays from the best move, in units of the game's
    /// [`SearchGame::temperature_unit`]: 0 for always a best move.
    #[must_use]
    pub fn temperature(&self) -> f64 {
        self.plan().temperature
    }

    /// Whether the level deepens iteratively (`expert`, and the levels whose plan gives them a
    /// node budget) rather than searching a fixed depth.
    #[must_use]
    pub fn deepens(&self) -> bool {
        self.plan().deepens
    }
}

/// Moves worse than the best by more than this many temperatures are never chosen, so a
/// temperature never throws away a won game or walks into a forced loss it has seen.
const TEMPERATURE_WINDOW: f64 = 3.0;

/// Searches every move to `depth` plies with the classic configuration (or plain minimax) and
/// picks one of the equally best at random, or a near-best one under the level's temperature. A
/// minimax comparison (`minimax` or `fixed_depth`) searches cold whatever the level's plan, so that
/// both halves choose among the same equally best moves.
pub fn classic<G: SearchGame>(
    game: &mut G,
    depth: u32,
    request: &Request<'_>,
    rng: &mut StdRng,
) -> Option<Found<G::Move>> {
    let config = SearchConfig {
        pruning: !request.options.minimax,
        ..SearchConfig::CLASSIC
    };
    let mut searcher = Searcher::new(config, request.limits, request.started);
    let temperature = request.temperature() * f64::from(game.temperature_unit());
    let cold = request.options.minimax || request.options.fixed_depth;
    if temperature > 0.0 && !cold {
        let scored = searcher.root_scores(game, depth);
        let (score, best) = pick_warm(&scored, temperature, rng)?;
        return Some(Found {
            best,
            score,
            depth,
            nodes: searcher.nodes(),
            pv: vec![best],
            ties: vec![best],
        });
    }
    let mut found = searcher.exact_root(game, depth)?;
    found.best = *found.ties.choose(rng)?;
    found.pv = vec![found.best];
    found.nodes = searcher.nodes();
    Some(found)
}

/// One of the scored moves within [`TEMPERATURE_WINDOW`] temperatures of the best, drawn with
/// weight `e^-(best - score) / temperature`; with its score.
fn pick_warm<M: Copy>(scored: &[(i32, M)], temperature: f64, rng: &mut StdRng) -> Option<(i32, M)> {
    let best = scored.iter().map(|&(score, _)| score).max()?;
    let weight = |score: i32| {
        let behind = f64::from(best - score) / temperature;
        if behind > TEMPERATURE_WINDOW {
            0.0
        } else {
            (-behind).exp()
        }
    };
    let total: f64 = scored.iter().map(|&(score, _)| weight(score)).sum();
    let mut draw = rng.random::<f64>() * total;
    for &(score, mv) in scored {
        draw -= weight(score);
        if draw < 0.0 && weight(score) > 0.0 {
            return Some((score, mv));
        }
    }
    scored.iter().copied().find(|&(score, _)| score == best)
}

/// The expert: iterative deepening with the transposition table (`2^table_bits` entries) and
/// extensions, under the limits or one second when none is set; a level whose plan has a node
/// budget (`skilled` to `master` in checkers, `strong` and `master` in Pente:
/// [`super::strength`]) the same under that budget, unless the limits set one. With `minimax`
/// or `fixed_depth` it searches the fixed depth like a classic level instead, so node counts
/// can be compared.
pub fn expert<G: SearchGame>(
    game: &mut G,
    table_bits: u32,
    request: &Request<'_>,
    rng: &mut StdRng,
) -> Option<Found<G::Move>> {
    if request.options.minimax || request.options.fixed_depth {
        return classic(game, request.classic_depth(), request, rng);
    }
    let mut limits = request.limits.clone();
    if limits.nodes.is_none() {
        limits.nodes = request.plan().nodes;
    }
    if limits.depth.is_none() && limits.time.is_none() && limits.nodes.is_none() {
        limits.time = Some(DEFAULT_TIME);
    }
    let config = SearchConfig {
        pruning: true,
        extensions: true,
        table_bits: Some(table_bits),
        // The expert's alone: the levels' node budgets were fitted to the ladder without them.
        reductions: request.level == Level::Expert,
    };
    let mut searcher = Searcher::new(config, &limits, request.started);
    searcher.iterate(game, limits.depth.unwrap_or(MAX_PLY as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{Report, StopFlag, think, think_with};
    use crate::{AnyGame, AnyMove, GameKind};
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    /// Positions reached by random play from the start of each game, some plies in.
    fn random_positions(kind: GameKind, count: usize, seed: u64) -> Vec<AnyGame> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut game = AnyGame::start(kind);
            let longest = match kind {
                GameKind::TicTacToe => 5,
                GameKind::Checkers | GameKind::Pente => 16,
            };
            let plies = rng.random_range(1..=longest);
            for _ in 0..plies {
                let Some(mv) = game.legal_moves().choose(&mut rng).copied() else {
                    break;
                };
                game.play(&mv).unwrap();
            }
            if game.outcome().is_none() {
                positions.push(game);
            }
        }
        positions
    }

    /// The cold fixed-depth search of a minimax comparison, whatever a level's plan says: the
    /// tests that compare with plain minimax or need a best move use it with an explicit depth,
    /// so the levels' plans can be tuned freely.
    const COLD: ThinkOptions = ThinkOptions {
        minimax: false,
        fixed_depth: true,
        without_threats: false,
        contempt: None,
        checkers_weights: None,
        pente_weights: None,
    };

    fn quick(level: Level) -> Limits {
        Limits {
            depth: (level == Level::Expert).then_some(3),
            ..Limits::default()
        }
    }

    #[test]
    fn a_temperature_strays_only_among_near_best_moves() {
        let scored = [
            (100, 'a'),
            (90, 'b'),
            (-200, 'c'),
            (-crate::ai::MATE + 3, 'd'),
        ];
        let mut rng = StdRng::seed_from_u64(5);
        let picks: Vec<char> = (0..400)
            .map(|_| pick_warm(&scored, 20.0, &mut rng).unwrap().1)
            .collect();
        // 'c' is fifteen temperatures behind and 'd' loses: never chosen.
        assert!(picks.iter().all(|&p| p == 'a' || p == 'b'), "{picks:?}");
        let a = picks.iter().filter(|&&p| p == 'a').count() as f64;
        // 'b' is half a temperature behind: weights 1 and e^-0.5, so 'a' about 62% of the time.
        assert!(
            (a / 400.0 - 1.0 / (1.0 + (-0.5f64).exp())).abs() < 0.08,
            "{a}"
        );
        // A cold choice is always the best.
        assert!((0..50).all(|_| pick_warm(&scored, 0.01, &mut rng).unwrap().1 == 'a'));
    }

    #[test]
    fn the_warm_levels_never_miss_a_win_in_one() {
        // X to move wins at C (top right); every other square scores far below a win.
        let game = AnyGame::from_position_text(GameKind::TicTacToe, "XX-OO----").unwrap();
        for level in [Level::Easy, Level::Casual] {
            for seed in 0..30 {
                let report = think(&game, level, &Limits::default(), seed).unwrap();
                let mut after = game.clone();
                after.play(&report.best).unwrap();
                assert!(
                    after.outcome().is_some(),
                    "{level} seed {seed}: {}",
                    report.text
                );
            }
        }
    }

    #[test]
    fn every_level_plays_only_legal_moves() {
        for kind in GameKind::ALL {
            for (index, game) in random_positions(kind, 6, 1).iter().enumerate() {
                for level in Level::ALL {
                    let report = think(game, level, &quick(level), index as u64).unwrap();
                    let legal = game.legal_moves();
                    assert!(legal.contains(&report.best), "{kind} {level}: {report:?}");
                    assert_eq!(report.text, game.move_text(&report.best));
                    let mut copy = game.clone();
                    assert!(copy.play(&report.best).is_ok());
                }
            }
        }
    }

    #[test]
    fn random_covers_every_legal_move() {
        for kind in GameKind::ALL {
            let game = &random_positions(kind, 1, 9)[0];
            let legal: HashSet<AnyMove> = game.legal_moves().into_iter().collect();
            let seen: HashSet<AnyMove> = (0..legal.len() as u64 * 40)
                .map(|seed| {
                    think(game, Level::Random, &Limits::default(), seed)
                        .unwrap()
                        .best
                })
                .collect();
            assert_eq!(seen, legal, "{kind}");
        }
    }

    #[test]
    fn a_cold_level_takes_the_biggest_capture() {
        // Black may take one man (2x11) or two (9x18x27... here 9x27): two it is.
        let game = AnyGame::from_position_text(GameKind::Checkers, "B:W7,14,23:B2,9").unwrap();
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        for &level in &Level::ALL[1..] {
            for seed in 0..10 {
                let report = think_with(&game, level, &limits, seed, &COLD).unwrap();
                assert_eq!(report.text, "9x27", "{level} seed {seed}");
            }
        }
    }

    #[test]
    fn a_seed_changes_the_choice_among_equal_moves() {
        // With X in the centre, O's four corners tie at one ply (each blocks three lines).
        let game = AnyGame::from_position_text(GameKind::TicTacToe, "----X----").unwrap();
        let choices: HashSet<String> = (0..40)
            .map(|seed| {
                think(&game, Level::Beginner, &Limits::default(), seed)
                    .unwrap()
                    .text
            })
            .collect();
        assert!(choices.len() > 1, "{choices:?}");
        // The same seed gives the same move.
        let again = |seed| {
            think(&game, Level::Advanced, &Limits::default(), seed)
                .unwrap()
                .best
        };
        assert_eq!(again(5), again(5));
        // The expert too, under a depth limit.
        let position = &random_positions(GameKind::Checkers, 1, 11)[0];
        let expert = |seed| {
            think(position, Level::Expert, &quick(Level::Expert), seed)
                .unwrap()
                .best
        };
        assert_eq!(expert(1), expert(1));
        // Checkers from the start: several first moves tie at one ply.
        let checkers = AnyGame::start(GameKind::Checkers);
        let firsts: HashSet<String> = (0..40)
            .map(|seed| {
                think(&checkers, Level::Beginner, &Limits::default(), seed)
                    .unwrap()
                    .text
            })
            .collect();
        assert!(firsts.len() > 1, "{firsts:?}");
    }

    #[test]
    fn alpha_beta_scores_equal_plain_minimax() {
        for kind in GameKind::ALL {
            let depth = if kind == GameKind::Pente { 2 } else { 4 };
            // Re-searches can cost a tiny tree a few nodes more; over many positions pruning wins.
            let (mut pruned_nodes, mut plain_nodes) = (0, 0);
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let plain_options = ThinkOptions {
                minimax: true,
                ..ThinkOptions::default()
            };
            for (index, game) in random_positions(kind, 8, 3).iter().enumerate() {
                // Every searching level, warm or cold in its plan: both halves search cold.
                let level = Level::ALL[1 + index % (Level::ALL.len() - 1)];
                if kind == GameKind::Pente && level == Level::Beginner {
                    continue; // the priority board, no search
                }
                let seed = index as u64;
                let pruned = think_with(game, level, &limits, seed, &COLD).unwrap();
                let plain = think_with(game, level, &limits, seed, &plain_options).unwrap();
                let position = game.position_text();
                assert_eq!(pruned.score, plain.score, "{kind} {level} {position}");
                assert_eq!(pruned.best, plain.best, "same ties, same seed, same choice");
                pruned_nodes += pruned.nodes;
                plain_nodes += plain.nodes;
            }
            assert!(
                pruned_nodes <= plain_nodes,
                "{kind}: {pruned_nodes} > {plain_nodes}"
            );
        }
    }

    #[test]
    fn a_raised_stop_flag_ends_the_search_at_once_with_a_legal_move() {
        for kind in GameKind::ALL {
            let game = &random_positions(kind, 1, 4)[0];
            for level in [Level::Advanced, Level::Expert] {
                let stop = StopFlag::default();
                stop.stop();
                let limits = Limits {
                    time: Some(std::time::Duration::from_secs(3600)),
                    depth: Some(40),
                    stop,
                    ..Limits::default()
                };
                let report: Report = think(game, level, &limits, 1).unwrap();
                assert!(game.legal_moves().contains(&report.best), "{kind} {level}");
                assert!(
                    report.nodes < 1_000,
                    "{kind} {level}: {} nodes",
                    report.nodes
                );
            }
        }
    }

    #[test]
    fn a_stop_raised_during_the_search_is_honoured() {
        // Another thread raises the flag once the search has started; the node count shows the
        // search did not run its hour.
        let game = AnyGame::start(GameKind::Checkers);
        let stop = StopFlag::default();
        let limits = Limits {
            time: Some(std::time::Duration::from_secs(3600)),
            stop: stop.clone(),
            ..Limits::default()
        };
        let raiser = std::thread::spawn(move || stop.stop());
        let report = think(&game, Level::Expert, &limits, 1).unwrap();
        raiser.join().unwrap();
        assert!(game.legal_moves().contains(&report.best));
    }

    #[test]
    fn every_level_with_a_node_budget_keeps_to_it() {
        // Not only `master`: any deepening level below the expert searches its plan's nodes
        // (within a little, as the search checks its limits in batches), not the expert's time.
        for kind in GameKind::ALL {
            for level in Level::ALL {
                let Some(budget) = plan(kind, level).nodes else {
                    continue;
                };
                for game in random_positions(kind, 3, 8) {
                    let report = think(&game, level, &Limits::default(), 1).unwrap();
                    assert!(
                        report.nodes <= budget + budget / 2 + 200,
                        "{kind} {level}: {} nodes for a budget of {budget}",
                        report.nodes
                    );
                }
            }
        }
    }

    #[test]
    fn a_single_legal_move_is_played_at_once() {
        // Black must take 14x23; nothing else is legal.
        let game = AnyGame::from_position_text(GameKind::Checkers, "B:W18,32:B14,1").unwrap();
        for level in Level::ALL {
            let report = think(&game, level, &Limits::default(), 0).unwrap();
            assert_eq!(report.text, "14x23");
            assert_eq!(report.nodes, 0, "{level}");
        }
    }

    #[test]
    fn a_finished_game_has_no_move() {
        let game = AnyGame::from_position_text(GameKind::Checkers, "B:W9,14:B5").unwrap();
        assert!(think(&game, Level::Expert, &Limits::default(), 0).is_none());
    }
}
