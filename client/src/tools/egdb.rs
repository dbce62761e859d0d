//! `kingme egdb build --pieces N`: solves every checkers position with up to N pieces
//! ([`kingme_shared::ai::egdb`]) with a progress bar and writes the database file into the data
//! directory (`<data dir>/egdb/checkers-wld-N.kmdb`, or `--dir`); [`open`] reads a database file
//! and checks it whole before any use, and [`find`] picks the largest database in a folder, for
//! `kingme analyze` and `kingme match`; `kingme egdb info` checks a file and prints its verdicts
//! slice by slice.

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use kingme_client::game::words::count;
use kingme_shared::ai::egdb::index::Counts;
use kingme_shared::ai::egdb::{Egdb, encode, solve};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

pub use kingme_client::local::endgame_files::{MAX_BUILD_PIECES, file_name, find};

/// Arguments of `kingme egdb`.
#[derive(Debug, clap::Args)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub command: EgdbCommand,
}

/// What `kingme egdb` does.
#[derive(Debug, clap::Subcommand)]
pub enum EgdbCommand {
    /// Solve every position with up to N pieces and write the database file.
    Build {
        /// The most pieces on the board (2 to 6).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_BUILD_PIECES)))]
        pieces: u32,
        /// The folder to write into (default: the egdb folder of kingme's data directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The file to write, instead of checkers-wld-N.kmdb in the folder.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Check a database file and print its wins, losses and draws slice by slice.
    Info {
        /// The folder to look in (default: the egdb folder of kingme's data directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The file, instead of the largest in the folder.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
    },
}

/// Runs `kingme egdb`.
pub fn run(args: &EgdbArgs) -> anyhow::Result<()> {
    match &args.command {
        EgdbCommand::Build { pieces, dir, out } => {
            let path = match out {
                Some(out) => out.clone(),
                None => folder(dir.as_deref())?.join(file_name(*pieces)),
            };
            build(*pieces, &path, true)
        }
        EgdbCommand::Info { dir, file } => {
            let path = locate(file.as_deref(), dir.as_deref())?.with_context(|| {
                format!(
                    "no endgame database in {}: build one with kingme egdb build --pieces 4",
                    folder(dir.as_deref()).map_or_else(
                        |_| "the data directory".to_owned(),
                        |f| f.display().to_string()
                    )
                )
            })?;
            let db = open(&path)?;
            print!("{}", info(&path, &db));
            Ok(())
        }
    }
}

/// The file's summary and a line a slice: Black to move's wins, losses and draws.
fn info(path: &Path, db: &Egdb) -> String {
    let mut out = format!(
        "{}: checked, up to {} pieces, {} bytes\n{:<28} {:>12} {:>12} {:>12}\n",
        path.display(),
        db.max_pieces(),
        db.len_bytes(),
        "Black to move against White",
        "wins",
        "losses",
        "draws"
    );
    for (c, [_, wins, losses, draws]) in db.tallies() {
        let name = format!(
            "{}m{}k v {}m{}k",
            c.black_men, c.black_kings, c.white_men, c.white_kings
        );
        out.push_str(&format!("{name:<28} {wins:>12} {losses:>12} {draws:>12}\n"));
    }
    out
}

/// The folder databases live in: `dir` if given, else `egdb` in kingme's data directory.
pub fn folder(dir: Option<&Path>) -> anyhow::Result<PathBuf> {
    match dir {
        Some(dir) => Ok(dir.to_path_buf()),
        None => kingme_client::local::endgame_files::default_folder().context(
            "there is no data directory (no home directory is set): give a folder with --dir",
        ),
    }
}

/// The progress line of a build (with [`slice_text`] as its message): within 120 columns.
const PROGRESS: &str =
    "{elapsed_precise} [{bar:10}] {percent:>3}% of {human_len} positions, {eta} left: {msg}";

/// The slice being solved, in words: `5 pieces: Black 2 men 1 king v White 1 man 1 king`.
fn slice_text(pieces: impl std::fmt::Display, c: Counts) -> String {
    let side = |men: u8, kings: u8| {
        let mut parts = Vec::new();
        if men > 0 || kings == 0 {
            parts.push(count(usize::from(men), "man", "men"));
        }
        if kings > 0 {
            parts.push(count(usize::from(kings), "king", "kings"));
        }
        parts.join(" ")
    };
    format!(
        "{pieces} pieces: Black {} v White {}",
        side(c.black_men, c.black_kings),
        side(c.white_men, c.white_kings)
    )
}

fn build(pieces: u32, path: &Path, show_progress: bool) -> anyhow::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the folder {}", parent.display()))?;
    }
    let started = Instant::now();
    let bar = if show_progress {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(PROGRESS)
            .context("the progress style")?
            .progress_chars("=> "),
    );
    let tables = solve(pieces, |progress| {
        bar.set_length(progress.total);
        bar.set_position(progress.done);
        bar.set_message(slice_text(progress.pieces, progress.counts));
    });
    bar.finish_and_clear();
    let bytes = encode(&tables);
    let temporary = path.with_extension("kmdb.part");
    std::fs::write(&temporary, &bytes)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path)
        .with_context(|| format!("cannot move the database to {}", path.display()))?;
    if show_progress {
        println!(
            "{}: up to {pieces} pieces, {} slices, {} bytes, built in {:.1} s; verdicts \
             CRC-32 {:08x}",
            path.display(),
            tables.slices().len(),
            bytes.len(),
            started.elapsed().as_secs_f64(),
            tables.checksum()
        );
    }
    Ok(())
}

