//! An exhaustive walk of the noughts-and-crosses game tree from the empty board, through the
//! [`Game`] trait, checked against the counts in `shared/data/tictactoe-facts.txt`.
//!
//! The expected numbers are read from the file, never written here, and every line of the file
//! must be one this walk knows how to check, so a fact cannot be skipped silently.

use super::TicTacToe;
use crate::game::{Game, Outcome, Side};
use std::collections::{HashMap, HashSet};

const FACTS: &str = include_str!("../../../data/tictactoe-facts.txt");

/// What the walk counts.
#[derive(Default)]
struct Tree {
    /// Every node visited, the root included (the size of a full minimax search).
    nodes: u64,
    /// Distinct positions reached.
    positions: HashSet<TicTacToe>,
    /// Finished games (leaves), by winner (`None` a draw).
    games: HashMap<Option<Side>, u64>,
    /// Finished games by the number of moves played.
    games_by_length: HashMap<usize, u64>,
    /// Distinct final positions.
    terminals: HashSet<TicTacToe>,
}

/// The value of a position for X with perfect play: 1 win, 0 draw, -1 loss.
fn value(outcome: Outcome) -> i8 {
    match outcome.winner() {
        Some(Side::First) => 1,
        Some(Side::Second) => -1,
        None => 0,
    }
}

impl Tree {
    /// Walks every game from `game`, `depth` moves in; returns the minimax value for X.
    fn walk(&mut self, game: &TicTacToe, depth: usize) -> i8 {
        self.nodes += 1;
        self.positions.insert(*game);
        if let Some(outcome) = game.outcome() {
            *self.games.entry(outcome.winner()).or_default() += 1;
            *self.games_by_length.entry(depth).or_default() += 1;
            self.terminals.insert(*game);
            return value(outcome);
        }
        let values = game.legal_moves().into_iter().map(|mv| {
            let mut child = *game;
            child.play(&mv).expect("a generated move is legal");
            self.walk(&child, depth + 1)
        });
        let values: Vec<i8> = values.collect();
        let best = match game.side_to_move() {
            Side::First => values.iter().max(),
            Side::Second => values.iter().min(),
        };
        *best.expect("a game that goes on has moves")
    }
}

/// The eight symmetries of the square, as maps from a square to its image.
fn symmetries() -> Vec<[u8; 9]> {
    let rotate = |s: u8| (s % 3) * 3 + (2 - s / 3);
    let mirror = |s: u8| (s / 3) * 3 + (2 - s % 3);
    let mut maps = Vec::new();
    let mut map: [u8; 9] = std::array::from_fn(|s| s as u8);
    for _ in 0..4 {
        maps.push(map);
        maps.push(map.map(mirror));
        map = map.map(rotate);
    }
    maps
}

/// The smallest encoding of a position over its symmetries.
fn canonical(game: &TicTacToe, maps: &[[u8; 9]]) -> u32 {
    maps.iter()
        .map(|map| {
            (0..9u8).fold(0u32, |code, square| match game.at(square) {
                Some(Side::First) => code | 1 << map[usize::from(square)],
                Some(Side::Second) => code | 1 << (9 + map[usize::from(square)]),
                None => code,
            })
        })
        .min()
        .unwrap_or_default()
}

/// The whole numbers in a text, in order.
fn numbers(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().expect("a number"))
        .collect()
}

#[test]
fn the_game_tree_has_the_recorded_counts() {
    let mut tree = Tree::default();
    let start = TicTacToe::start();
    let root_value = tree.walk(&start, 0);
    let first_move_values: Vec<i8> = start
        .legal_moves()
        .iter()
        .map(|mv| {
            let mut child = start;
            child.play(mv).expect("legal");
            Tree::default().walk(&child, 1)
        })
        .collect();
    let maps = symmetries();
    let games = |winner| tree.games.get(&winner).copied().unwrap_or_default();
    let terminal_wins = |winner| {
        tree.terminals
            .iter()
            .filter(|game| game.outcome().and_then(Outcome::winner) == winner)
            .count() as u64
    };
    let mut checked = 0;
    for line in FACTS.lines().filter(|line| !line.starts_with('#')) {
        let Some((fact, expected)) = line.split_once(':') else {
            continue;
        };
        let got: Vec<u64> = match fact.trim() {
            "reachable positions, including the empty board" => vec![tree.positions.len() as u64],
            "reachable positions up to symmetry" => {
                let classes: HashSet<u32> =
                    tree.positions.iter().map(|g| canonical(g, &maps)).collect();
                vec![classes.len() as u64]
            }
            "possible games" => vec![tree.games.values().sum()],
            "games won by X / won by O / drawn" => vec![
                games(Some(Side::First)),
                games(Some(Side::Second)),
                games(None),
            ],
            "games ending after move 5 / 6 / 7 / 8 / 9" => numbers(fact)
                .iter()
                .map(|&length| {
                    let length = usize::try_from(length).expect("small");
                    tree.games_by_length.get(&length).copied().unwrap_or(0)
                })
                .collect(),
            "terminal positions (X wins / O wins / draw)" => vec![
                tree.terminals.len() as u64,
                terminal_wins(Some(Side::First)),
                terminal_wins(Some(Side::Second)),
                terminal_wins(None),
            ],
            "full minimax nodes from the empty board, root included" => vec![tree.nodes],
            "value of the empty board with perfect play" => {
                let word = |value: i8| match value {
                    1 => "win for X",
                    -1 => "win for O",
                    _ => "draw",
                };
                assert!(expected.trim().starts_with(word(root_value)), "{line}");
                let all_draw = first_move_values.iter().all(|&v| v == 0);
                assert_eq!(expected.contains("every first move also draws"), all_draw);
                checked += 1;
                continue;
            }
            other => panic!("a fact this test does not check: {other:?}"),
        };
        assert_eq!(got, numbers(expected), "{line}");
        checked += 1;
    }
    assert!(checked > 0, "no facts read");
}
