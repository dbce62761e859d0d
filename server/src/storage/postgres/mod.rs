//! The PostgreSQL store, for several kingme servers sharing their games, identities and ratings.
//!
//! It uses the `postgres` crate's blocking client: the store runs on the storage worker's
//! blocking thread like the SQLite store ([`super::Storage`]), and tokio knows about that
//! thread, so a paused test clock does not jump ahead while the database works (an async client
//! on the reactor would look idle to tokio while it waits for PostgreSQL). One connection per
//! server: the worker takes requests one batch at a time, so a pool would have nothing to do; a
//! connection that broke is opened again at the next batch.
//!
//! Durability as SQLite's: a batch is one transaction, each request inside it a savepoint, and
//! answers go out only after `COMMIT` returned (PostgreSQL's default `synchronous_commit = on`
//! has then flushed it to disk). Game ids come from the sequence `game_ids`, so they are unique
//! across servers. Before a rating is read for an update, [`Store::lock_ratings`] takes
//! transaction-scoped advisory locks on both ratings (in one order everywhere), so two servers
//! finishing games of the same person one after the other both count.
//!
//! Files: [`connection`] (opening the connection and opening it again when it broke,
//! prepared statements, closing off the reactor); [`moderation`] (the SQL of sanctions and the
//! admin log); this file, the SQL of every other [`Store`] request.

mod connection;
mod moderation;

use super::game_row::{
    GAME_COLUMN_COUNT, GAME_COLUMNS, GameColumns, GameRow, PLIES_STORED, finished_game,
    history_entry,
};
use super::postgres_error::database;
use super::ratings::{Rated, Rating};
use super::records::{
    FinishedGame, NewGame, Participant, StoredGame, StoredMove, side_code, time_control_code,
};
use super::sanctions::{SanctionKind, Sanctions};
use super::store::{HistoryQuery, Store, StoreError, StoredIdentity};
use super::token_retention::FORGET_RESUME_TOKENS;
use kingme_shared::domain::{
    AdminLogEntry, EndReason, GameId, GameResult, HistoryEntry, LeaderboardEntry,
};
use kingme_shared::record::end_reason_code;
use kingme_shared::{GameKind, Side};
use postgres::{Client, Row, Statement};
use std::collections::HashMap;

/// A store in a PostgreSQL database.
pub struct PgStore {
    /// `None` only while being dropped.
    client: Option<Client>,
    config: postgres::Config,
    /// The URL without its password, for messages.
    shown: String,
    /// Prepared statements by their text, prepared once per connection.
    statements: HashMap<String, Statement>,
    /// Whether a statement failed since the request began.
    statement_failed: bool,
}

fn corrupt(problem: String) -> StoreError {
    StoreError::Corrupt(problem)
}

fn as_sql_id(id: GameId) -> Result<i64, StoreError> {
    i64::try_from(id.0).map_err(|_| StoreError::NotFound(format!("no game {id} is stored")))
}

/// A count kept as PostgreSQL's `INTEGER`.
fn as_sql_count(count: u32) -> i32 {
    i32::try_from(count).unwrap_or(i32::MAX)
}

fn from_sql_count(count: i32, what: &str) -> Result<u32, StoreError> {
    u32::try_from(count).map_err(|_| corrupt(format!("{what} is {count}")))
}

fn limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

fn game_columns(row: &Row) -> Result<GameColumns, postgres::Error> {
    Ok(GameColumns {
        id: row.try_get(0)?,
        kind: row.try_get(1)?,
        time_control: row.try_get(2)?,
        rated: row.try_get(3)?,
        variant: row.try_get(4)?,
        start_position: row.try_get(5)?,
        seats: [row.try_get(6)?, row.try_get(7)?],
        created_at_ms: row.try_get(8)?,
        winner: row.try_get(9)?,
        end_reason: row.try_get(10)?,
        finished_at_ms: row.try_get(11)?,
    })
}

fn game_row(row: &Row) -> Result<GameRow, StoreError> {
    game_columns(row).map_err(database)?.decode()
}

