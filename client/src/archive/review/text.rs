//! The review in words: evaluations in each game's units, one line per move (number, side,
//! move, mark, evaluation after it, the best move), the exact results and missed wins, and the
//! marks counted per side. Printed when there is no terminal, and used by the board's panel.

use super::board::counts;
use kingme_shared::review::{GameReview, PlyReview, Thresholds};
use kingme_shared::{AnyGame, GameKind, Side};
use std::fmt::Write as _;

/// An evaluation from the first side's point of view in words: `+1.20` (the first side
/// better by that many units), or `Black wins` for a decided game.
#[must_use]
pub fn eval_text(kind: GameKind, eval: i32) -> String {
    let thresholds = Thresholds::of(kind);
    if thresholds.is_decided(eval) {
        let winner = if eval > 0 { Side::First } else { Side::Second };
        return format!("{} wins", AnyGame::kind_side_name(kind, winner));
    }
    format!("{:+.2}", f64::from(eval) / f64::from(thresholds.unit))
}

/// One move's line: `  7. White 6-9 ??  +1.05  best 1-5`, then the exact result and the
/// missed win when there are.
#[must_use]
pub fn ply_line(kind: GameKind, number: usize, ply: &PlyReview) -> String {
    // The sides' names padded to the longer one ("second player"), so the columns line up.
    let width = [Side::First, Side::Second]
        .map(|side| AnyGame::kind_side_name(kind, side).len())
        .into_iter()
        .max()
        .unwrap_or_default();
    let mut line = format!(
        "{number:>3}. {:<width$} {:<8} {:<2} {:>12}  best {}",
        AnyGame::kind_side_name(kind, ply.mover),
        ply.played,
        ply.class.mark(),
        eval_text(kind, ply.eval_after),
        ply.best
    );
    if let Some(exact) = ply.exact {
        let _ = write!(line, "  database: a {} to move", exact.name());
    }
    if let Some(win) = &ply.missed_win {
        let _ = write!(line, "  missed win from {win}");
    }
    line
}

/// One side's marks counted: `Black: 1 inaccuracy, 0 mistakes, 2 blunders`.
#[must_use]
pub fn counts_line(review: &GameReview, side: Side) -> String {
    let [inaccuracies, mistakes, blunders] = counts(review, side);
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}: {}, {}, {}",
        AnyGame::kind_side_name(review.kind, side),
        plural(inaccuracies, "inaccuracy", "inaccuracies"),
        plural(mistakes, "mistake", "mistakes"),
        plural(blunders, "blunder", "blunders")
    )
}

/// The whole review as text: the title, a line per move, the final evaluation and the counts.
#[must_use]
pub fn review_text(title: &str, review: &GameReview) -> String {
    let mut text = format!("{title}\n");
    for (index, ply) in review.plies.iter().enumerate() {
        text.push_str(&ply_line(review.kind, index + 1, ply));
        text.push('\n');
    }
    let _ = writeln!(text, "final: {}", eval_text(review.kind, review.final_eval));
    for side in [Side::First, Side::Second] {
        text.push_str(&counts_line(review, side));
        text.push('\n');
    }
    text
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use kingme_shared::ai::StopFlag;
    use kingme_shared::review::{ReviewBound, review_game};

    /// The moves of [`thrown_draw`].
    pub(crate) const THROWN_DRAW: [&str; 7] = ["5", "2", "1", "9", "3", "7", "8"];

    /// Noughts and crosses reviewed to the end of the game (the expert is exact there): noughts
    /// answers the centre on an edge and loses.
    pub(crate) fn thrown_draw() -> GameReview {
        let moves: Vec<String> = THROWN_DRAW.iter().map(|&text| text.to_owned()).collect();
        let bound = ReviewBound {
            depth: Some(9),
            time_per_position: None,
            stop: StopFlag::default(),
        };
        let start = AnyGame::start(GameKind::TicTacToe);
        review_game(&start, &moves, &bound, None, &mut |_, _| {}).unwrap()
    }

    #[test]
    fn the_text_has_a_line_per_move_with_its_mark_evaluation_and_best_move() {
        // Noughts' edge throws the draw away; crosses' 3 throws the win back (7 forks).
        let text = review_text("kingme game 9 — ann vs bob", &thrown_draw());
        let expected = "\
kingme game 9 — ann vs bob
  1. X 5                  +0.00  best 8
  2. O 2        ??       X wins  best 9
  3. X 1                 X wins  best 7
  4. O 9                 X wins  best 9
  5. X 3        ??        +0.00  best 7
  6. O 7                  +0.00  best 7
  7. X 8                  +0.00  best 8
final: +0.00
X: 0 inaccuracies, 0 mistakes, 1 blunder
O: 0 inaccuracies, 0 mistakes, 1 blunder
";
        assert_eq!(text, expected);
    }
}
