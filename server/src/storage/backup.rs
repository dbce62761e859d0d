//! Backups and restores of an SQLite database file, the two halves of `kingme-server backup`
//! and `kingme-server restore`.
//!
//! A backup is taken online, beside a running server, with SQLite's backup API in one step (one
//! read transaction, so the copy is one committed state of the database: in WAL mode the server
//! goes on writing meanwhile). It is checked (`integrity_check`), made a file that stands alone
//! (rollback journal, no `-wal` beside it) and renamed into place only when whole, so an
//! interrupted backup never replaces a good one.
//!
//! A restore never copies over a live file: it refuses while a server has the database open, checks
//! the backup, copies it beside the database, sets the old file and its `-wal` and `-shm` aside
//! (renamed, never deleted), renames the copy into place and writes the seal for it. No log of
//! the old file can then be replayed into the restored one ([`super::stranded_log`]).

use super::file_identity;
use super::integrity;
use super::records::unix_ms;
use super::stranded_log::{beside, log_files};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a backup or a restore was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The file to back up or restore from is not there.
    #[error("{0} does not exist")]
    Missing(PathBuf),
    /// A server has the database open; a restore under it would be overwritten or damage it.
    #[error(
        "a server has {0} open: stop it first (a restore under a running server is lost or \
         damages the file)"
    )]
    InUse(PathBuf),
    /// The copy failed SQLite's integrity check.
    #[error("{path} is damaged ({problems}); nothing was replaced")]
    Damaged {
        /// The copy.
        path: PathBuf,
        /// What the integrity check found.
        problems: String,
    },
    /// SQLite refused.
    #[error("{what}: {source}")]
    Sqlite {
        /// What was being done.
        what: String,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// A file could not be written, renamed or synced.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// What the system said.
        source: std::io::Error,
    },
}

fn sqlite(what: impl Into<String>) -> impl FnOnce(rusqlite::Error) -> BackupError {
    let what = what.into();
    move |source| BackupError::Sqlite { what, source }
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> BackupError {
    let what = what.into();
    move |source| BackupError::Io { what, source }
}

/// How often, and how long apart, a step the source is busy for is tried again.
const BUSY_TRIES: u32 = 100;
const BUSY_PAUSE: Duration = Duration::from_millis(50);

/// Opens `path` for reading a copy from it, never checkpointing into it on close: the tools
/// leave the source as they found it.
fn open_source(path: &Path) -> Result<Connection, BackupError> {
    if !path.exists() {
        return Err(BackupError::Missing(path.to_owned()));
    }
    let connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(sqlite(format!("cannot open {}", path.display())))?;
    connection
        .set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .map_err(sqlite("cannot keep the source unchanged"))?;
    connection
        .busy_timeout(Duration::from_secs(5))
        .map_err(sqlite("cannot set the busy timeout"))?;
    Ok(connection)
}

/// Copies the database `source` holds into a new file at `to` (any file there is replaced),
/// checks it and makes it stand alone. Returns the copy's connection, still open.
fn copy_checked(source: &Connection, to: &Path) -> Result<Connection, BackupError> {
    remove_if_there(to)?;
    let mut copy =
        Connection::open(to).map_err(sqlite(format!("cannot create {}", to.display())))?;
    {
        let backup = Backup::new(source, &mut copy).map_err(sqlite("cannot start the copy"))?;
        let mut busy = 0;
        loop {
            match backup.step(-1).map_err(sqlite("the copy failed"))? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked if busy < BUSY_TRIES => {
                    busy += 1;
                    std::thread::sleep(BUSY_PAUSE);
                }
                _ => {
                    return Err(BackupError::InUse(to.to_owned()));
                }
            }
        }
    }
    let problems = integrity::problems(&copy).map_err(sqlite("cannot check the copy"))?;
    if !problems.is_empty() {
        drop(copy);
        remove_if_there(to)?;
        return Err(BackupError::Damaged {
            path: to.to_owned(),
            problems: problems.join("; "),
        });
    }
    // A rollback journal: the file is whole by itself, nothing beside it to lose or to mix up.
    copy.pragma_update(None, "journal_mode", "DELETE")
        .map_err(sqlite("cannot make the copy stand alone"))?;
    Ok(copy)
}