impl PgStore {
    fn moves(&mut self, id: i64) -> Result<Vec<StoredMove>, StoreError> {
        let rows = self.query(
            "SELECT ply, text, first_clock_ms, second_clock_ms, played_at_ms FROM moves \
             WHERE game_id = $1 ORDER BY ply",
            &[&id],
        )?;
        rows.iter()
            .map(|row| {
                let clock = |index| -> Result<Option<u64>, StoreError> {
                    let ms: Option<i64> = row.try_get(index).map_err(database)?;
                    Ok(ms.and_then(|ms| u64::try_from(ms).ok()))
                };
                let ply: i32 = row.try_get(0).map_err(database)?;
                Ok(StoredMove {
                    ply: u32::try_from(ply)
                        .map_err(|_| corrupt(format!("game {id}: move number {ply}")))?,
                    text: row.try_get(1).map_err(database)?,
                    clocks_ms: [clock(2)?, clock(3)?],
                    played_at_ms: row.try_get(4).map_err(database)?,
                })
            })
            .collect()
    }

    fn with_moves(&mut self, rows: &[Row]) -> Result<Vec<StoredGame>, StoreError> {
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let (game, result, finished_at_ms) = game_row(row)?;
            let moves = self.moves(as_sql_id(game.id)?)?;
            games.push(StoredGame {
                game,
                moves,
                result,
                finished_at_ms,
            });
        }
        Ok(games)
    }
}

