//! The SQLite store's SQL of game ids: the last id handed out, kept in `server_meta`, for the
//! [`Store`](crate::storage::store::Store) methods `reserve_game_ids` and `release_game_ids`.

use super::{SqliteStore, as_sql_id, corrupt, database};
use crate::storage::store::StoreError;
use kingme_shared::domain::GameId;

impl SqliteStore {
    pub(super) fn reserve_ids(&mut self, count: u32) -> Result<Vec<GameId>, StoreError> {
        // The last id handed out is a row of server_meta, kept above every stored game's id; the
        // write transaction (BEGIN IMMEDIATE) keeps every other writer out meanwhile.
        let last: i64 = self
            .connection
            .prepare_cached(
                "INSERT INTO server_meta (key, value) \
                 SELECT 'last_game_id', MAX(COALESCE((SELECT CAST(value AS INTEGER) \
                 FROM server_meta WHERE key = 'last_game_id'), 0), \
                 COALESCE((SELECT MAX(id) FROM games), 0)) + ?1 WHERE true \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value \
                 RETURNING CAST(value AS INTEGER)",
            )
            .and_then(|mut statement| statement.query_row([count], |row| row.get(0)))
            .map_err(database)?;
        let last = u64::try_from(last).map_err(|_| corrupt(format!("last game id {last}")))?;
        Ok((last - u64::from(count) + 1..=last).map(GameId).collect())
    }

    pub(super) fn release_ids(&mut self, first: GameId, last: GameId) -> Result<bool, StoreError> {
        // Only if `last` is still the last id handed out: then no id above it exists anywhere.
        let (first, last) = (as_sql_id(first)?, as_sql_id(last)?);
        let changed = self
            .connection
            .prepare_cached(
                "UPDATE server_meta SET value = ?1 \
                 WHERE key = 'last_game_id' AND CAST(value AS INTEGER) = ?2 AND ?1 < ?2",
            )
            .and_then(|mut statement| statement.execute([first - 1, last]))
            .map_err(database)?;
        Ok(changed == 1)
    }
}
