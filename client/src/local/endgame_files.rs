//! Where checkers endgame databases live on this machine: `checkers-wld-N.kmdb` files in the
//! `egdb` folder of kingme's data directory, written by `kingme egdb build` and read by the
//! engine tools, `kingme bot` and the embedded server's bots ([`open_local`]).

use kingme_shared::ai::egdb::Egdb;
use kingme_shared::ai::egdb::EndgameFileError;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most pieces `egdb build` solves.
pub const MAX_BUILD_PIECES: u32 = 6;

/// The file name of the database of up to `pieces` pieces.
#[must_use]
pub fn file_name(pieces: u32) -> String {
    format!("checkers-wld-{pieces}.kmdb")
}

/// The `egdb` folder of kingme's data directory; `None` without a home directory.
#[must_use]
pub fn default_folder() -> Option<PathBuf> {
    crate::local::paths::data_dir().map(|data| data.join("egdb"))
}

/// The database file with the most pieces in `dir` (named as `egdb build` names them), if any.
#[must_use]
pub fn find(dir: &Path) -> Option<PathBuf> {
    (2..=MAX_BUILD_PIECES)
        .rev()
        .map(|pieces| dir.join(file_name(pieces)))
        .find(|path| path.is_file())
}

/// The largest database in the default folder, if one was built.
#[must_use]
pub fn local() -> Option<PathBuf> {
    find(&default_folder()?)
}

/// Maps and checks the largest database in the default folder, off the async reactor (the
/// checksum reads the whole file): `None` when none was built, else
/// the database or why it cannot be used.
pub(crate) async fn open_local() -> Option<Result<Arc<Egdb>, EndgameFileError>> {
    let path = local()?;
    tokio::task::spawn_blocking(move || kingme_shared::ai::egdb::open(&path))
        .await
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_database_in_a_folder_is_found() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        assert_eq!(find(dir.path()), None);
        for pieces in [2, 4] {
            std::fs::write(dir.path().join(file_name(pieces)), b"x").expect("written");
        }
        std::fs::write(dir.path().join("checkers-wld-9.kmdb"), b"x").expect("written");
        assert_eq!(find(dir.path()), Some(dir.path().join(file_name(4))));
    }
}
