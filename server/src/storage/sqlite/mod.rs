//! The SQLite store: one database file (or memory, for throwaway servers), in WAL mode. By
//! default (`synchronous=NORMAL`) a committed batch survives a killed or crashed process without
//! an fsync per batch; [`Durability::PowerLoss`] (`--fsync`, `synchronous=FULL`) makes it
//! survive a power loss too. The transaction statements are prepared once and cached, like every
//! other statement.
//!
//! Files: [`open`] (opening a file or memory database: its integrity check, seal, migrations,
//! log and checkpointer, and the settings in force); [`moderation`] (the SQL of sanctions and
//! the admin log); this file, the SQL of every other [`Store`] request.

mod game_ids;
mod moderation;
mod open;

use super::checkpointer::Checkpointer;
use super::file_identity::FileIdentity;
use super::game_row::{
    GAME_COLUMN_COUNT, GAME_COLUMNS, GameColumns, GameRow, PLIES_STORED, finished_game,
    history_entry,
};
use super::ratings::{Rated, Rating};
use super::records::{
    FinishedGame, NewGame, Participant, StoredGame, StoredMove, side_code, time_control_code,
};
use super::sanctions::{SanctionKind, Sanctions};
use super::store::{HistoryQuery, Store, StoreError, StoredIdentity};
use super::stranded_log::LogKeeper;
use super::token_retention::FORGET_RESUME_TOKENS;
use kingme_shared::domain::{
    AdminLogEntry, EndReason, GameId, GameResult, HistoryEntry, LeaderboardEntry,
};
use kingme_shared::record::end_reason_code;
use kingme_shared::{GameKind, Side};
use rusqlite::{Connection, OptionalExtension, Row, params};

/// Prepared statements kept (the store uses about thirty).
const STATEMENT_CACHE: usize = 64;

/// A store in an SQLite database.
pub struct SqliteStore {
    /// Checkpoints a file's log on a thread of its own; `None` in memory. (Declared first, so it
    /// stops before the writer closes, and the writer's close makes the last checkpoint.)
    checkpointer: Option<Checkpointer>,
    connection: Connection,
    /// The file opened, checked before every commit; `None` in memory.
    file: Option<FileIdentity>,
    /// Sets the log aside should the file be gone when the store closes. (Declared last, so it
    /// runs once the connections are closed.)
    log_keeper: Option<LogKeeper>,
}

fn database(err: rusqlite::Error) -> StoreError {
    StoreError::Database(err.to_string())
}

fn corrupt(problem: String) -> StoreError {
    StoreError::Corrupt(problem)
}

fn game_from_row(row: &Row<'_>) -> rusqlite::Result<Result<GameRow, StoreError>> {
    let columns = GameColumns {
        id: row.get(0)?,
        kind: row.get(1)?,
        time_control: row.get(2)?,
        rated: row.get(3)?,
        variant: row.get(4)?,
        start_position: row.get(5)?,
        seats: [row.get(6)?, row.get(7)?],
        created_at_ms: row.get(8)?,
        winner: row.get(9)?,
        end_reason: row.get(10)?,
        finished_at_ms: row.get(11)?,
    };
    Ok(columns.decode())
}

fn seat_column(side: Side) -> &'static str {
    match side {
        Side::First => "first_seat",
        Side::Second => "second_seat",
    }
}

fn as_sql_id(id: GameId) -> Result<i64, StoreError> {
    i64::try_from(id.0).map_err(|_| StoreError::NotFound(format!("no game {id} is stored")))
}

fn limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

impl SqliteStore {
    /// Runs one of the transaction statements (prepared once, then taken from the cache).
    fn control(&self, sql: &str) -> Result<(), StoreError> {
        self.connection
            .prepare_cached(sql)
            .and_then(|mut statement| statement.execute([]))
            .map(|_| ())
            .map_err(database)
    }

