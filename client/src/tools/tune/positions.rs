//! The positions file of `kingme tune`: one labelled position a line, its text (a checkers FEN,
//! a Pente position text) and its result for the first side (Black in checkers: `1`, `0.5` or
//! `0`), after `#` comment lines that say how the positions were made. It is written once by the
//! generation and read again with `--positions FILE`, so a fit can be repeated or changed without
//! playing the games again. A file is input: its size, its lines and every position are checked,
//! and a bad line is refused with its number.

use anyhow::Context;
use kingme_shared::Game;
use kingme_shared::ai::checkers_eval::features;
use kingme_shared::ai::checkers_eval::texel::Sample;
use kingme_shared::games::checkers::{Position, fen, parse_fen};
use kingme_shared::games::pente::Pente;
use std::fmt::Write as _;
use std::path::Path;

/// The largest positions file read: 64 MB, about a million positions.
pub const MAX_FILE_LEN: u64 = 64 * 1024 * 1024;

/// A position as a positions file holds it: one word of text (no space inside).
pub trait TunePosition: Sized {
    /// The position's text.
    fn text(&self) -> String;
    /// The position a text names, or why it names none.
    fn read(text: &str) -> Result<Self, String>;
}

impl TunePosition for Position {
    fn text(&self) -> String {
        fen(self)
    }

    fn read(text: &str) -> Result<Self, String> {
        parse_fen(text).map_err(|err| err.to_string())
    }
}

impl TunePosition for Pente {
    fn text(&self) -> String {
        self.position_text()
    }

    fn read(text: &str) -> Result<Self, String> {
        Pente::from_position_text(text).map_err(|err| err.to_string())
    }
}

/// One position and the result of its game for the first side (or, in checkers, the endgame
/// database's verdict).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Labelled<P = Position> {
    /// The position.
    pub position: P,
    /// 1 a win of the first side (Black in checkers), 0.5 a draw, 0 a loss.
    pub result: f64,
}

impl Labelled {
    /// The fit's sample of this checkers position.
    #[must_use]
    pub fn sample(&self) -> Sample {
        Sample {
            features: features(&self.position),
            result: self.result,
        }
    }
}

/// The file's text: the `comments` (one `# ` line each), then one position a line.
#[must_use]
pub fn to_text<P: TunePosition>(comments: &[String], positions: &[Labelled<P>]) -> String {
    let mut text = String::new();
    for comment in comments {
        let _ = writeln!(text, "# {comment}");
    }
    for labelled in positions {
        let _ = writeln!(text, "{} {}", labelled.position.text(), labelled.result);
    }
    text
}

/// Reads the positions of a file's text; a line that is not a position and a result of 1, 0.5
/// or 0 is refused with its number.
pub fn parse<P: TunePosition>(text: &str) -> anyhow::Result<Vec<Labelled<P>>> {
    let mut positions = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let number = index + 1;
        let Some((position, result)) = line.rsplit_once(' ') else {
            anyhow::bail!(
                "positions line {number}: expected a position and a result (1, 0.5 or 0)"
            );
        };
        let result = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => anyhow::bail!(
                "positions line {number}: the result {other:?} is not 1, 0.5 or 0 (the first \
                 side's score)"
            ),
        };
        let position = P::read(position.trim())
            .map_err(|err| anyhow::anyhow!("positions line {number}: {err}"))?;
        positions.push(Labelled { position, result });
    }
    Ok(positions)
}

/// Reads a positions file, refusing one larger than [`MAX_FILE_LEN`].
pub fn read<P: TunePosition>(path: &Path) -> anyhow::Result<Vec<Labelled<P>>> {
    let text = super::read_text(path, MAX_FILE_LEN, "positions file")?;
    parse(&text).with_context(|| format!("in {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_through_the_text() {
        let positions = vec![
            Labelled {
                position: Position::start(),
                result: 0.5,
            },
            Labelled {
                position: parse_fen("W:WK3,20:B1,K30").expect("a FEN"),
                result: 1.0,
            },
            Labelled {
                position: parse_fen("B:W20:B1").expect("a FEN"),
                result: 0.0,
            },
        ];
        let text = to_text(&["made by a test".to_owned()], &positions);
        assert!(text.starts_with("# made by a test\n"));
        assert_eq!(parse::<Position>(&text).expect("its own text"), positions);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let refusal = |text: &str| parse::<Position>(text).expect_err(text).to_string();
        assert!(refusal("# fine\nB:W20:B1 2\n").contains("line 2: the result \"2\""));
        assert!(refusal("B:W20:B1\n").contains("line 1"));
        assert!(refusal("B:W20:B20 1\n").contains("line 1"));
        assert!(refusal("nonsense\n").contains("expected a position"));
    }
}
