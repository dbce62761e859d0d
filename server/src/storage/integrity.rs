//! The integrity check at start: a damaged database file is refused, with what to do, before
//! anything is read from it or written to it. SQLite's `integrity_check` reads every page, so
//! its cost grows with the file (about a second for a few hundred megabytes); it runs once, when
//! the server opens the file, and on every backup taken and restored.

use super::store::StoreError;
use rusqlite::Connection;
use std::path::Path;

/// Problems reported at most (SQLite stops counting there).
const MOST_PROBLEMS: u32 = 10;

/// SQLite's problems with the database `connection` holds; empty when it is sound.
pub fn problems(connection: &Connection) -> Result<Vec<String>, rusqlite::Error> {
    let mut statement = connection.prepare(&format!("PRAGMA integrity_check({MOST_PROBLEMS})"))?;
    let rows = statement.query_map([], |row| row.get::<_, String>(0))?;
    let found = rows.collect::<Result<Vec<_>, _>>()?;
    Ok(if found == ["ok"] { Vec::new() } else { found })
}

/// Refuses the database file at `path`, which `connection` holds, when it is damaged, saying
/// what is wrong and how to restore a backup.
pub fn check(connection: &Connection, path: &Path) -> Result<(), StoreError> {
    let found = match problems(connection) {
        Ok(found) if found.is_empty() => return Ok(()),
        Ok(found) => found.join("; "),
        Err(err) => err.to_string(),
    };
    let path = path.display();
    Err(StoreError::Corrupt(format!(
        "{path} is damaged ({found}), so the server does not serve it. Restore the latest \
         backup with `kingme-server restore BACKUP --db {path}`: it checks the backup and sets \
         the damaged file and its {path}-wal and {path}-shm aside. With no backup, save what \
         SQLite can still read (`sqlite3 {path} .recover > games.sql`) before anything else"
    )))
}
