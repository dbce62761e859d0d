//! Where the database lives when `--db` is not given: `kingme.db` (the server) or
//! `kingme-local.db` (the client's embedded server) in the platform's data directory, e.g.
//! `~/.local/share/kingme/` on Linux, or in `$KINGME_DATA_DIR` when that is set (tests, portable
//! setups). `:memory:` is a throwaway database.

use directories::ProjectDirs;
use std::path::PathBuf;

/// The `--db` value for a database that lives only as long as the server.
pub const IN_MEMORY: &str = ":memory:";

/// The file name of the standalone server's database.
pub const SERVER_DB_FILE: &str = "kingme.db";
/// The file name of the database of the client's embedded server, kept apart from a standalone
/// server's on the same machine.
pub const EMBEDDED_DB_FILE: &str = "kingme-local.db";

/// The environment variable that overrides the data directory.
pub const DATA_DIR_VARIABLE: &str = "KINGME_DATA_DIR";

/// `file` in `$KINGME_DATA_DIR`, else in the platform's data directory for kingme, or `None` when
/// the platform has none (no home directory).
#[must_use]
pub fn default_db_path(file: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(DATA_DIR_VARIABLE).filter(|dir| !dir.is_empty()) {
        return Some(PathBuf::from(dir).join(file));
    }
    ProjectDirs::from("", "", "kingme").map(|dirs| dirs.data_dir().join(file))
}