    fn moves(&self, id: i64) -> Result<Vec<StoredMove>, StoreError> {
        let mut statement = self
            .connection
            .prepare_cached(
                "SELECT ply, text, first_clock_ms, second_clock_ms, played_at_ms FROM moves \
                 WHERE game_id = ?1 ORDER BY ply",
            )
            .map_err(database)?;
        let rows = statement
            .query_map([id], |row| {
                let clock = |index| -> rusqlite::Result<Option<u64>> {
                    let ms: Option<i64> = row.get(index)?;
                    Ok(ms.and_then(|ms| u64::try_from(ms).ok()))
                };
                Ok(StoredMove {
                    ply: row.get(0)?,
                    text: row.get(1)?,
                    clocks_ms: [clock(2)?, clock(3)?],
                    played_at_ms: row.get(4)?,
                })
            })
            .map_err(database)?;
        rows.collect::<rusqlite::Result<_>>().map_err(database)
    }

    fn games_where(&self, condition: &str, id: Option<i64>) -> Result<Vec<StoredGame>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE {condition} ORDER BY id");
        let mut statement = self.connection.prepare_cached(&sql).map_err(database)?;
        let rows = match id {
            Some(id) => statement.query_map([id], game_from_row),
            None => statement.query_map([], game_from_row),
        }
        .map_err(database)?;
        let mut games = Vec::new();
        for row in rows {
            let (game, result, finished_at_ms) = row.map_err(database)??;
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

impl Store for SqliteStore {
    fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.control("BEGIN IMMEDIATE")
    }

    fn commit_batch(&mut self) -> Result<(), StoreError> {
        // Committing into a file nobody can open again would promise what is not kept.
        self.verify()?;
        self.control("COMMIT")
    }

    fn verify(&mut self) -> Result<(), StoreError> {
        self.file.as_ref().map_or(Ok(()), FileIdentity::check)
    }

    fn rollback_batch(&mut self) {
        // A failed rollback leaves SQLite outside any transaction, which is all we need.
        let _ = self.connection.execute_batch("ROLLBACK");
    }

    fn begin_request(&mut self) -> Result<(), StoreError> {
        self.control("SAVEPOINT request")
    }

    fn end_request(&mut self, keep: bool) -> Result<(), StoreError> {
        if !keep {
            self.control("ROLLBACK TO request")?;
        }
        self.control("RELEASE request")
    }

    fn create_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        let id = as_sql_id(game.id)?;
        self.connection
            .prepare_cached(
                "INSERT INTO games (id, kind, time_control, rated, variant, \
                 start_position, first_seat, second_seat, created_at_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .and_then(|mut statement| {
                statement.execute(params![
                    id,
                    game.spec.kind().name(),
                    time_control_code(game.time_control),
                    game.rated,
                    game.spec.variant().code(),
                    game.start_position,
                    game.seats[0].code(),
                    game.seats[1].code(),
                    game.created_at_ms,
                ])
            })
            .map_err(database)?;
        Ok(())
    }

    fn set_seat(&mut self, game: GameId, side: Side, who: &Participant) -> Result<(), StoreError> {
        let sql = format!(
            "UPDATE games SET {} = ?1 WHERE id = ?2 AND finished_at_ms IS NULL",
            seat_column(side)
        );
        let id = as_sql_id(game)?;
        let changed = self
            .connection
            .prepare_cached(&sql)
            .and_then(|mut statement| statement.execute(params![who.code(), id]))
            .map_err(database)?;
        StoreError::unless_changed(changed as u64, game, "change a seat")
    }

    fn record_move(&mut self, game: GameId, mv: &StoredMove) -> Result<(), StoreError> {
        let id = as_sql_id(game)?;
        let last: Option<u32> = self
            .connection
            .prepare_cached(
                "SELECT (SELECT MAX(ply) FROM moves WHERE game_id = ?1) FROM games \
                 WHERE id = ?1 AND finished_at_ms IS NULL",
            )
            .and_then(|mut statement| statement.query_row([id], |row| row.get(0)).optional())
            .map_err(database)?
            .ok_or_else(|| {
                StoreError::NotFound(format!("cannot record a move: no unfinished game {game}"))
            })?;
        let expected = last.unwrap_or(0) + 1;
        if mv.ply != expected {
            return Err(StoreError::OutOfSequence {
                game,
                ply: mv.ply,
                expected,
            });
        }
        let clock = |ms: Option<u64>| ms.map(|ms| i64::try_from(ms).unwrap_or(i64::MAX));
        self.connection
            .prepare_cached(
                "INSERT INTO moves (game_id, ply, text, first_clock_ms, second_clock_ms, \
                 played_at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut statement| {
                statement.execute(params![
                    id,
                    mv.ply,
                    mv.text,
                    clock(mv.clocks_ms[0]),
                    clock(mv.clocks_ms[1]),
                    mv.played_at_ms
                ])
            })
            .map_err(database)?;
        Ok(())
    }

    fn take_back(&mut self, game: GameId, plies_kept: u32) -> Result<(), StoreError> {
        let id = as_sql_id(game)?;
        self.connection
            .prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply > ?2")
            .and_then(|mut statement| statement.execute(params![id, plies_kept]))
            .map_err(database)?;
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
            "UPDATE games SET winner = ?1, end_reason = ?2, finished_at_ms = ?3 \
             WHERE id = ?4 AND finished_at_ms IS NULL RETURNING {GAME_COLUMNS}, {PLIES_STORED}"
        );
        let values = params![
            side_code(result.winner),
            end_reason_code(result.reason),
            finished_at_ms,
            id
        ];
        let read = |row: &Row<'_>| Ok((game_from_row(row)?, row.get(GAME_COLUMN_COUNT)?));
        let finished = self
            .connection
            .prepare_cached(&sql)
            .and_then(|mut statement| statement.query_row(values, read).optional())
            .map_err(database)?;
        let (row, plies) =
            finished.ok_or_else(|| StoreError::no_unfinished_game(game, "finish a game"))?;
        finished_game(row?, plies)
    }

    fn game(&mut self, id: GameId) -> Result<Option<StoredGame>, StoreError> {
        let Ok(sql_id) = as_sql_id(id) else {
            return Ok(None);
        };
        Ok(self.games_where("id = ?1", Some(sql_id))?.pop())
    }

    fn abort_open_games(&mut self, finished_at_ms: i64) -> Result<usize, StoreError> {
        self.connection
            .prepare_cached(
                "UPDATE games SET winner = NULL, end_reason = ?1, finished_at_ms = ?2 \
                 WHERE finished_at_ms IS NULL AND (first_seat IS NULL OR second_seat IS NULL)",
            )
            .and_then(|mut statement| {
                statement.execute(params![end_reason_code(EndReason::Aborted), finished_at_ms])
            })
            .map_err(database)
    }

    fn unfinished_games(&mut self) -> Result<Vec<StoredGame>, StoreError> {
        self.games_where("finished_at_ms IS NULL", None)
    }

    fn reserve_game_ids(&mut self, count: u32) -> Result<Vec<GameId>, StoreError> {
        self.reserve_ids(count)
    }

    fn release_game_ids(&mut self, first: GameId, last: GameId) -> Result<bool, StoreError> {
        self.release_ids(first, last)
    }

    fn claim_lease(&mut self, game: GameId) -> Result<u64, StoreError> {
        let id = as_sql_id(game)?;
        let token: i64 = self
            .connection
            .prepare_cached(
                "INSERT INTO game_leases (game_id, token) VALUES (?1, 1) \
                 ON CONFLICT (game_id) DO UPDATE SET token = token + 1 RETURNING token",
            )
            .and_then(|mut statement| statement.query_row([id], |row| row.get(0)))
            .map_err(database)?;
        u64::try_from(token).map_err(|_| corrupt(format!("lease token {token}")))
    }

    fn check_lease(&mut self, game: GameId, token: u64) -> Result<(), StoreError> {
        // The batch's write transaction (BEGIN IMMEDIATE) already keeps every other writer out.
        let id = as_sql_id(game)?;
        let latest: Option<i64> = self
            .connection
            .prepare_cached("SELECT token FROM game_leases WHERE game_id = ?1")
            .and_then(|mut statement| statement.query_row([id], |row| row.get(0)).optional())
            .map_err(database)?;
        super::fence::latest_or_fenced(game, token, latest)
    }

    fn history(&mut self, query: &HistoryQuery) -> Result<Vec<HistoryEntry>, StoreError> {
        let person = query.player.as_ref().map(|name| format!("person:{name}"));
        let guest = query.player.as_ref().map(|name| format!("guest:{name}"));
        let kind = query.kind.map(GameKind::name);
        let mut statement = self
            .connection
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE game_id = id) \
                 FROM games WHERE finished_at_ms IS NOT NULL \
                 AND (?1 IS NULL OR first_seat IN (?1, ?2) OR second_seat IN (?1, ?2)) \
                 AND (?3 IS NULL OR kind = ?3) \
                 ORDER BY finished_at_ms DESC, id DESC LIMIT ?4"
            ))
            .map_err(database)?;
        let rows = statement
            .query_map(params![person, guest, kind, limit(query.limit)], |row| {
                Ok((game_from_row(row)?, row.get::<_, u32>(12)?))
            })
            .map_err(database)?;
        let mut entries = Vec::new();
        for row in rows {
            let (game, moves) = row.map_err(database)?;
            entries.extend(history_entry(game?, moves));
        }
        Ok(entries)
    }

    fn lock_ratings(&mut self, _kind: GameKind, _who: &[Rated; 2]) -> Result<(), StoreError> {
        // A batch is one write transaction (BEGIN IMMEDIATE): no other writer runs beside it.
        Ok(())
    }

    fn rating(&mut self, kind: GameKind, who: &Rated) -> Result<Option<Rating>, StoreError> {
        let (bot, player) = who.key();
        self.connection
            .prepare_cached(
                "SELECT rating, games, wins, draws, losses FROM ratings \
                 WHERE kind = ?1 AND bot = ?2 AND player = ?3",
            )
            .and_then(|mut statement| {
                statement
                    .query_row(params![kind.name(), bot, player], |row| {
                        Ok(Rating {
                            rating: row.get(0)?,
                            games: row.get(1)?,
                            wins: row.get(2)?,
                            draws: row.get(3)?,
                            losses: row.get(4)?,
                        })
                    })
                    .optional()
            })
            .map_err(database)
    }

    fn set_rating(
        &mut self,
        kind: GameKind,
        who: &Rated,
        rating: &Rating,
    ) -> Result<(), StoreError> {
        let (bot, player) = who.key();
        self.connection
            .prepare_cached(
                "INSERT OR REPLACE INTO ratings \
                 (kind, bot, player, rating, games, wins, draws, losses) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .and_then(|mut statement| {
                statement.execute(params![
                    kind.name(),
                    bot,
                    player,
                    rating.rating,
                    rating.games,
                    rating.wins,
                    rating.draws,
                    rating.losses
                ])
            })
            .map_err(database)?;
        Ok(())
    }

    fn leaderboard(
        &mut self,
        kind: Option<GameKind>,
        count: usize,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        let mut statement = self
            .connection
            .prepare_cached(
                "SELECT kind, player, bot, rating, games, wins, draws, losses FROM ratings \
                 WHERE ?1 IS NULL OR kind = ?1 ORDER BY rating DESC, player LIMIT ?2",
            )
            .map_err(database)?;
        let rows = statement
            .query_map(params![kind.map(GameKind::name), limit(count)], |row| {
                let kind: String = row.get(0)?;
                let rating: f64 = row.get(3)?;
                let player: String = row.get(1)?;
                let bot: bool = row.get(2)?;
                let counts: [u32; 4] = [row.get(4)?, row.get(5)?, row.get(6)?, row.get(7)?];
                Ok(kind.parse::<GameKind>().map(|kind| {
                    let [games, wins, draws, losses] = counts;
                    LeaderboardEntry {
                        kind,
                        player,
                        bot,
                        // Ratings stay within a few thousand points; the cast cannot overflow.
                        #[allow(clippy::cast_possible_truncation)]
                        rating: rating.round() as i32,
                        games,
                        wins,
                        draws,
                        losses,
                    }
                }))
            })
            .map_err(database)?;
        rows.map(|row| {
            row.map_err(database)?
                .map_err(|err| corrupt(format!("a rating: {err}")))
        })
        .collect()
    }

    fn identity(&mut self, name: &str) -> Result<Option<StoredIdentity>, StoreError> {
        type KeyAndSecret = (Option<Vec<u8>>, Option<Vec<u8>>);
        let row: Option<KeyAndSecret> = self
            .connection
            .prepare_cached("SELECT public_key, legacy_secret_hash FROM identities WHERE name = ?1")
            .and_then(|mut statement| {
                statement
                    .query_row([name], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()
            })
            .map_err(database)?;
        row.map(|(public_key, legacy_secret_hash)| {
            StoredIdentity::from_columns(name, public_key, legacy_secret_hash)
        })
        .transpose()
    }

    fn bind_key(
        &mut self,
        name: &str,
        public_key: &[u8; 32],
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let changed = self
            .connection
            .prepare_cached(
                "INSERT INTO identities (name, public_key, created_at_ms, bound_at_ms) \
                 VALUES (?1, ?2, ?3, ?3) \
                 ON CONFLICT (name) DO UPDATE SET public_key = excluded.public_key, \
                 bound_at_ms = excluded.bound_at_ms WHERE identities.public_key IS NULL",
            )
            .and_then(|mut statement| {
                statement.execute(params![name, public_key.as_slice(), at_ms])
            })
            .map_err(database)?;
        Ok(changed == 1)
    }

    fn server_id(&mut self) -> Result<String, StoreError> {
        self.connection
            .prepare_cached("SELECT value FROM server_meta WHERE key = 'server_id'")
            .and_then(|mut statement| statement.query_row([], |row| row.get(0)))
            .map_err(database)
    }

    fn save_resume_token(
        &mut self,
        token_hash: &[u8],
        name: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.connection
            .prepare_cached(
                "INSERT OR REPLACE INTO resume_tokens (token_hash, name, created_at_ms) \
                 VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut statement| statement.execute(params![token_hash, name, at_ms]))
            .map_err(database)?;
        Ok(())
    }

    fn resume_tokens_of(&mut self, name: &str) -> Result<Vec<Vec<u8>>, StoreError> {
        let mut statement = self
            .connection
            .prepare_cached("SELECT token_hash FROM resume_tokens WHERE name = ?1")
            .map_err(database)?;
        let rows = statement
            .query_map([name], |row| row.get(0))
            .map_err(database)?;
        rows.collect::<rusqlite::Result<_>>().map_err(database)
    }

    fn forget_resume_tokens(&mut self, saved_before_ms: i64) -> Result<u64, StoreError> {
        self.connection
            .prepare_cached(FORGET_RESUME_TOKENS)
            .and_then(|mut statement| statement.execute([saved_before_ms]))
            .map(|forgotten| forgotten as u64)
            .map_err(database)
    }

    fn resume_token_owner(&mut self, token_hash: &[u8]) -> Result<Option<String>, StoreError> {
        self.connection
            .prepare_cached("SELECT name FROM resume_tokens WHERE token_hash = ?1")
            .and_then(|mut statement| {
                statement
                    .query_row([token_hash], |row| row.get(0))
                    .optional()
            })
            .map_err(database)
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
    use crate::storage::checkpointer;
    use crate::storage::conformance::{self, alice_and_bot, new_game, stored_move};
    use crate::storage::durability::Durability;
    use kingme_shared::{GameSpec, Variant};
    use std::path::Path;

    pub(crate) fn memory() -> SqliteStore {
        SqliteStore::open(Path::new(":memory:"), 0).unwrap()
    }

    /// SQLite files in a temporary directory, one per fresh database.
    struct SqliteFiles {
        dir: tempfile::TempDir,
        made: usize,
    }

    impl SqliteFiles {
        fn current(&self) -> std::path::PathBuf {
            self.dir
                .path()
                .join(format!("conformance-{}.db", self.made))
        }
    }

    impl conformance::TestDatabase for SqliteFiles {
        fn fresh(&mut self) -> Box<dyn Store> {
            self.made += 1;
            Box::new(SqliteStore::open(&self.current(), 0).unwrap())
        }

        fn another(&mut self) -> Box<dyn Store> {
            Box::new(SqliteStore::open(&self.current(), 1).unwrap())
        }
    }

    #[test]
    fn the_sqlite_store_passes_the_conformance_suite() {
        let mut files = SqliteFiles {
            dir: tempfile::tempdir().unwrap(),
            made: 0,
        };
        conformance::check(&mut files);
    }

    #[test]
    fn a_file_s_log_is_checkpointed_beside_the_writer_and_starts_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(&dir.path().join("kingme.db"), 0).unwrap();
        assert_eq!(
            store.writer_autocheckpoint().unwrap(),
            checkpointer::WRITER_BACKSTOP_PAGES,
            "the writer checkpoints only as a backstop"
        );
        store
            .create_game(&new_game(GameId(7), GameKind::Checkers, alice_and_bot()))
            .unwrap();
        let mut ply = 0;
        let mut commit_moves = |store: &mut SqliteStore, count: u32| {
            for _ in 0..count {
                ply += 1;
                store.begin_batch().unwrap();
                store
                    .record_move(GameId(7), &stored_move(ply, "11-15"))
                    .unwrap();
                store.commit_batch().unwrap();
            }
        };
        commit_moves(&mut store, 300);
        let first = store.checkpoint_now().unwrap().unwrap();
        assert!(
            first.log_pages > 0,
            "the commits went to the log: {first:?}"
        );
        assert_eq!(
            first.copied_pages, first.log_pages,
            "the writer, though open, does not stop the log being copied whole"
        );
        // Copied whole, the log starts again from its beginning at the next commit.
        commit_moves(&mut store, 1);
        let next = store.checkpoint_now().unwrap().unwrap();
        assert!(
            next.log_pages < first.log_pages,
            "the log started again: {next:?} after {first:?}"
        );
        assert_eq!(store.moves(7).unwrap().len(), 301);
        assert!(memory().checkpoint_now().is_none(), "no log in memory");
    }

    #[test]
    fn an_in_memory_store_hands_out_ids_above_its_games() {
        // Games created with ids of their own (older servers, tests) are never given again.
        let mut store = memory();
        store
            .create_game(&new_game(GameId(7), GameKind::Checkers, alice_and_bot()))
            .unwrap();
        assert_eq!(store.reserve_game_ids(2).unwrap(), [GameId(8), GameId(9)]);
        assert_eq!(store.reserve_game_ids(1).unwrap(), [GameId(10)]);
    }

    #[test]
    fn unused_ids_given_back_are_handed_out_again_unless_more_were_reserved() {
        let mut store = memory();
        assert_eq!(store.reserve_game_ids(4).unwrap().len(), 4);
        store
            .create_game(&new_game(GameId(1), GameKind::Checkers, alice_and_bot()))
            .unwrap();
        // 2 to 4 were never used: given back, the next reservation starts at 2 again.
        assert!(store.release_game_ids(GameId(2), GameId(4)).unwrap());
        assert_eq!(store.reserve_game_ids(2).unwrap(), [GameId(2), GameId(3)]);
        // Ids below the last reserved one cannot go back: 4 and 5 were reserved after 3.
        assert_eq!(store.reserve_game_ids(2).unwrap(), [GameId(4), GameId(5)]);
        assert!(!store.release_game_ids(GameId(3), GameId(3)).unwrap());
        assert_eq!(store.reserve_game_ids(1).unwrap(), [GameId(6)]);
    }

    #[test]
    fn a_file_database_is_in_wal_mode_and_keeps_its_games_across_opens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("kingme.db");
        {
            let mut store = SqliteStore::open(&path, 0).unwrap();
            assert_eq!(store.journal_mode().unwrap(), "wal");
            let mut game = new_game(GameId(7), GameKind::Pente, alice_and_bot());
            game.start_position = Some("1:::0,0".into());
            game.spec = GameSpec::new(GameKind::Pente, Variant::Free).unwrap();
            store.create_game(&game).unwrap();
            store
                .record_move(GameId(7), &stored_move(1, "K10"))
                .unwrap();
        }
        let mut store = SqliteStore::open(&path, 1).unwrap();
        // Synced when the operating system has it (NORMAL) unless power-loss safety is asked.
        assert_eq!(store.synchronous().unwrap(), 1);
        store.set_durability(Durability::PowerLoss).unwrap();
        assert_eq!(store.synchronous().unwrap(), 2);
        let games = store.unfinished_games().unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game.start_position.as_deref(), Some("1:::0,0"));
        assert_eq!(games[0].game.spec.variant(), Variant::Free);
        assert_eq!(games[0].moves[0].text, "K10");
    }
}
