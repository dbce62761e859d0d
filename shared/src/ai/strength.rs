//! What each level does in each game: how deep it searches, how widely it strays from the best
//! move (a temperature), and whether it deepens iteratively under a node or time budget. The
//! levels are made weaker by these limits and by controlled randomness only, never by choosing
//! bad moves on purpose; the figures are tuned so that neighbours on the measured ladder
//! ([`super::ladder`]) stand about 200 Elo apart where the game allows it.

use super::level::Level;
use crate::GameKind;

/// How a level searches in one game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    /// The plies a fixed-depth level searches (the deepening levels ignore it).
    pub depth: u32,
    /// How widely a fixed-depth level strays from the best move, in units of the game's
    /// temperature unit (a man in checkers, a three's window in Pente): a move `d` units behind
    /// the best is drawn `e^(-d / temperature)` times as often. 0 always plays a best move.
    pub temperature: f64,
    /// Whether the level deepens iteratively (the expert's search) instead of a fixed depth.
    pub deepens: bool,
    /// The nodes a move for a deepening level, unless the caller sets a budget; `None` means a
    /// time budget (the expert).
    pub nodes: Option<u64>,
    /// Whether the level plays the opening book's move where the position is in it (checkers:
    /// the expert and the two levels below it).
    pub book: bool,
}

impl Plan {
    const fn fixed(depth: u32, temperature: f64) -> Plan {
        Plan {
            depth,
            temperature,
            deepens: false,
            nodes: None,
            book: false,
        }
    }

    const fn deepening(nodes: Option<u64>) -> Plan {
        Plan {
            depth: 0,
            temperature: 0.0,
            deepens: true,
            nodes,
            book: false,
        }
    }

    /// This plan, playing from the opening book where it can.
    const fn with_book(self) -> Plan {
        Plan { book: true, ..self }
    }
}

/// The plan of `level` in `kind`. `random` never searches (its plan is never read); Pente's
/// `beginner` plays the priority board rather than a search.
#[must_use]
pub fn plan(kind: GameKind, level: Level) -> Plan {
    let table = match kind {
        GameKind::Checkers => &CHECKERS,
        GameKind::Pente => &PENTE,
        GameKind::TicTacToe => &TICTACTOE,
    };
    table[level.rank()]
}

/// Checkers, weakest first as [`Level::ALL`] orders them. One ply sees nothing that the forced
/// captures do not already decide, so even `beginner` looks two plies ahead. The fixed-depth
/// levels count material only; from `skilled` up the levels are the expert's search (its
/// fitted evaluation) under node budgets, each five to eighteen times the one below (at a few
/// hundred nodes the budget is steep and uneven: `club` at 600 nodes stood some 100 above 550),
/// and `strong` and `master` play from the opening book as the expert does. Spaced a third time
/// on 2026-12-01, when the expert at 1 s stood 306 above the `master` of 200,000 nodes: every
/// level from `casual` up stronger, so that the steps below the expert are as wide as the band
/// allows and the expert's own step narrower; docs/measurements/ladder.md records the tries
/// ("Checkers spaced again" and "Checkers spaced a third time").
const CHECKERS: [Plan; 12] = [
    Plan::fixed(1, 0.0),
    Plan::fixed(2, 2.5),
    Plan::fixed(2, 1.1),
    Plan::fixed(3, 0.8),
    Plan::fixed(4, 0.5),
    Plan::fixed(5, 0.25),
    Plan::deepening(Some(100)),
    Plan::deepening(Some(600)),
    Plan::deepening(Some(5_000)),
    Plan::deepening(Some(25_000)).with_book(),
    Plan::deepening(Some(450_000)).with_book(),
    Plan::deepening(None).with_book(),
];

/// Pente, weakest first. `beginner` plays the priority board; from `novice` to `club` the
/// levels search one to five plies, cooling as they deepen (one ply at 50 chooses nearly evenly
/// among the best-ranked candidate points, yet takes a win and blocks a four); `advanced`,
/// `strong` and `master` are the expert's search at 1,600, 10,048 and 100,032 nodes (set as
/// 10,000 and 100,000 when a budget ran on to the next multiple of 64: the same searches).
/// Above five cold plies the budget is steep and uneven: five plies scored 14 of 32 against
/// 1,000 nodes and 2 of 32 against 2,500, which scored 15 of 32 against 6,000. Spaced again on 2026-12-01, when
/// the expert at 1 s had grown to 411 above the old `master` (10,000 nodes): each level from
/// `intermediate` to `strong` took the plan of the level above it, `casual` a new one between
/// the old `casual` and `intermediate`, `master` 100,000 nodes. Every step from `beginner` to
/// the expert within 200 ± 60; docs/measurements/ladder.md records the tries ("Pente spaced
/// again", "Pente evened").
const PENTE: [Plan; 12] = [
    Plan::fixed(1, 0.0),
    Plan::fixed(1, 0.0),
    Plan::fixed(1, 50.0),
    Plan::fixed(1, 0.4),
    Plan::fixed(2, 1.5),
    Plan::fixed(3, 0.7),
    Plan::fixed(4, 0.4),
    Plan::fixed(5, 0.0),
    Plan::deepening(Some(1_600)),
    Plan::deepening(Some(10_048)),
    Plan::deepening(Some(100_032)),
    Plan::deepening(None),
];

/// Noughts and crosses, weakest first. The game is too small for a ladder: from one cold ply
/// up a level draws nearly every game against any other, so the levels above `casual` are one
/// rung. (`strong`'s and `master`'s 256 and 1,024 nodes were set as 200 and 1,000 when a budget
/// ran on to the next multiple of 64: the same searches.)
const TICTACTOE: [Plan; 12] = [
    Plan::fixed(1, 0.0),
    Plan::fixed(1, 1.5),
    Plan::fixed(1, 1.0),
    Plan::fixed(1, 0.5),
    Plan::fixed(1, 0.0),
    Plan::fixed(2, 0.3),
    Plan::fixed(2, 0.15),
    Plan::fixed(2, 0.0),
    Plan::fixed(3, 0.0),
    Plan::deepening(Some(256)),
    Plan::deepening(Some(1_024)),
    Plan::deepening(None),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stronger_levels_search_at_least_as_much_and_stray_no_more() {
        for kind in GameKind::ALL {
            let plans: Vec<(Level, Plan)> =
                Level::ALL.iter().map(|&l| (l, plan(kind, l))).collect();
            for pair in plans[1..].windows(2) {
                let ((level, weaker), (_, stronger)) = (pair[0], pair[1]);
                if kind == GameKind::Pente && level == Level::Beginner {
                    // The priority board: its plan is never read.
                    continue;
                }
                if weaker.deepens {
                    // A deepening level below the expert has a node budget, and the next level
                    // up a larger one (or the expert's time).
                    let budget = weaker.nodes.expect("a node budget");
                    assert!(stronger.deepens, "{kind}");
                    assert!(stronger.nodes.is_none_or(|more| more > budget), "{kind}");
                    continue;
                }
                assert!(
                    stronger.deepens
                        || stronger.depth > weaker.depth
                        || (stronger.depth == weaker.depth
                            && stronger.temperature < weaker.temperature),
                    "{kind}: {weaker:?} then {stronger:?}"
                );
            }
            assert_eq!(plan(kind, Level::Expert).nodes, None, "{kind}");
        }
    }
}
