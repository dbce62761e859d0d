//! The database file's identity, so the server never writes into nothing. While it runs, the
//! server compares the file at its path with the one it opened (device and inode on Unix; on
//! other systems only that a file is there) before every commit and periodically: a file that
//! was removed or replaced stops every write with a loud error instead of carrying on into an
//! unlinked file. At start, a seal beside the database (`<file>-seal`, holding the database's
//! random id, also kept in SQLite's `application_id`) tells a database this server used before
//! from one that is missing, empty or foreign: such a start is refused unless the operator says
//! `--new-database`. The seal also names the file (device and inode) it was written beside, so
//! a write-ahead log left by another file is known before SQLite could replay it
//! ([`super::stranded_log`]).

use super::store::StoreError;
use std::path::{Path, PathBuf};

/// Which file a path named when the database was opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIdentity {
    path: PathBuf,
    key: (u64, u64),
}

#[cfg(unix)]
fn key_of(metadata: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

#[cfg(not(unix))]
fn key_of(_metadata: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

impl FileIdentity {
    /// The identity of the file at `path` now.
    pub fn of(path: &Path) -> Result<FileIdentity, StoreError> {
        let metadata = std::fs::metadata(path).map_err(|err| {
            StoreError::Database(format!("cannot read {}: {err}", path.display()))
        })?;
        Ok(FileIdentity {
            path: path.to_owned(),
            key: key_of(&metadata),
        })
    }

    /// The path the file was opened at.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's key (device and inode on Unix).
    #[must_use]
    pub fn key(&self) -> (u64, u64) {
        self.key
    }

    /// What became of the file, `None` while the path still names it.
    fn change(&self) -> Option<&'static str> {
        match std::fs::metadata(&self.path) {
            Ok(metadata) if key_of(&metadata) == self.key => None,
            Ok(_) => Some("was replaced by another file"),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Some("was removed"),
            Err(_) => Some("cannot be read"),
        }
    }

    /// Whether the path still names the same file (quietly; [`FileIdentity::check`] says why).
    #[must_use]
    pub fn is_unchanged(&self) -> bool {
        self.change().is_none()
    }

    /// Whether the path still names the same file; a loud error saying what to do if not.
    pub fn check(&self) -> Result<(), StoreError> {
        let Some(what) = self.change() else {
            return Ok(());
        };
        let err = StoreError::Database(format!(
            "the database file {} {what} while the server ran; nothing more is written: stop \
             the server (it sets the log it leaves, {}-wal and -shm, aside), then put the \
             file back or restore a backup with `kingme-server restore BACKUP --db {}` (never \
             copy a file over the database while a -wal is beside it), and start it again",
            self.path.display(),
            self.path.display(),
            self.path.display()
        ));
        tracing::error!(%err, "THE DATABASE FILE IS GONE");
        Err(err)
    }
}

/// The seal file of the database at `path`.
#[must_use]
pub fn seal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-seal");
    PathBuf::from(name)
}

/// What a seal says: the database's id, and the file it was written beside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seal {
    /// The database's random id (SQLite's `application_id`).
    pub id: i32,
    /// The key of the file the seal was written beside; `None` in seals of older servers.
    pub file: Option<(u64, u64)>,
}

impl Seal {
    fn parse(text: &str) -> Option<Seal> {
        let mut words = text.split_whitespace();
        let id = words.next()?.parse().ok()?;
        let file = match (words.next(), words.next()) {
            (Some(device), Some(inode)) => Some((device.parse().ok()?, inode.parse().ok()?)),
            _ => None,
        };
        Some(Seal { id, file })
    }
}

/// The seal beside the database at `path`, `None` without one.
pub fn read_seal(path: &Path) -> Result<Option<Seal>, StoreError> {
    let seal = seal_path(path);
    match std::fs::read_to_string(&seal) {
        Ok(text) => Seal::parse(&text).map(Some).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "{} does not hold a database id; remove it to start afresh",
                seal.display()
            ))
        }),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(StoreError::Database(format!(
            "cannot read {}: {err}",
            seal.display()
        ))),
    }
}

/// Writes the seal of the database at `path`: its id and the file there now.
pub fn write_seal(path: &Path, id: i32) -> Result<(), StoreError> {
    let seal = seal_path(path);
    let (device, inode) = FileIdentity::of(path)?.key;
    std::fs::write(&seal, format!("{id} {device} {inode}\n"))
        .map_err(|err| StoreError::Database(format!("cannot write {}: {err}", seal.display())))
}

/// The refusal to start on a database that is not the one the seal names.
#[must_use]
pub fn not_the_sealed_database(path: &Path, what: &str) -> StoreError {
    StoreError::Database(format!(
        "{} {what}, but {} says this server kept its games there: restore the database file, \
         or start with --new-database to begin again with an empty one",
        path.display(),
        seal_path(path).display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_or_replaced_file_is_noticed() {
        let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("{err}"));
        let path = dir.path().join("games.db");
        std::fs::write(&path, b"one").unwrap_or_else(|err| panic!("{err}"));
        let identity = FileIdentity::of(&path).unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(identity.check(), Ok(()));
        // Held open, as the server's database is: its inode is not reused while removed.
        let _held = std::fs::File::open(&path).unwrap_or_else(|err| panic!("{err}"));
        std::fs::remove_file(&path).unwrap_or_else(|err| panic!("{err}"));
        let err = identity.check().expect_err("a removed file");
        assert!(err.to_string().contains("was removed"), "{err}");
        // A new file at the same path (a new inode) is another database.
        let other = dir.path().join("other.db");
        std::fs::write(&other, b"two").unwrap_or_else(|err| panic!("{err}"));
        std::fs::rename(&other, &path).unwrap_or_else(|err| panic!("{err}"));
        #[cfg(unix)]
        {
            let err = identity.check().expect_err("a replaced file");
            assert!(err.to_string().contains("replaced"), "{err}");
        }
    }

    #[test]
    fn a_seal_is_written_and_read_back() {
        let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("{err}"));
        let path = dir.path().join("games.db");
        assert_eq!(read_seal(&path), Ok(None));
        std::fs::write(&path, b"db").unwrap_or_else(|err| panic!("{err}"));
        write_seal(&path, 12345).unwrap_or_else(|err| panic!("{err}"));
        let file = FileIdentity::of(&path).map(|identity| identity.key()).ok();
        assert_eq!(read_seal(&path), Ok(Some(Seal { id: 12345, file })));
        // An older server's seal names no file.
        std::fs::write(seal_path(&path), "77\n").unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(read_seal(&path), Ok(Some(Seal { id: 77, file: None })));
    }
}