fn remove_if_there(path: &Path) -> Result<(), BackupError> {
    match std::fs::remove_file(path) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            Err(io(format!("cannot remove {}", path.display()))(err))
        }
        _ => Ok(()),
    }
}

/// Flushes `path` (a file, or the folder holding renamed files) to the disk.
fn sync(path: &Path) -> Result<(), BackupError> {
    let what = || format!("cannot sync {}", path.display());
    std::fs::File::open(path)
        .and_then(|file| file.sync_all())
        .map_err(|source| io(what())(source))
}

fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Takes a backup of the database at `database` into `to`, online: a server may be running on
/// it. The copy is checked and renamed into place only when whole.
pub fn backup(database: &Path, to: &Path) -> Result<(), BackupError> {
    let source = open_source(database)?;
    let partial = beside(to, ".partial");
    let copy = copy_checked(&source, &partial)?;
    drop(copy);
    drop(source);
    sync(&partial)?;
    std::fs::rename(&partial, to).map_err(io(format!(
        "cannot rename {} to {}",
        partial.display(),
        to.display()
    )))?;
    sync(folder_of(to))
}

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The old database file and its log, renamed aside.
    pub set_aside: Vec<PathBuf>,
}

/// Holds the database at `path` so that no server uses it meanwhile; an error if one does.
/// `None` when there is no database file there (or one SQLite cannot read: no server uses it).
fn hold(path: &Path) -> Result<Option<Connection>, BackupError> {
    if !path.exists() {
        return Ok(None);
    }
    let Ok(probe) = open_source(path) else {
        return Ok(None);
    };
    probe
        .busy_timeout(Duration::ZERO)
        .map_err(sqlite("cannot set the busy timeout"))?;
    // In WAL mode every open connection keeps a shared lock on the file: a server's too.
    let held = probe
        .pragma_update(None, "locking_mode", "EXCLUSIVE")
        .and_then(|()| probe.execute_batch("BEGIN EXCLUSIVE"));
    match held {
        Ok(()) => Ok(Some(probe)),
        Err(err)
            if matches!(
                err.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ) =>
        {
            Err(BackupError::InUse(path.to_owned()))
        }
        Err(_) => Ok(None),
    }
}

/// Restores the backup at `backup` as the database at `database`, which no server may have
/// open: checked first, the old file and its `-wal` and `-shm` set aside, the seal written for
/// the restored file.
pub fn restore(backup: &Path, database: &Path) -> Result<Restored, BackupError> {
    let source = open_source(backup)?;
    let restoring = beside(database, ".restoring");
    let copy = copy_checked(&source, &restoring)?;
    drop(source);
    let id: i32 = copy
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .map_err(sqlite("cannot read the backup's database id"))?;
    drop(copy);
    sync(&restoring)?;
    let held = match hold(database) {
        Ok(held) => held,
        Err(err) => {
            remove_if_there(&restoring)?;
            return Err(err);
        }
    };
    let stamp = unix_ms();
    let mut set_aside = Vec::new();
    for file in std::iter::once(database.to_owned()).chain(log_files(database)) {
        if file.exists() {
            let to = beside(&file, &format!(".before-restore-{stamp}"));
            std::fs::rename(&file, &to)
                .map_err(io(format!("cannot set {} aside", file.display())))?;
            set_aside.push(to);
        }
    }
    drop(held);
    std::fs::rename(&restoring, database).map_err(io(format!(
        "cannot rename {} to {}",
        restoring.display(),
        database.display()
    )))?;
    sync(folder_of(database))?;
    let sealed = if id == 0 {
        // A backup of a database no server sealed: the next start seals it.
        remove_if_there(&file_identity::seal_path(database))
    } else {
        file_identity::write_seal(database, id).map_err(|err| BackupError::Io {
            what: "cannot write the seal".to_owned(),
            source: std::io::Error::other(err.to_string()),
        })
    };
    sealed?;
    Ok(Restored { set_aside })
}