impl Store for PgStore {
    fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.reconnect_if_closed()?;
        match self.client()?.batch_execute("BEGIN") {
            // The connection broke since the last batch (PostgreSQL restarted): nothing was
            // done yet, so open it again and begin there.
            Err(err) if err.is_closed() => {
                tracing::warn!(err = %database(err), "the PostgreSQL connection was lost");
                self.reconnect_if_closed()?;
                self.client()?.batch_execute("BEGIN").map_err(database)
            }
            begun => begun.map_err(database),
        }
    }

    fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.client()?.batch_execute("COMMIT").map_err(database)
    }

    fn rollback_batch(&mut self) {
        // A connection that broke has lost the transaction with it.
        if let Ok(client) = self.client() {
            let _ = client.batch_execute("ROLLBACK");
        }
    }

    fn begin_request(&mut self) -> Result<(), StoreError> {
        self.statement_failed = false;
        self.client()?
            .batch_execute("SAVEPOINT request")
            .map_err(database)
    }

    fn end_request(&mut self, keep: bool) -> Result<(), StoreError> {
        // A request that met an error and answered anyway (its answer carries the error) keeps
        // nothing: PostgreSQL would refuse to release the failed savepoint, and with it the
        // whole batch. SQLite keeps the statements before the error; nothing relies on that.
        let sql = if keep && !std::mem::take(&mut self.statement_failed) {
            "RELEASE SAVEPOINT request"
        } else {
            "ROLLBACK TO SAVEPOINT request; RELEASE SAVEPOINT request"
        };
        self.client()?.batch_execute(sql).map_err(database)
    }

    fn create_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        let id = as_sql_id(game.id)?;
        self.execute(
            "INSERT INTO games (id, kind, time_control, rated, variant, start_position, \
             first_seat, second_seat, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            &[
                &id,
                &game.spec.kind().name(),
                &time_control_code(game.time_control),
                &game.rated,
                &game.spec.variant().code(),
                &game.start_position,
                &game.seats[0].code(),
                &game.seats[1].code(),
                &game.created_at_ms,
            ],
        )?;
        Ok(())
    }

    fn set_seat(&mut self, game: GameId, side: Side, who: &Participant) -> Result<(), StoreError> {
        let sql = match side {
            Side::First => {
                "UPDATE games SET first_seat = $1 WHERE id = $2 AND finished_at_ms IS NULL"
            }
            Side::Second => {
                "UPDATE games SET second_seat = $1 WHERE id = $2 AND finished_at_ms IS NULL"
            }
        };
        let id = as_sql_id(game)?;
        let changed = self.execute(sql, &[&who.code(), &id])?;
        StoreError::unless_changed(changed, game, "change a seat")
    }

    fn record_move(&mut self, game: GameId, mv: &StoredMove) -> Result<(), StoreError> {
        let id = as_sql_id(game)?;
        let last: Option<i32> = self
            .query_opt(
                "SELECT (SELECT MAX(ply) FROM moves WHERE game_id = $1) FROM games \
                 WHERE id = $1 AND finished_at_ms IS NULL",
                &[&id],
            )?
            .ok_or_else(|| {
                StoreError::NotFound(format!("cannot record a move: no unfinished game {game}"))
            })?
            .try_get(0)
            .map_err(database)?;
        let expected = u32::try_from(last.unwrap_or(0)).unwrap_or(0) + 1;
        if mv.ply != expected {
            return Err(StoreError::OutOfSequence {
                game,
                ply: mv.ply,
                expected,
            });
        }
        let clock = |ms: Option<u64>| ms.map(|ms| i64::try_from(ms).unwrap_or(i64::MAX));
        self.execute(
            "INSERT INTO moves (game_id, ply, text, first_clock_ms, second_clock_ms, \
             played_at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &id,
                &as_sql_count(mv.ply),
                &mv.text,
                &clock(mv.clocks_ms[0]),
                &clock(mv.clocks_ms[1]),
                &mv.played_at_ms,
            ],
        )?;
        Ok(())
    }

    fn take_back(&mut self, game: GameId, plies_kept: u32) -> Result<(), StoreError> {
        let id = as_sql_id(game)?;
        self.execute(
            "DELETE FROM moves WHERE game_id = $1 AND ply > $2",
            &[&id, &as_sql_count(plies_kept)],
        )?;
        Ok(())
    }

    fn finish_game(
        &mut self,
        game: GameId,
        result: &GameResult,
        finished_at_ms: i64,
    ) -> Result<FinishedGame, StoreError> {
        let id = as_sql_id(game)?;
        let sql = format!(
            "UPDATE games SET winner = $1, end_reason = $2, finished_at_ms = $3 \
             WHERE id = $4 AND finished_at_ms IS NULL RETURNING {GAME_COLUMNS}, {PLIES_STORED}"
        );
        let finished = self.query_opt(
            &sql,
            &[
                &side_code(result.winner),
                &end_reason_code(result.reason),
                &finished_at_ms,
                &id,
            ],
        )?;
        let row = finished.ok_or_else(|| StoreError::no_unfinished_game(game, "finish a game"))?;
        finished_game(
            game_row(&row)?,
            row.try_get(GAME_COLUMN_COUNT).map_err(database)?,
        )
    }

    fn game(&mut self, id: GameId) -> Result<Option<StoredGame>, StoreError> {
        let Ok(sql_id) = as_sql_id(id) else {
            return Ok(None);
        };
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let rows = self.query(&sql, &[&sql_id])?;
        Ok(self.with_moves(&rows)?.pop())
    }

    fn abort_open_games(&mut self, finished_at_ms: i64) -> Result<usize, StoreError> {
        let closed = self.execute(
            "UPDATE games SET winner = NULL, end_reason = $1, finished_at_ms = $2 \
             WHERE finished_at_ms IS NULL AND (first_seat IS NULL OR second_seat IS NULL)",
            &[&end_reason_code(EndReason::Aborted), &finished_at_ms],
        )?;
        Ok(usize::try_from(closed).unwrap_or(usize::MAX))
    }

    fn unfinished_games(&mut self) -> Result<Vec<StoredGame>, StoreError> {
        let sql =
            format!("SELECT {GAME_COLUMNS} FROM games WHERE finished_at_ms IS NULL ORDER BY id");
        let rows = self.query(&sql, &[])?;
        self.with_moves(&rows)
    }

    fn reserve_game_ids(&mut self, count: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = self.query(
            "SELECT nextval('game_ids') FROM generate_series(1, $1)",
            &[&as_sql_count(count)],
        )?;
        rows.iter()
            .map(|row| {
                let id: i64 = row.try_get(0).map_err(database)?;
                u64::try_from(id)
                    .map(GameId)
                    .map_err(|_| corrupt(format!("the sequence game_ids gave {id}")))
            })
            .collect()
    }

    fn claim_lease(&mut self, game: GameId) -> Result<u64, StoreError> {
        let id = as_sql_id(game)?;
        let rows = self.query(
            "INSERT INTO game_leases (game_id, token) VALUES ($1, 1) \
             ON CONFLICT (game_id) DO UPDATE SET token = game_leases.token + 1 RETURNING token",
            &[&id],
        )?;
        let token: i64 = rows
            .first()
            .ok_or_else(|| StoreError::Database("claiming a lease returned no row".into()))?
            .try_get(0)
            .map_err(database)?;
        u64::try_from(token).map_err(|_| corrupt(format!("lease token {token}")))
    }

    fn check_lease(&mut self, game: GameId, token: u64) -> Result<(), StoreError> {
        // FOR UPDATE holds the row until the batch ends: a claim by another node waits for this
        // batch, or this check sees the claim's newer token.
        let id = as_sql_id(game)?;
        let row = self.query_opt(
            "SELECT token FROM game_leases WHERE game_id = $1 FOR UPDATE",
            &[&id],
        )?;
        let latest: Option<i64> = row
            .map(|row| row.try_get(0))
            .transpose()
            .map_err(database)?;
        super::fence::latest_or_fenced(game, token, latest)
    }

    fn history(&mut self, query: &HistoryQuery) -> Result<Vec<HistoryEntry>, StoreError> {
        let person = query.player.as_ref().map(|name| format!("person:{name}"));
        let guest = query.player.as_ref().map(|name| format!("guest:{name}"));
        let kind = query.kind.map(GameKind::name);
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE game_id = id) \
             FROM games WHERE finished_at_ms IS NOT NULL \
             AND ($1::TEXT IS NULL OR first_seat IN ($1, $2) OR second_seat IN ($1, $2)) \
             AND ($3::TEXT IS NULL OR kind = $3) \
             ORDER BY finished_at_ms DESC, id DESC LIMIT $4"
        );
        let rows = self.query(&sql, &[&person, &guest, &kind, &limit(query.limit)])?;
        let mut entries = Vec::with_capacity(rows.len());
        for row in &rows {
            let moves: i64 = row.try_get(12).map_err(database)?;
            entries.extend(history_entry(
                game_row(row)?,
                u32::try_from(moves).unwrap_or(u32::MAX),
            ));
        }
        Ok(entries)
    }

    fn lock_ratings(&mut self, kind: GameKind, who: &[Rated; 2]) -> Result<(), StoreError> {
        // One order everywhere, so two servers never wait on each other in a circle.
        let mut keys: Vec<String> = who
            .iter()
            .map(|who| {
                let (bot, player) = who.key();
                format!("rating:{}:{bot}:{player}", kind.name())
            })
            .collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            self.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                &[&key],
            )?;
        }
        Ok(())
    }

    fn rating(&mut self, kind: GameKind, who: &Rated) -> Result<Option<Rating>, StoreError> {
        let (bot, player) = who.key();
        let Some(row) = self.query_opt(
            "SELECT rating, games, wins, draws, losses FROM ratings \
             WHERE kind = $1 AND bot = $2 AND player = $3",
            &[&kind.name(), &bot, &player],
        )?
        else {
            return Ok(None);
        };
        let count = |index: usize, what: &str| -> Result<u32, StoreError> {
            from_sql_count(row.try_get(index).map_err(database)?, what)
        };
        Ok(Some(Rating {
            rating: row.try_get(0).map_err(database)?,
            games: count(1, "a game count")?,
            wins: count(2, "a win count")?,
            draws: count(3, "a draw count")?,
            losses: count(4, "a loss count")?,
        }))
    }

    fn set_rating(
        &mut self,
        kind: GameKind,
        who: &Rated,
        rating: &Rating,
    ) -> Result<(), StoreError> {
        let (bot, player) = who.key();
        self.execute(
            "INSERT INTO ratings (kind, bot, player, rating, games, wins, draws, losses) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (kind, bot, player) DO UPDATE SET rating = excluded.rating, \
             games = excluded.games, wins = excluded.wins, draws = excluded.draws, \
             losses = excluded.losses",
            &[
                &kind.name(),
                &bot,
                &player,
                &rating.rating,
                &as_sql_count(rating.games),
                &as_sql_count(rating.wins),
                &as_sql_count(rating.draws),
                &as_sql_count(rating.losses),
            ],
        )?;
        Ok(())
    }

    fn leaderboard(
        &mut self,
        kind: Option<GameKind>,
        count: usize,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        // Names in byte order, as SQLite sorts them, whatever the database's collation.
        let rows = self.query(
            "SELECT kind, player, bot, rating, games, wins, draws, losses FROM ratings \
             WHERE $1::TEXT IS NULL OR kind = $1 \
             ORDER BY rating DESC, player COLLATE \"C\" LIMIT $2",
            &[&kind.map(GameKind::name), &limit(count)],
        )?;
        rows.iter()
            .map(|row| {
                let kind: String = row.try_get(0).map_err(database)?;
                let kind = kind
                    .parse::<GameKind>()
                    .map_err(|err| corrupt(format!("a rating: {err}")))?;
                let rating: f64 = row.try_get(3).map_err(database)?;
                let count = |index: usize| -> Result<u32, StoreError> {
                    from_sql_count(row.try_get(index).map_err(database)?, "a count")
                };
                Ok(LeaderboardEntry {
                    kind,
                    player: row.try_get(1).map_err(database)?,
                    bot: row.try_get(2).map_err(database)?,
                    // Ratings stay within a few thousand points; the cast cannot overflow.
                    #[allow(clippy::cast_possible_truncation)]
                    rating: rating.round() as i32,
                    games: count(4)?,
                    wins: count(5)?,
                    draws: count(6)?,
                    losses: count(7)?,
                })
            })
            .collect()
    }

    fn identity(&mut self, name: &str) -> Result<Option<StoredIdentity>, StoreError> {
        let Some(row) = self.query_opt(
            "SELECT public_key, legacy_secret_hash FROM identities WHERE name = $1",
            &[&name],
        )?
        else {
            return Ok(None);
        };
        StoredIdentity::from_columns(
            name,
            row.try_get(0).map_err(database)?,
            row.try_get(1).map_err(database)?,
        )
        .map(Some)
    }

    fn bind_key(
        &mut self,
        name: &str,
        public_key: &[u8; 32],
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let changed = self.execute(
            "INSERT INTO identities (name, public_key, created_at_ms, bound_at_ms) \
             VALUES ($1, $2, $3, $3) \
             ON CONFLICT (name) DO UPDATE SET public_key = excluded.public_key, \
             bound_at_ms = excluded.bound_at_ms WHERE identities.public_key IS NULL",
            &[&name, &public_key.as_slice(), &at_ms],
        )?;
        Ok(changed == 1)
    }

    fn server_id(&mut self) -> Result<String, StoreError> {
        let row = self
            .query_opt("SELECT value FROM server_meta WHERE key = 'server_id'", &[])?
            .ok_or_else(|| corrupt("the database has no server id".into()))?;
        row.try_get(0).map_err(database)
    }

    fn save_resume_token(
        &mut self,
        token_hash: &[u8],
        name: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO resume_tokens (token_hash, name, created_at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (token_hash) DO UPDATE SET name = excluded.name, \
             created_at_ms = excluded.created_at_ms",
            &[&token_hash, &name, &at_ms],
        )?;
        Ok(())
    }

    fn resume_token_owner(&mut self, token_hash: &[u8]) -> Result<Option<String>, StoreError> {
        self.query_opt(
            "SELECT name FROM resume_tokens WHERE token_hash = $1",
            &[&token_hash],
        )?
        .map(|row| row.try_get(0).map_err(database))
        .transpose()
    }

    fn resume_tokens_of(&mut self, name: &str) -> Result<Vec<Vec<u8>>, StoreError> {
        self.query(
            "SELECT token_hash FROM resume_tokens WHERE name = $1",
            &[&name],
        )?
        .iter()
        .map(|row| row.try_get(0).map_err(database))
        .collect()
    }

    fn forget_resume_tokens(&mut self, saved_before_ms: i64) -> Result<u64, StoreError> {
        self.execute(FORGET_RESUME_TOKENS, &[&saved_before_ms])
    }

    fn sanction(
        &mut self,
        name: &str,
        kind: SanctionKind,
        reason: Option<&str>,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.put_sanction(name, kind, reason, at_ms)
    }

    fn lift_sanction(&mut self, name: &str, kind: SanctionKind) -> Result<bool, StoreError> {
        self.delete_sanction(name, kind)
    }

    fn sanctions(&mut self, name: &str) -> Result<Sanctions, StoreError> {
        self.sanctions_of(name)
    }

    fn log_admin_action(&mut self, entry: &AdminLogEntry) -> Result<(), StoreError> {
        self.insert_admin_log(entry)
    }

    fn admin_log(&mut self, limit: usize) -> Result<Vec<AdminLogEntry>, StoreError> {
        self.latest_admin_log(limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_url_is_refused_without_connecting() {
        let Err(err) = PgStore::connect("postgres://kingme:pw@host:notaport/db", 0) else {
            panic!("a bad URL was accepted");
        };
        let message = err.to_string();
        assert!(
            message.contains("is not a PostgreSQL URL") && !message.contains("pw@"),
            "{message}"
        );
    }
}
