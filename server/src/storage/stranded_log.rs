//! A write-ahead log is only ever replayed into the file it was written for.
//!
//! SQLite keeps a database's log beside it by name (`<db>-wal`, with its index `<db>-shm`), and
//! nothing in the log says which file it belongs to: whatever file is at `<db>` when a
//! connection opens gets the log's pages written over its own. When the file was replaced or
//! removed under a running server, SQLite closes without checkpointing or deleting the log (the
//! file it belongs to is gone), so the log stays beside whatever file is put there next; a backup
//! copied there then gets pages of another state of the database and is damaged (an index
//! missing rows, pages that point nowhere).
//!
//! Two guards close that path. [`LogKeeper`], held by the store, sets the log aside when the
//! store closes and its file is no longer at the path. [`set_aside_foreign`], run before SQLite
//! opens the file, sets the log aside when the file at the path is not the one the seal was
//! written beside (a server killed after its file was replaced leaves its log too). A log set
//! aside is renamed, never deleted, and said loudly: if the host knows better, it can put it
//! back.

use super::file_identity::{FileIdentity, Seal};
use super::records::unix_ms;
use std::path::{Path, PathBuf};

/// `path` with `suffix` appended to its file name (`g.db` → `g.db-wal`).
#[must_use]
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The log and its index of the database at `path`.
#[must_use]
pub fn log_files(path: &Path) -> [PathBuf; 2] {
    [beside(path, "-wal"), beside(path, "-shm")]
}

/// Renames the log and index of the database at `path`, where there are any, to
/// `<name>.<label>-<ms>`, and says so loudly with `why`. Returns the new names.
pub fn set_aside(path: &Path, label: &str, why: &str) -> Vec<PathBuf> {
    let stamp = unix_ms();
    let mut moved = Vec::new();
    for file in log_files(path) {
        if !file.exists() {
            continue;
        }
        let to = beside(&file, &format!(".{label}-{stamp}"));
        match std::fs::rename(&file, &to) {
            Ok(()) => {
                tracing::error!(
                    from = %file.display(),
                    to = %to.display(),
                    "THE DATABASE LOG WAS SET ASIDE: {why}; it is never replayed into another file"
                );
                moved.push(to);
            }
            Err(err) => tracing::error!(
                file = %file.display(),
                %err,
                "cannot set the database log aside: {why}; move it away by hand before the \
                 server starts again"
            ),
        }
    }
    moved
}

/// Before SQLite opens the database at `path`: sets aside a log that was left for another file
/// than the one there now (the seal names the file it was written beside).
pub fn set_aside_foreign(path: &Path, seal: Option<Seal>) -> Vec<PathBuf> {
    let Some(sealed_file) = seal.and_then(|seal| seal.file) else {
        return Vec::new();
    };
    if !beside(path, "-wal").exists() {
        return Vec::new();
    }
    let here = FileIdentity::of(path).ok().map(|identity| identity.key());
    if here == Some(sealed_file) {
        return Vec::new();
    }
    set_aside(
        path,
        "stranded",
        "it was written for the database file that was here before, not for the one there now",
    )
}

/// Held by an open store: when the store has closed (its connections first, so SQLite has let
/// go of the log) and its file is no longer at the path, sets the log it left aside.
#[derive(Debug)]
pub struct LogKeeper {
    file: FileIdentity,
}

impl LogKeeper {
    /// Keeps the log of the file `file` names.
    #[must_use]
    pub fn new(file: FileIdentity) -> LogKeeper {
        LogKeeper { file }
    }
}

impl Drop for LogKeeper {
    fn drop(&mut self) {
        if !self.file.is_unchanged() {
            set_aside(
                self.file.path(),
                "stranded",
                "its database file was replaced or removed while the server ran",
            );
        }
    }
}
