//! The iterative deepening's own guarantees, checked on checkers positions: the aspiration
//! windows give the exact score of a full-width search, and late-move reductions search fewer
//! nodes without losing the forced wins (those are in the checkers search's tests).

use super::{SearchConfig, Searcher};
use crate::ai::Limits;
use crate::ai::checkers::CheckersSearch;
use crate::game::Game;
use crate::games::checkers::Checkers;

/// Middle games and endings with quiet moves to spare (the start, early middle games, kings
/// against men, kings with a choice of captures), and two forced wins with the loser's side of
/// them, whose scores jump out of the aspiration window from one depth to the next, above it
/// for the winner and below it for the loser.
const POSITIONS: [&str; 11] = [
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "B:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15",
    "W:W18,20,22,24,25,26,28,29,31:B2,5,6,8,10,11,13,15,16",
    "B:W17,20,21,23,25,26,27,29,30,31:B1,3,5,6,8,10,11,12,14,15",
    "B:WK3,22,25,27,30:B6,9,K14,20",
    "W:WK3,K10,K26:B1,K9,K20,25,27",
    "W:WK3,K10,K26,K32:BK9,K20,K22,25,27",
    "B:W14,32:B6,26",
    "W:W14,32:B6,K31",
    "B:W20,32:B10,11",
    "W:W20,32:B11,15",
];

/// The expert's search without a table (so that every search's score is exact, whatever the
/// order the moves were tried in), with or without late-move reductions.
fn config(reductions: bool) -> SearchConfig {
    SearchConfig {
        pruning: true,
        extensions: true,
        table_bits: None,
        reductions,
    }
}

fn searcher(reductions: bool) -> Searcher<crate::games::checkers::Move> {
    let limits = Limits::default();
    Searcher::new(config(reductions), &limits, limits.clock.now())
}

#[test]
fn aspiration_windows_give_the_exact_score() {
    // Iterative deepening searches from depth 4 on in a narrow window around the last score
    // and again where the score falls outside it; every root move scored with an open window
    // at the same depth must give the same best score.
    for fen in POSITIONS {
        let game = Checkers::from_position_text(fen).unwrap();
        assert!(game.legal_moves().len() > 1, "{fen}: a choice to search");
        for depth in 1..=7 {
            let mut search = CheckersSearch::new(&game, true);
            let deepened = searcher(false).iterate(&mut search, depth).unwrap();
            let exact = searcher(false).exact_root(&mut search, depth).unwrap();
            assert_eq!(deepened.depth, depth, "{fen}");
            assert_eq!(deepened.score, exact.score, "{fen} at depth {depth}");
            assert!(
                exact.ties.contains(&deepened.best),
                "{fen} at depth {depth}: {deepened:?} is not among {exact:?}"
            );
        }
    }
}

#[test]
fn late_move_reductions_search_fewer_nodes() {
    // Not in every position (a small ending may have no quiet move late enough), but overall.
    let nodes = |reductions| -> u64 {
        POSITIONS
            .iter()
            .map(|fen| {
                let game = Checkers::from_position_text(fen).unwrap();
                let mut search = CheckersSearch::new(&game, true);
                searcher(reductions).iterate(&mut search, 8).unwrap().nodes
            })
            .sum()
    };
    let (full, reduced) = (nodes(false), nodes(true));
    assert!(reduced < full, "{reduced} nodes reduced, {full} not");
}
