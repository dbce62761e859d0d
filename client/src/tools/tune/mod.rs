//! `kingme tune`: fits the weights of the expert's evaluation (checkers', or Pente's with
//! `--game pente`) to game results, Texel's way. Self-play games make the positions
//! ([`generate`] for checkers, [`pente`] for Pente), written to a positions file ([`positions`])
//! that `--positions FILE` reads back instead of playing again; the fit ([`fit`]) finds the
//! sigmoid's scale and then the weights; the weights file ([`output`]) says where they came from.
//! The shipped weights are `shared/data/checkers-weights.toml` and `pente-weights.toml`, made by
//! this command (see docs/engine.md).

pub mod fit;
pub mod generate;
pub mod output;
pub mod pente;
pub mod positions;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use kingme_shared::GameKind;
use kingme_shared::ai::checkers_eval::Weights;
use kingme_shared::ai::pente_eval;
use kingme_shared::ai::weights_file::MAX_FILE_LEN;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `kingme tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// The game whose evaluation to fit: checkers or pente.
    #[arg(long, default_value = "checkers")]
    pub game: GameKind,
    /// Self-play games to make positions from (not with --positions).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Nodes the expert searches a move in those games.
    #[arg(long, default_value_t = 1536, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Quiet positions kept from each game.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub per_game: u32,
    /// At most this many random moves after each game's ballot (checkers) or opening (Pente).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// The seed of the games' random moves and of the sampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Checkers: label endgame positions exactly by this endgame database (or "auto": the
    /// largest in the data directory).
    #[arg(long, value_name = "FILE|auto")]
    pub egdb: Option<String>,
    /// Fit to the positions of this file (made by an earlier run) instead of playing games.
    #[arg(long, value_name = "FILE", conflicts_with = "egdb")]
    pub positions: Option<PathBuf>,
    /// Where to write the positions the games made (default: GAME-tune-positions.txt).
    #[arg(long, value_name = "FILE")]
    pub save_positions: Option<PathBuf>,
    /// The weights to start from, and to play the games with: a weights file, or "hand"
    /// (default) or "shipped".
    #[arg(long, value_name = "FILE|hand|shipped", default_value = "hand")]
    pub start: String,
    /// Pente: hold this term at its starting weight (repeat for several), beyond those the fit
    /// always holds.
    #[arg(long = "hold", value_name = "TERM")]
    pub held: Vec<String>,
    /// The weights file to write (default: GAME-weights.toml).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl TuneArgs {
    /// How the games are played, as these arguments ask, with `weights` (the fit's start).
    fn settings<W>(&self, weights: &'static W) -> generate::Settings<W> {
        generate::Settings {
            games: self.games,
            nodes: self.nodes,
            random_plies: self.random_plies,
            per_game: self.per_game,
            max_plies: 300,
            seed: self.seed,
            weights,
        }
    }

    /// The bar of the games being played.
    fn games_bar(&self) -> anyhow::Result<ProgressBar> {
        bar(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {eta} left: {msg}",
            Some(u64::from(self.games)),
        )
    }

    /// The positions file to write.
    fn save_positions(&self) -> PathBuf {
        self.save_positions
            .clone()
            .unwrap_or_else(|| format!("{}-tune-positions.txt", self.game.name()).into())
    }

    /// The weights file to write.
    fn out(&self) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| format!("{}-weights.toml", self.game.name()).into())
    }

    /// The provenance of a fit of `positions` positions.
    fn provenance(
        &self,
        commit: &str,
        positions_file: &Path,
        positions: usize,
    ) -> output::Provenance {
        output::Provenance {
            command: std::env::args().collect::<Vec<_>>().join(" "),
            commit: commit.to_owned(),
            start: self.start.clone(),
            seed: self.seed,
            games: if self.positions.is_some() {
                0
            } else {
                self.games
            },
            positions_file: positions_file.display().to_string(),
            positions,
            held: self.held.join(","),
        }
    }
}

/// Runs `kingme tune`.
pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    match args.game {
        GameKind::Checkers => run_checkers(args),
        GameKind::Pente => pente::run(args),
        other => anyhow::bail!(
            "kingme tune fits checkers' or Pente's evaluation; {} has none to fit",
            other.name()
        ),
    }
}

/// Fits checkers' weights.
fn run_checkers(args: &TuneArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.held.is_empty(),
        "--hold names Pente's terms; checkers' fit holds its own four (docs/engine.md)"
    );
    let started = Instant::now();
    let commit = output::commit();
    let start = weights_named(&args.start)?;
    let (positions, positions_file) = match &args.positions {
        Some(path) => (positions::read(path)?, path.clone()),
        None => (make_positions(args, start, &commit)?, args.save_positions()),
    };
    let samples = fit::samples(&positions);
    let fitted = fit_with_bar(&samples, |samples, bar| fit::run(samples, start, bar))?;
    let title = "The expert's checkers evaluation weights, fitted to game results by `kingme \
                 tune`\n(a Texel fit: see docs/engine.md). The unit: a man is 100.";
    let provenance = args.provenance(&commit, &positions_file, positions.len());
    finish(args, &fitted, &provenance, title, started)
}

/// Runs a fit of `samples` (refused when there are none) with a progress bar of its passes.
fn fit_with_bar<S, W>(
    samples: &[S],
    fit: impl FnOnce(&[S], &ProgressBar) -> fit::Fitted<W>,
) -> anyhow::Result<fit::Fitted<W>> {
    anyhow::ensure!(
        !samples.is_empty(),
        "no positions to fit to: play more games (--games) or give a positions file with some"
    );
    let bar = bar("{elapsed_precise} {pos} passes: {msg}", None)?;
    let fitted = fit(samples, &bar);
    bar.finish_and_clear();
    Ok(fitted)
}

/// Writes the weights file of a fit and says what it did.
fn finish<W: std::fmt::Display>(
    args: &TuneArgs,
    fitted: &fit::Fitted<W>,
    provenance: &output::Provenance,
    title: &str,
    started: Instant,
) -> anyhow::Result<()> {
    let out = args.out();
    write(&out, &output::to_text(fitted, provenance, title))?;
    println!(
        "{}: k {:.5}, error {:.6} -> {:.6} over {} positions in {} passes, {:.0} s",
        out.display(),
        fitted.k,
        fitted.fit.start_error,
        fitted.fit.error,
        provenance.positions,
        fitted.fit.passes,
        started.elapsed().as_secs_f64()
    );
    print!("{}", fitted.fit.weights);
    Ok(())
}

/// Plays the games, writes the positions file and returns its positions.
fn make_positions(
    args: &TuneArgs,
    start: &'static Weights,
    commit: &str,
) -> anyhow::Result<Vec<positions::Labelled>> {
    let egdb = match args.egdb.as_deref() {
        None => None,
        Some(name) => {
            let file = (name != "auto").then(|| Path::new(name));
            let path = super::egdb::locate(file, None)?.ok_or_else(|| {
                anyhow::anyhow!(
                    "no endgame database in the data directory: build one with kingme egdb \
                     build --pieces 5, or name one with --egdb FILE"
                )
            })?;
            Some(super::egdb::open(&path)?)
        }
    };
    let settings = args.settings(start);
    let bar = args.games_bar()?;
    let made = generate::generate(&settings, egdb.as_deref(), &bar)?;
    bar.finish_and_clear();
    let comments = vec![
        "Checkers positions for kingme tune: FEN, then the result for Black (1, 0.5, 0)."
            .to_owned(),
        format!(
            "{} games (seed {}, {} nodes a move, up to {} random moves after the ballot, {} \
             positions a game); Black won {}, drawn {}, White won {}.",
            args.games,
            args.seed,
            args.nodes,
            args.random_plies,
            args.per_game,
            made.results[0],
            made.results[1],
            made.results[2]
        ),
        format!(
            "{} positions, {} of them labelled by the endgame database; commit {}.",
            made.positions.len(),
            made.exact,
            commit
        ),
    ];
    write(
        &args.save_positions(),
        &positions::to_text(&comments, &made.positions),
    )?;
    println!("{}", comments[1..].join(" "));
    Ok(made.positions)
}

/// The checkers weights `name` names: "hand", "shipped", or a weights file.
pub fn weights_named(name: &str) -> anyhow::Result<&'static Weights> {
    named(name, Weights::hand(), Weights::shipped(), |text| {
        Ok(Weights::parse(text)?.weights)
    })
}

/// The Pente weights `name` names: "hand", "shipped", or a weights file.
pub fn pente_weights_named(name: &str) -> anyhow::Result<&'static pente_eval::Weights> {
    named(
        name,
        pente_eval::Weights::hand(),
        pente_eval::Weights::shipped(),
        |text| Ok(pente_eval::Weights::parse(text)?.weights),
    )
}

/// `hand` or `shipped` by name, or the weights `parse` reads from the file `name`.
fn named<W>(
    name: &str,
    hand: &'static W,
    shipped: &'static W,
    parse: impl FnOnce(&str) -> anyhow::Result<W>,
) -> anyhow::Result<&'static W> {
    match name {
        "hand" => Ok(hand),
        "shipped" => Ok(shipped),
        path => {
            let text = read_text(Path::new(path), MAX_FILE_LEN as u64, "weights file")?;
            let weights = parse(&text).with_context(|| format!("in {path}"))?;
            // Read once for a tool's whole run; the search holds the weights by reference.
            Ok(Box::leak(Box::new(weights)))
        }
    }
}

/// A progress bar with `template`, of `length` steps or counting up.
fn bar(template: &str, length: Option<u64>) -> anyhow::Result<ProgressBar> {
    let bar = length.map_or_else(ProgressBar::no_length, ProgressBar::new);
    bar.set_style(
        ProgressStyle::with_template(template)
            .context("the progress style")?
            .progress_chars("=> "),
    );
    Ok(bar)
}

/// Reads the text file `path` (a `what`), refusing one larger than `max` bytes.
fn read_text(path: &Path, max: u64, what: &str) -> anyhow::Result<String> {
    let length = std::fs::metadata(path)
        .with_context(|| format!("cannot read the {what} {}", path.display()))?
        .len();
    anyhow::ensure!(
        length <= max,
        "the {what} {} has {length} bytes, more than the {max} read",
        path.display()
    );
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the {what} {} as text", path.display()))
}

/// Writes `text` to `path`, creating its folder.
fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the folder {}", parent.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::ai::checkers_eval::texel;
    use kingme_shared::ai::weights_file::WeightsFile;

    /// The shipped weights are the fit's: the fit, run again on the committed positions from
    /// the recorded starting weights, gives the same scale, the same weights and the same final
    /// error as the provenance records, and no step of 1 of any weight it moves lowers that
    /// error (a local minimum of exactly that fit).
    #[test]
    fn the_fit_of_the_committed_positions_gives_the_shipped_weights() {
        let text = committed_text("shared/data/checkers-weights.toml");
        let file = Weights::parse(&text).expect("the shipped weights");
        assert_eq!(file.weights, *Weights::shipped());
        let positions = positions::read(&positions_file(&file)).expect("the positions");
        assert_eq!(positions.len() as f64, recorded(&file, "positions"));
        let samples = fit::samples(&positions);
        let start = weights_named(file.provenance("start").expect("start")).expect("a start");
        let fitted = fit::run(&samples, start, &ProgressBar::hidden());
        assert_eq!(fitted.fit.weights, file.weights, "the weights");
        assert_as_recorded(&file, &fitted);
        assert_eq!(
            texel::error(&samples, &file.weights, fitted.k),
            fitted.fit.error
        );
        assert_eq!(
            texel::lower_step(&samples, &file.weights, fitted.k, &fit::FROZEN),
            None
        );
        // And the fit did better than the hand-set weights.
        assert!(fitted.fit.error < texel::error(&samples, Weights::hand(), fitted.k));
    }

    /// The text of a committed file, by its path from the repository's root.
    pub(super) fn committed_text(relative: &str) -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        std::fs::read_to_string(root.join(relative))
            .unwrap_or_else(|err| panic!("the committed {relative}: {err}"))
    }

    /// The positions file a weights file's provenance names, from the repository's root.
    pub(super) fn positions_file<W>(file: &WeightsFile<W>) -> PathBuf {
        let relative = file.provenance("positions_file").expect("positions_file");
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(relative)
    }

    /// A number the provenance records.
    pub(super) fn recorded<W>(file: &WeightsFile<W>, key: &str) -> f64 {
        file.provenance(key)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("the provenance's {key}"))
    }

    /// A refit's scale and final error are the recorded ones, to 1e-9 of them: another
    /// processor's `exp` may round its last bit otherwise.
    pub(super) fn assert_as_recorded<W>(file: &WeightsFile<W>, fitted: &fit::Fitted<W>) {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs();
        assert!(
            close(fitted.k, recorded(file, "k")),
            "the scale: {}",
            fitted.k
        );
        assert!(
            close(fitted.fit.error, recorded(file, "final_error")),
            "the final error: {}",
            fitted.fit.error
        );
    }

    #[test]
    fn weights_are_named_or_read_from_a_file() {
        assert_eq!(weights_named("hand").expect("hand"), Weights::hand());
        assert_eq!(
            weights_named("shipped").expect("shipped"),
            Weights::shipped()
        );
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("w.toml");
        std::fs::write(&path, Weights::hand().to_string()).expect("written");
        let read = weights_named(path.to_str().expect("a path")).expect("a file");
        assert_eq!(read, Weights::hand());
        std::fs::write(&path, "[weights]\nman = 100\n").expect("written");
        let refusal = weights_named(path.to_str().expect("a path")).expect_err("incomplete");
        assert!(
            format!("{refusal:#}").contains("has no weight"),
            "{refusal:#}"
        );
    }
}
