//! The SQLite store's SQL of moderation: the sanctions on names and the admin log (schema
//! version 6), for the [`Store`](crate::storage::store::Store) methods of the same names.

use super::{SqliteStore, database, limit};
use crate::storage::moderation::{ActionColumns, log_entry};
use crate::storage::sanctions::{SanctionKind, Sanctions};
use crate::storage::store::StoreError;
use kingme_shared::domain::AdminLogEntry;
use rusqlite::params;

impl SqliteStore {
    pub(super) fn put_sanction(
        &mut self,
        name: &str,
        kind: SanctionKind,
        reason: Option<&str>,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.connection
            .prepare_cached(
                "INSERT INTO sanctions (name, kind, reason, at_ms) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (name, kind) DO UPDATE SET reason = excluded.reason, \
                 at_ms = excluded.at_ms",
            )
            .and_then(|mut statement| statement.execute(params![name, kind.code(), reason, at_ms]))
            .map_err(database)?;
        Ok(())
    }

    pub(super) fn delete_sanction(
        &mut self,
        name: &str,
        kind: SanctionKind,
    ) -> Result<bool, StoreError> {
        let lifted = self
            .connection
            .prepare_cached("DELETE FROM sanctions WHERE name = ?1 AND kind = ?2")
            .and_then(|mut statement| statement.execute(params![name, kind.code()]))
            .map_err(database)?;
        Ok(lifted > 0)
    }

    pub(super) fn sanctions_of(&mut self, name: &str) -> Result<Sanctions, StoreError> {
        let mut statement = self
            .connection
            .prepare_cached("SELECT kind, reason FROM sanctions WHERE name = ?1")
            .map_err(database)?;
        let rows = statement
            .query_map([name], |row| Ok((row.get(0)?, row.get(1)?)))
            .map_err(database)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(database)?;
        Ok(Sanctions::from_rows(rows)?)
    }

    pub(super) fn insert_admin_log(&mut self, entry: &AdminLogEntry) -> Result<(), StoreError> {
        let columns = ActionColumns::of(&entry.action);
        self.connection
            .prepare_cached(
                "INSERT INTO admin_log (at_ms, admin, fingerprint, action, target, detail) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut statement| {
                statement.execute(params![
                    entry.at_ms,
                    entry.admin,
                    entry.fingerprint,
                    columns.action,
                    columns.target,
                    columns.detail,
                ])
            })
            .map_err(database)?;
        Ok(())
    }

    pub(super) fn latest_admin_log(
        &mut self,
        limit_to: usize,
    ) -> Result<Vec<AdminLogEntry>, StoreError> {
        let mut statement = self
            .connection
            .prepare_cached(
                "SELECT at_ms, admin, fingerprint, action, target, detail FROM admin_log \
                 ORDER BY id DESC LIMIT ?1",
            )
            .map_err(database)?;
        let rows = statement
            .query_map([limit(limit_to)], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, Option<String>>(4)?,
                    row.get::<_, Option<String>>(5)?,
                ))
            })
            .map_err(database)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(database)?;
        rows.into_iter()
            .map(|(at_ms, admin, fingerprint, action, target, detail)| {
                log_entry(at_ms, admin, fingerprint, &action, target, detail)
            })
            .collect()
    }
}