/// Reads and checks a database file; a damaged, truncated or foreign file is refused with the
/// reason (the server's reader, which its bots use too).
pub fn open(path: &Path) -> anyhow::Result<Arc<Egdb>> {
    Ok(kingme_shared::ai::egdb::open(path)?)
}

/// The database to use: `file` if given, else the largest in `dir` (or the data directory's
/// egdb folder); `Ok(None)` when there is none there.
pub fn locate(file: Option<&Path>, dir: Option<&Path>) -> anyhow::Result<Option<PathBuf>> {
    if let Some(file) = file {
        return Ok(Some(file.to_path_buf()));
    }
    Ok(find(&folder(dir)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::ai::egdb::Verdict;
    use kingme_shared::games::checkers::parse_fen;

    #[test]
    fn the_progress_line_fits_120_columns_and_counts_in_words() {
        let counts = |black_men, black_kings, white_men, white_kings| Counts {
            black_men,
            black_kings,
            white_men,
            white_kings,
        };
        assert_eq!(
            slice_text(2, counts(1, 0, 0, 1)),
            "2 pieces: Black 1 man v White 1 king"
        );
        assert_eq!(
            slice_text(5, counts(2, 1, 1, 1)),
            "5 pieces: Black 2 men 1 king v White 1 man 1 king"
        );
        // The widest line: every field at its widest.
        for message in [
            slice_text(6, counts(2, 1, 2, 1)),
            slice_text(6, counts(1, 2, 1, 2)),
        ] {
            let line = PROGRESS
                .replace("{elapsed_precise}", "99:59:59")
                .replace("{bar:10}", &"=".repeat(10))
                .replace("{percent:>3}", "100")
                .replace("{human_len}", "99,999,999,999")
                .replace("{eta}", "59m")
                .replace("{msg}", &message);
            assert!(line.chars().count() <= 120, "{} {line}", line.len());
        }
    }

    #[test]
    fn a_built_file_is_found_and_probed_and_a_damaged_one_refused() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        assert_eq!(find(dir.path()), None);
        let path = dir.path().join("nested").join(file_name(2));
        build(2, &path, false).expect("built");
        assert_eq!(find(&dir.path().join("nested")), Some(path.clone()));
        let db = open(&path).expect("opened");
        let summary = info(&path, &db);
        // The kings-only slice of one against one: every position drawn or won by a capture.
        assert!(summary.contains("0m1k v 0m1k"), "{summary}");
        // A king each in opposite corners: a draw. Three pieces are not in a two-piece file.
        let position = parse_fen("B:WK1:BK32").expect("a FEN");
        assert_eq!(db.verdict(&position), Some(Verdict::Draw));
        let three = parse_fen("B:WK1:BK32,K31").expect("a FEN");
        assert_eq!(db.verdict(&three), None);
        let mut bytes = std::fs::read(&path).expect("read");
        bytes.truncate(bytes.len() - 10);
        std::fs::write(&path, &bytes).expect("written");
        let err = open(&path).expect_err("refused");
        assert!(format!("{err:#}").contains("truncated"), "{err:#}");
    }
}
