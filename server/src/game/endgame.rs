//! The checkers endgame database the server's bots consult: read from a file once (at start, by
//! whoever configures the server) and shared by every search. A damaged, truncated or foreign
//! file is refused with the reason, never used silently. (Read whole, not memory-mapped:
//! `memmap2::Mmap::map` is `unsafe`, and the workspace forbids unsafe code.)

use kingme_shared::ai::egdb::{Egdb, EgdbError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest database file read: far above the six-piece file.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Why an endgame database file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum EndgameFileError {
    #[error("cannot read the endgame database {path}: {reason}")]
    Read {
        path: PathBuf,
        reason: std::io::Error,
    },
    #[error("{path} is {size} bytes, larger than any kingme endgame database")]
    TooLarge { path: PathBuf, size: u64 },
    #[error("{path}: {reason}; build it again with `kingme egdb build`")]
    Damaged { path: PathBuf, reason: EgdbError },
}

/// Reads and checks the database file at `path`.
pub fn open(path: &Path) -> Result<Arc<Egdb>, EndgameFileError> {
    let read = |reason| EndgameFileError::Read {
        path: path.to_path_buf(),
        reason,
    };
    let size = std::fs::metadata(path).map_err(read)?.len();
    if size > MAX_FILE_BYTES {
        return Err(EndgameFileError::TooLarge {
            path: path.to_path_buf(),
            size,
        });
    }
    let bytes = std::fs::read(path).map_err(read)?;
    Egdb::parse(bytes)
        .map(Arc::new)
        .map_err(|reason| EndgameFileError::Damaged {
            path: path.to_path_buf(),
            reason,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_damaged_file_is_refused_with_its_path() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let missing = dir.path().join("none.kmegdb");
        let err = open(&missing).expect_err("missing");
        assert!(matches!(err, EndgameFileError::Read { .. }), "{err}");
        assert!(err.to_string().contains("none.kmegdb"), "{err}");
        let damaged = dir.path().join("bad.kmegdb");
        std::fs::write(&damaged, b"not a database at all").expect("written");
        let err = open(&damaged).expect_err("damaged");
        assert!(matches!(err, EndgameFileError::Damaged { .. }), "{err}");
        assert!(err.to_string().contains("egdb build"), "{err}");
    }
}
