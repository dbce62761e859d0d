//! Results and counts in English, the one place the client turns them into words, so the
//! terminal UI, plain mode and the bot's result line say the same thing: "Black wins: White
//! abandoned the game", "1 piece", "101 plies (51 moves)".

use kingme_shared::ai::{Level, ladder};
use kingme_shared::protocol::{EndReason, GameResult};
use kingme_shared::{AnyGame, DrawReason, GameKind, WinReason};

/// A finished game's result as a sentence naming the winner and why (no final full stop).
#[must_use]
pub(crate) fn result_sentence(kind: GameKind, result: GameResult) -> String {
    let name = |side| AnyGame::kind_side_name(kind, side);
    let Some(winner) = result.winner else {
        return match result.reason {
            EndReason::Draw(DrawReason::Repetition) => {
                "Drawn: the same position came three times".to_owned()
            }
            EndReason::Draw(DrawReason::FortyMoveRule) => {
                "Drawn by the forty-move rule: forty moves each without a capture or a man's move"
                    .to_owned()
            }
            EndReason::Draw(DrawReason::FullBoard) => "Drawn: the board is full".to_owned(),
            EndReason::DrawAgreed => "Drawn by agreement".to_owned(),
            EndReason::Aborted => "Aborted: the game ended without a result".to_owned(),
            EndReason::Abandoned => "Abandoned: the game ended without a result".to_owned(),
            other => format!("Drawn: {other}"),
        };
    };
    let (won, lost) = (capitalised(name(winner)), name(winner.opponent()));
    match result.reason {
        EndReason::Win(WinReason::NoLegalMoves) => format!("{won} wins: {lost} has no legal move"),
        EndReason::Win(WinReason::FiveInARow) => format!("{won} wins with five in a row"),
        EndReason::Win(WinReason::FiveCaptures) => {
            format!("{won} wins by capturing five pairs")
        }
        EndReason::Win(WinReason::ThreeInARow) => format!("{won} wins with three in a row"),
        EndReason::Resignation => format!("{won} wins: {lost} resigned"),
        EndReason::TimeForfeit => format!("{won} wins: {lost} ran out of time"),
        EndReason::Abandoned => format!("{won} wins: {lost} abandoned the game"),
        other => format!("{won} wins: {other}"),
    }
}

/// `text` with its first letter in upper case, to begin a sentence ("first player wins").
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A count with its noun in the right number: `1 piece`, `2 pieces`.
#[must_use]
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A game's length from its plies (one side's move each), with the moves as a player counts
/// them (a move is both sides' turns): `101 plies (51 moves)`.
#[must_use]
pub(crate) fn game_length(plies: usize) -> String {
    format!(
        "{} ({})",
        count(plies, "ply", "plies"),
        count(plies.div_ceil(2), "move", "moves")
    )
}

/// A bot level with its measured rating in `kind` (`kingme ladder`), so a person can choose an
/// opponent by strength: `advanced (1740)`; the bare name where the ladder has not placed the
/// level.
#[must_use]
pub(crate) fn bot_level(kind: GameKind, level: Level) -> String {
    match ladder::measured_rating(kind, level) {
        Some(rating) => format!("{level} ({rating})"),
        None => level.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::Side;

    fn check(kind: GameKind, winner: Option<Side>, reason: EndReason, expected: &str) {
        assert_eq!(
            result_sentence(kind, GameResult { winner, reason }),
            expected
        );
    }

    #[test]
    fn every_end_reason_reads_as_a_sentence() {
        use GameKind::{Checkers, Pente, TicTacToe};
        let (first, second) = (Some(Side::First), Some(Side::Second));
        check(
            Checkers,
            second,
            EndReason::Win(WinReason::NoLegalMoves),
            "White wins: Black has no legal move",
        );
        check(
            Pente,
            first,
            EndReason::Win(WinReason::FiveInARow),
            "First player wins with five in a row",
        );
        check(
            Pente,
            second,
            EndReason::Win(WinReason::FiveCaptures),
            "Second player wins by capturing five pairs",
        );
        check(
            TicTacToe,
            first,
            EndReason::Win(WinReason::ThreeInARow),
            "X wins with three in a row",
        );
        check(
            Checkers,
            None,
            EndReason::Draw(DrawReason::Repetition),
            "Drawn: the same position came three times",
        );
        check(
            Checkers,
            None,
            EndReason::Draw(DrawReason::FortyMoveRule),
            "Drawn by the forty-move rule: forty moves each without a capture or a man's move",
        );
        check(
            TicTacToe,
            None,
            EndReason::Draw(DrawReason::FullBoard),
            "Drawn: the board is full",
        );
        check(
            Checkers,
            first,
            EndReason::Resignation,
            "Black wins: White resigned",
        );
        check(Checkers, None, EndReason::DrawAgreed, "Drawn by agreement");
        check(
            TicTacToe,
            second,
            EndReason::TimeForfeit,
            "O wins: X ran out of time",
        );
        check(
            Checkers,
            first,
            EndReason::Abandoned,
            "Black wins: White abandoned the game",
        );
        check(
            Checkers,
            None,
            EndReason::Abandoned,
            "Abandoned: the game ended without a result",
        );
        check(
            Checkers,
            None,
            EndReason::Aborted,
            "Aborted: the game ended without a result",
        );
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1, "piece", "pieces"), "1 piece");
        assert_eq!(count(0, "piece", "pieces"), "0 pieces");
        assert_eq!(count(2, "piece", "pieces"), "2 pieces");
        assert_eq!(game_length(1), "1 ply (1 move)");
        assert_eq!(game_length(101), "101 plies (51 moves)");
        assert_eq!(game_length(0), "0 plies (0 moves)");
    }

    #[test]
    fn a_bot_level_says_its_measured_rating() {
        let rating = ladder::measured_rating(GameKind::Checkers, Level::Advanced)
            .expect("advanced is on the checkers ladder");
        assert_eq!(
            bot_level(GameKind::Checkers, Level::Advanced),
            format!("advanced ({rating})")
        );
    }
}
