//! The PostgreSQL store's SQL of moderation: the sanctions on names and the admin log (schema
//! version 6), for the [`Store`](crate::storage::store::Store) methods of the same names.

use super::PgStore;
use crate::storage::moderation::{ActionColumns, log_entry};
use crate::storage::postgres_error::database;
use crate::storage::sanctions::{SanctionKind, Sanctions};
use crate::storage::store::StoreError;
use kingme_shared::domain::AdminLogEntry;

impl PgStore {
    pub(super) fn put_sanction(
        &mut self,
        name: &str,
        kind: SanctionKind,
        reason: Option<&str>,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO sanctions (name, kind, reason, at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name, kind) DO UPDATE SET reason = excluded.reason, \
             at_ms = excluded.at_ms",
            &[&name, &kind.code(), &reason, &at_ms],
        )?;
        Ok(())
    }

    pub(super) fn delete_sanction(
        &mut self,
        name: &str,
        kind: SanctionKind,
    ) -> Result<bool, StoreError> {
        let lifted = self.execute(
            "DELETE FROM sanctions WHERE name = $1 AND kind = $2",
            &[&name, &kind.code()],
        )?;
        Ok(lifted > 0)
    }

    pub(super) fn sanctions_of(&mut self, name: &str) -> Result<Sanctions, StoreError> {
        let rows = self.query(
            "SELECT kind, reason FROM sanctions WHERE name = $1",
            &[&name],
        )?;
        let rows = rows
            .iter()
            .map(|row| {
                Ok((
                    row.try_get(0).map_err(database)?,
                    row.try_get(1).map_err(database)?,
                ))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Sanctions::from_rows(rows)?)
    }

    pub(super) fn insert_admin_log(&mut self, entry: &AdminLogEntry) -> Result<(), StoreError> {
        let columns = ActionColumns::of(&entry.action);
        self.execute(
            "INSERT INTO admin_log (at_ms, admin, fingerprint, action, target, detail) \
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &entry.at_ms,
                &entry.admin,
                &entry.fingerprint,
                &columns.action,
                &columns.target,
                &columns.detail,
            ],
        )?;
        Ok(())
    }

    pub(super) fn latest_admin_log(
        &mut self,
        limit: usize,
    ) -> Result<Vec<AdminLogEntry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.query(
            "SELECT at_ms, admin, fingerprint, action, target, detail FROM admin_log \
             ORDER BY id DESC LIMIT $1",
            &[&limit],
        )?;
        rows.iter()
            .map(|row| {
                let action: String = row.try_get(3).map_err(database)?;
                log_entry(
                    row.try_get(0).map_err(database)?,
                    row.try_get(1).map_err(database)?,
                    row.try_get(2).map_err(database)?,
                    &action,
                    row.try_get(4).map_err(database)?,
                    row.try_get(5).map_err(database)?,
                )
            })
            .collect()
    }
}
