//! Opening an SQLite store: a file (created if needed, checked for damage, sealed, migrated, in
//! WAL mode with its log checkpointed beside the writer) or memory; and the settings in force,
//! for the server's start and the tests.

use super::{STATEMENT_CACHE, SqliteStore, database};
#[cfg(test)]
use crate::storage::checkpointer::Checkpoint;
use crate::storage::checkpointer::{self, Checkpointer};
use crate::storage::durability::Durability;
use crate::storage::file_identity::{self, FileIdentity};
use crate::storage::integrity;
use crate::storage::schema;
use crate::storage::store::StoreError;
use crate::storage::stranded_log::{self, LogKeeper};
use rusqlite::Connection;
use std::path::Path;
use std::time::Duration;

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, or a private in-memory database for
    /// `:memory:`, and migrates it to the current schema.
    pub fn open(path: &Path, now_ms: i64) -> Result<SqliteStore, StoreError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|err| {
                StoreError::Database(format!("cannot create {}: {err}", parent.display()))
            })?;
        }
        let connection = Connection::open(path).map_err(|err| {
            StoreError::Database(format!("cannot open {}: {err}", path.display()))
        })?;
        let in_memory = path == Path::new(crate::storage::location::IN_MEMORY);
        if !in_memory {
            // Before the migrations write anything.
            integrity::check(&connection, path)?;
        }
        let mut store = SqliteStore::from_connection(connection, now_ms)?;
        if !in_memory {
            let file = FileIdentity::of(path)?;
            store.log_keeper = Some(LogKeeper::new(file.clone()));
            store.file = Some(file);
            // The log is checkpointed beside the writer, not inside its commits.
            store
                .connection
                .pragma_update(
                    None,
                    "wal_autocheckpoint",
                    checkpointer::WRITER_BACKSTOP_PAGES,
                )
                .map_err(database)?;
            store.checkpointer = Some(Checkpointer::start(path)?);
        }
        Ok(store)
    }

    /// Opens the database at `path` as [`SqliteStore::open`] does, refusing one that is not
    /// the database this server used before (see [`file_identity`]): a missing file, or
    /// an empty or foreign one, where the seal beside it names another. `new_database` accepts
    /// it anyway (the operator's `--new-database`); the seal then names the new database.
    pub fn open_sealed(
        path: &Path,
        now_ms: i64,
        new_database: bool,
    ) -> Result<SqliteStore, StoreError> {
        if path == Path::new(crate::storage::location::IN_MEMORY) {
            return SqliteStore::open(path, now_ms);
        }
        let seal = file_identity::read_seal(path)?;
        if seal.is_some() && !new_database && !path.exists() {
            return Err(file_identity::not_the_sealed_database(path, "is missing"));
        }
        stranded_log::set_aside_foreign(path, seal);
        let store = SqliteStore::open(path, now_ms)?;
        let current: i32 = store
            .connection
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .map_err(database)?;
        if let Some(sealed) = seal
            && sealed.id != current
            && !new_database
        {
            return Err(file_identity::not_the_sealed_database(
                path,
                "is another database (an empty or foreign one)",
            ));
        }
        let id = if current == 0 {
            // Any positive id: clamping a random i32 with max(1) made half of all databases id 1.
            let id = rand::random_range(1..=i32::MAX);
            store
                .connection
                .pragma_update(None, "application_id", id)
                .map_err(database)?;
            id
        } else {
            current
        };
        file_identity::write_seal(path, id)?;
        Ok(store)
    }

    /// Takes an open connection, sets it up (WAL, [`Durability::Process`], foreign keys) and
    /// migrates it.
    pub fn from_connection(
        mut connection: Connection,
        now_ms: i64,
    ) -> Result<SqliteStore, StoreError> {
        // WAL lets readers (a later admin tool) work beside the server, and in WAL mode
        // `synchronous=NORMAL` hands each commit to the operating system before it returns, so a
        // killed process loses nothing that was acknowledged.
        connection
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(database)?;
        connection
            .pragma_update(
                None,
                "synchronous",
                Durability::Process.sqlite_synchronous(),
            )
            .map_err(database)?;
        connection
            .pragma_update(None, "foreign_keys", "ON")
            .map_err(database)?;
        // SQLite's own page cache (2,000 KiB by default) only repeats the operating system's
        // cache of the file for a working set this small, and it stays allocated after a load
        // (docs/measurements/memory.md): 512 KiB (negative: KiB, not pages).
        connection
            .pragma_update(None, "cache_size", -512)
            .map_err(database)?;
        connection
            .busy_timeout(Duration::from_secs(5))
            .map_err(database)?;
        // Room for every statement the store uses, so the hot ones are never prepared again.
        connection.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        schema::migrate(&mut connection, now_ms)?;
        Ok(SqliteStore {
            checkpointer: None,
            connection,
            file: None,
            log_keeper: None,
        })
    }

    /// Makes every later commit keep `durability`'s promise.
    pub fn set_durability(&mut self, durability: Durability) -> Result<(), StoreError> {
        self.connection
            .pragma_update(None, "synchronous", durability.sqlite_synchronous())
            .map_err(database)
    }

    #[cfg(test)]
    /// SQLite's `synchronous` setting in force (1 = NORMAL, 2 = FULL).
    pub fn synchronous(&self) -> Result<i64, StoreError> {
        self.connection
            .pragma_query_value(None, "synchronous", |row| row.get(0))
            .map_err(database)
    }

    /// The connection itself, for tests that set up rows no request writes.
    #[cfg(test)]
    pub(crate) fn connection(&self) -> &Connection {
        &self.connection
    }

    #[cfg(test)]
    /// Checkpoints a file database's log now, on its checkpointing thread (`None` in memory).
    pub fn checkpoint_now(&self) -> Option<Result<Checkpoint, StoreError>> {
        self.checkpointer.as_ref().map(Checkpointer::now)
    }

    #[cfg(test)]
    /// The writer's own automatic checkpoint, in pages of log.
    pub fn writer_autocheckpoint(&self) -> Result<i64, StoreError> {
        self.connection
            .pragma_query_value(None, "wal_autocheckpoint", |row| row.get(0))
            .map_err(database)
    }

    #[cfg(test)]
    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        schema::version(&self.connection)
    }

    #[cfg(test)]
    /// The journal mode in force (`wal` for a file database).
    pub fn journal_mode(&self) -> Result<String, StoreError> {
        self.connection
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
            .map_err(database)
    }
}
