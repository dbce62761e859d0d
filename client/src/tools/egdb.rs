//! `kingme egdb build --pieces N`: solves every checkers position with up to N pieces
//! ([`kingme_shared::ai::egdb`]) and writes the database file, with a progress line for each
//! pass; [`Loaded`] reads a database file and checks it before any use, for
//! `kingme analyze --egdb FILE`.

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use kingme_shared::ai::egdb::{EgdbView, encode, solve};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most pieces `egdb build` solves: the analysis visits every position on every pass, which
/// at five pieces already takes long on this machine.
pub const MAX_BUILD_PIECES: u32 = 5;

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
        /// The most pieces on the board (2 to 5).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_BUILD_PIECES)))]
        pieces: u32,
        /// The file to write (default: checkers-wld-<N>.kmdb in the current folder).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// Runs `kingme egdb`.
pub fn run(args: &EgdbArgs) -> anyhow::Result<()> {
    match &args.command {
        EgdbCommand::Build { pieces, out } => build(*pieces, out.as_deref()),
    }
}

fn build(pieces: u32, out: Option<&Path>) -> anyhow::Result<()> {
    let path = out.map_or_else(
        || PathBuf::from(format!("checkers-wld-{pieces}.kmdb")),
        Path::to_path_buf,
    );
    let started = Instant::now();
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").context("the progress style")?,
    );
    let tables = solve(pieces, |progress| {
        spinner.set_message(format!(
            "{} pieces, pass {}: {} positions decided",
            progress.pieces, progress.pass, progress.decided
        ));
        spinner.tick();
    });
    spinner.finish_and_clear();
    let bytes = encode(&tables);
    let temporary = path.with_extension("kmdb.part");
    std::fs::write(&temporary, &bytes)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, &path)
        .with_context(|| format!("cannot move the database to {}", path.display()))?;
    let positions: usize = tables.slices.iter().map(|(_, codes)| codes.len()).sum();
    println!(
        "{}: up to {pieces} pieces, {} slices, {positions} indices, {} bytes, built in {:.1} s",
        path.display(),
        tables.slices.len(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A database file read whole into memory and checked once when opened. (Not a memory map:
/// `memmap2::Mmap::map` is `unsafe`, and the workspace forbids unsafe code; files up to five
/// pieces are a few megabytes.)
pub struct Loaded {
    bytes: Vec<u8>,
}

/// The largest database file read: far above the five-piece file.
const MAX_FILE_BYTES: u64 = 1 << 30;

impl Loaded {
    /// Reads and checks a database file; a damaged, truncated or foreign file is refused with
    /// the reason.
    pub fn open(path: &Path) -> anyhow::Result<Loaded> {
        let size = std::fs::metadata(path)
            .with_context(|| format!("cannot open the endgame database {}", path.display()))?
            .len();
        if size > MAX_FILE_BYTES {
            bail!(
                "{} is {size} bytes, larger than any kingme endgame database",
                path.display()
            );
        }
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot read the endgame database {}", path.display()))?;
        if let Err(err) = EgdbView::parse(&bytes) {
            bail!("{}: {err}", path.display());
        }
        Ok(Loaded { bytes })
    }

    /// The checked view of the file.
    pub fn view(&self) -> anyhow::Result<EgdbView<'_>> {
        EgdbView::parse(&self.bytes).map_err(anyhow::Error::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::ai::egdb::Verdict;
    use kingme_shared::games::checkers::parse_fen;

    #[test]
    fn a_built_file_is_mapped_and_probed_and_a_damaged_one_refused() {
        let dir = std::env::temp_dir().join(format!("kingme-egdb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("two.kmdb");
        build(2, Some(&path)).expect("built");
        let loaded = Loaded::open(&path).expect("opened");
        let view = loaded.view().expect("checked");
        // A king each in opposite corners: a draw. Three pieces are not in a two-piece file.
        let position = parse_fen("B:WK1:BK32").expect("a FEN");
        assert_eq!(view.verdict(&position), Some(Verdict::Draw));
        let three = parse_fen("B:WK1:BK32,K31").expect("a FEN");
        assert_eq!(view.verdict(&three), None);
        let mut bytes = std::fs::read(&path).expect("read");
        bytes.truncate(bytes.len() - 10);
        std::fs::write(&path, &bytes).expect("written");
        let err = Loaded::open(&path).err().expect("refused");
        assert!(format!("{err:#}").contains("truncated"), "{err:#}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
