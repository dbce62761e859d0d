//! How a recorded game ended, and the short text codes of the result and its reason, shared by
//! the database, PDN and the text record so that each form reads what the others write.
//!
//! Results are written as in PDN: `1-0` when the first side (Black in checkers, X, the first
//! player in Pente) won, `0-1` when the second side won, `1/2-1/2` for a draw, `*` for a game
//! without a winner or draw (unfinished, or aborted).

use crate::domain::{EndReason, GameResult};
use crate::game::{DrawReason, Side, WinReason};
use serde::{Deserialize, Serialize};

/// The end of a recorded game. The reason may be unknown (a PDN file gives only the score).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordResult {
    /// `None` for a draw or an aborted game.
    pub winner: Option<Side>,
    /// How it ended, `None` when the record does not say.
    pub reason: Option<EndReason>,
}

impl From<GameResult> for RecordResult {
    fn from(result: GameResult) -> RecordResult {
        RecordResult {
            winner: result.winner,
            reason: Some(result.reason),
        }
    }
}

impl RecordResult {
    /// The PDN-style score: `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    #[must_use]
    pub fn score(self) -> &'static str {
        match (self.winner, self.reason) {
            (Some(Side::First), _) => "1-0",
            (Some(Side::Second), _) => "0-1",
            (None, Some(EndReason::Aborted)) => "*",
            (None, _) => "1/2-1/2",
        }
    }

    /// Reads a score; `Ok(None)` for `*` (no result).
    pub fn from_score(score: &str) -> Result<Option<RecordResult>, String> {
        let winner = match score.trim() {
            "*" => return Ok(None),
            "1-0" => Some(Side::First),
            "0-1" => Some(Side::Second),
            "1/2-1/2" | "½-½" => None,
            other => {
                return Err(format!(
                    "expected a result 1-0, 0-1, 1/2-1/2 or *, got {other:?}"
                ));
            }
        };
        Ok(Some(RecordResult {
            winner,
            reason: None,
        }))
    }
}

/// Every end reason with its code, the one table both directions read.
const END_REASON_CODES: [(EndReason, &str); 12] = [
    (EndReason::Win(WinReason::NoLegalMoves), "no-legal-moves"),
    (EndReason::Win(WinReason::FiveInARow), "five-in-a-row"),
    (EndReason::Win(WinReason::FiveCaptures), "five-captures"),
    (EndReason::Win(WinReason::ThreeInARow), "three-in-a-row"),
    (EndReason::Draw(DrawReason::Repetition), "repetition"),
    (
        EndReason::Draw(DrawReason::FortyMoveRule),
        "forty-move-rule",
    ),
    (EndReason::Draw(DrawReason::FullBoard), "full-board"),
    (EndReason::Resignation, "resignation"),
    (EndReason::DrawAgreed, "draw-agreed"),
    (EndReason::TimeForfeit, "time-forfeit"),
    (EndReason::Abandoned, "abandoned"),
    (EndReason::Aborted, "aborted"),
];

/// The stable code of an end reason, e.g. `five-in-a-row` (stored in databases and files, so it
/// never changes once released).
#[must_use]
pub fn end_reason_code(reason: EndReason) -> &'static str {
    END_REASON_CODES
        .iter()
        .find(|(known, _)| *known == reason)
        .map_or("aborted", |(_, code)| code)
}

/// Reads an end reason's code.
pub fn parse_end_reason_code(code: &str) -> Result<EndReason, String> {
    END_REASON_CODES
        .iter()
        .find(|(_, known)| *known == code.trim())
        .map(|(reason, _)| *reason)
        .ok_or_else(|| {
            let codes: Vec<&str> = END_REASON_CODES.iter().map(|(_, code)| *code).collect();
            format!(
                "expected an end reason ({}), got {code:?}",
                codes.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_end_reason_code_reads_back() {
        for (reason, code) in END_REASON_CODES {
            assert_eq!(end_reason_code(reason), code);
            assert_eq!(parse_end_reason_code(code), Ok(reason));
        }
        assert!(
            parse_end_reason_code("checkmate")
                .unwrap_err()
                .contains("got \"checkmate\"")
        );
    }

    #[test]
    fn scores_read_back() {
        for winner in [Some(Side::First), Some(Side::Second), None] {
            let result = RecordResult {
                winner,
                reason: Some(EndReason::Resignation),
            };
            let read = RecordResult::from_score(result.score()).unwrap().unwrap();
            assert_eq!(read.winner, winner);
        }
        assert_eq!(RecordResult::from_score("*"), Ok(None));
        assert!(RecordResult::from_score("2-0").is_err());
    }
}
