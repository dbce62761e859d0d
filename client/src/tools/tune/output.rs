//! The weights file `kingme tune` writes, for either game: a comment, the `[weights]` section, and the fit's
//! provenance (the command, the commit it ran at, the starting weights, the seed, the games and positions, the scale
//! `k` and the errors), in the form [`kingme_shared::ai::checkers_eval::Weights::parse`] reads.
//! `k` and the final error are written so that they read back exactly (the test of the shipped
//! weights recomputes the error and compares).

use super::fit::Fitted;
use std::fmt::{Display, Write as _};

/// Where the positions came from and how the fit was run.
#[derive(Debug, Clone)]
pub struct Provenance {
    /// The command line.
    pub command: String,
    /// The commit it ran at (`git rev-parse --short HEAD`), or "unknown".
    pub commit: String,
    /// The weights the fit started from ("hand", "shipped" or a file).
    pub start: String,
    /// The seed of the games.
    pub seed: u64,
    /// Games played (0 when the positions were read from a file made before).
    pub games: u32,
    /// The positions file fitted to.
    pub positions_file: String,
    /// How many positions, and how many of them the endgame database labelled.
    pub positions: usize,
    /// The terms held at their starting weights beyond those the fit always holds, by name
    /// and separated by commas (written only when there are some).
    pub held: String,
}

/// The file's text, headed by `title` (what the weights are, and their unit).
#[must_use]
pub fn to_text<W: Display>(fitted: &Fitted<W>, provenance: &Provenance, title: &str) -> String {
    let mut text = String::new();
    for line in title.lines() {
        let _ = writeln!(text, "# {line}");
    }
    text.push('\n');
    let _ = write!(text, "{}", fitted.fit.weights);
    let quote = |value: &str| format!("{:?}", value);
    let _ = writeln!(text, "\n[provenance]");
    let _ = writeln!(text, "command = {}", quote(&provenance.command));
    let _ = writeln!(text, "commit = {}", quote(&provenance.commit));
    let _ = writeln!(text, "start = {}", quote(&provenance.start));
    let _ = writeln!(text, "seed = {}", provenance.seed);
    let _ = writeln!(text, "games = {}", provenance.games);
    let _ = writeln!(
        text,
        "positions_file = {}",
        quote(&provenance.positions_file)
    );
    let _ = writeln!(text, "positions = {}", provenance.positions);
    if !provenance.held.is_empty() {
        let _ = writeln!(text, "held = {}", quote(&provenance.held));
    }
    let _ = writeln!(text, "k = {:?}", fitted.k);
    let _ = writeln!(text, "passes = {}", fitted.fit.passes);
    let _ = writeln!(text, "start_error = {:?}", fitted.fit.start_error);
    let _ = writeln!(text, "final_error = {:?}", fitted.fit.error);
    text
}

/// The commit of the working directory's repository, short, or "unknown".
#[must_use]
pub fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map_or_else(|| "unknown".to_owned(), |text| text.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::ai::checkers_eval::Weights;
    use kingme_shared::ai::checkers_eval::texel::Fit;

    #[test]
    fn the_file_reads_back_with_its_provenance() {
        let fitted = Fitted {
            fit: Fit {
                weights: *Weights::hand(),
                start_error: 0.125,
                error: 0.1_f64 / 3.0,
                passes: 4,
            },
            k: 0.0123456789,
        };
        let provenance = Provenance {
            command: "kingme tune --seed 3 \"quoted\"".to_owned(),
            commit: "abc1234".to_owned(),
            start: "hand".to_owned(),
            seed: 3,
            games: 10,
            positions_file: "p.txt".to_owned(),
            positions: 99,
            held: "tempo".to_owned(),
        };
        let text = to_text(&fitted, &provenance, "A title\non two lines.");
        assert!(
            text.starts_with("# A title\n# on two lines.\n\n[weights]\n"),
            "{text}"
        );
        let file = Weights::parse(&text).expect("its own file");
        assert_eq!(file.weights, *Weights::hand());
        assert_eq!(file.provenance("seed"), Some("3"));
        assert_eq!(file.provenance("held"), Some("tempo"));
        assert_eq!(file.provenance("k").map(str::parse), Some(Ok(fitted.k)));
        assert_eq!(
            file.provenance("final_error").map(str::parse),
            Some(Ok(fitted.fit.error))
        );
    }
}
