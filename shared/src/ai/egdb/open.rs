//! Opening a database file, as the server's bots, `kingme bot` and the engine tools do: mapped
//! and checked whole (its checksum) once, then shared by every search, which decodes only the
//! blocks it probes. A damaged, truncated or foreign file is refused with the reason, never used
//! silently.

use super::{Egdb, EgdbError, Storage};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest database file read: far above the six-piece file.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Why an endgame database file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum EndgameFileError {
    /// The file could not be opened, measured or mapped.
    #[error("cannot read the endgame database {path}: {reason}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        reason: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("{path} is {size} bytes, larger than any kingme endgame database")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The file is not a whole kingme database; every reason ends with what to do (build the
    /// file again, with its piece count).
    #[error("{path}: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: EgdbError,
    },
}

/// Maps and checks the database file at `path` (reading it whole: run it off an async reactor).
///
/// # Errors
/// The file cannot be read, is too large, or is not a whole kingme database.
pub fn open(path: &Path) -> Result<Arc<Egdb>, EndgameFileError> {
    let read = |reason| EndgameFileError::Read {
        path: path.to_path_buf(),
        reason,
    };
    let file = std::fs::File::open(path).map_err(read)?;
    let size = file.metadata().map_err(read)?.len();
    if size > MAX_FILE_BYTES {
        return Err(EndgameFileError::TooLarge {
            path: path.to_path_buf(),
            size,
        });
    }
    let bytes = Storage::map(&file).map_err(read)?;
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
    fn a_good_file_is_mapped_and_a_missing_or_damaged_one_refused_with_its_path() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let missing = dir.path().join("none.kmegdb");
        let err = open(&missing).expect_err("missing");
        assert!(matches!(err, EndgameFileError::Read { .. }), "{err}");
        assert!(err.to_string().contains("none.kmegdb"), "{err}");
        let good = dir.path().join("two.kmegdb");
        let bytes = crate::ai::egdb::encode(&crate::ai::egdb::solve(2, |_| {}));
        std::fs::write(&good, &bytes).expect("written");
        let db = open(&good).expect("a good file opens");
        assert!(db.is_mapped());
        assert_eq!(db.len_bytes(), bytes.len());
        let damaged = dir.path().join("bad.kmegdb");
        std::fs::write(&damaged, b"not a database at all").expect("written");
        let err = open(&damaged).expect_err("damaged");
        assert!(matches!(err, EndgameFileError::Damaged { .. }), "{err}");
        assert!(err.to_string().contains("egdb build"), "{err}");
    }
}
