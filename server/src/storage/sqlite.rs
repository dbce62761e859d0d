//! The SQLite store: one database file (or memory, for throwaway servers), in WAL mode. By
//! default (`synchronous=NORMAL`) a committed batch survives a killed or crashed process without
//! an fsync per batch; [`Durability::PowerLoss`] (`--fsync`, `synchronous=FULL`) makes it
//! survive a power loss too. The transaction statements are prepared once and cached, like every
//! other statement.

use super::durability::Durability;
use super::file_identity::{self, FileIdentity};
use super::ratings::{Rated, Rating};
use super::records::{
    BadCode, NewGame, Participant, StoredGame, StoredMove, parse_time_control_code,
    time_control_code,
};
use super::schema;
use super::store::{HistoryQuery, Store, StoreError, StoredIdentity};
use kingme_shared::domain::{EndReason, GameId, GameResult, HistoryEntry, LeaderboardEntry};
use kingme_shared::record::{end_reason_code, parse_end_reason_code};
use kingme_shared::{GameKind, GameSpec, Side, Variant};
use rusqlite::{Connection, OptionalExtension, Row, params};
use std::path::Path;
use std::time::Duration;

/// Prepared statements kept (the store uses about thirty).
const STATEMENT_CACHE: usize = 64;

/// A store in an SQLite database.
pub struct SqliteStore {
    connection: Connection,
    /// The file opened, checked before every commit; `None` in memory.
    file: Option<FileIdentity>,
}

fn database(err: rusqlite::Error) -> StoreError {
    StoreError::Database(err.to_string())
}

fn corrupt(problem: String) -> StoreError {
    StoreError::Corrupt(problem)
}

/// The columns of `games` that [`game_from_row`] reads, in its order.
const GAME_COLUMNS: &str = "id, kind, time_control, rated, variant, start_position, \
                            first_seat, second_seat, created_at_ms, winner, end_reason, \
                            finished_at_ms";

/// A game row without its moves, with the result if it has one.
type GameRow = (NewGame, Option<GameResult>, Option<i64>);

fn game_from_row(row: &Row<'_>) -> rusqlite::Result<Result<GameRow, StoreError>> {
    let id: i64 = row.get(0)?;
    let kind: String = row.get(1)?;
    let time_control: String = row.get(2)?;
    let rated: bool = row.get(3)?;
    let variant: String = row.get(4)?;
    let start_position: Option<String> = row.get(5)?;
    let first: Option<String> = row.get(6)?;
    let second: Option<String> = row.get(7)?;
    let created_at_ms: i64 = row.get(8)?;
    let winner: Option<String> = row.get(9)?;
    let end_reason: Option<String> = row.get(10)?;
    let finished_at_ms: Option<i64> = row.get(11)?;
    Ok((|| {
        let context = |problem: &dyn std::fmt::Display| corrupt(format!("game {id}: {problem}"));
        let result = match end_reason {
            None => None,
            Some(code) => Some(GameResult {
                winner: side_from_code(winner.as_deref()).map_err(|err| context(&err))?,
                reason: parse_end_reason_code(&code).map_err(|err| context(&err))?,
            }),
        };
        let kind = kind.parse::<GameKind>().map_err(|err| context(&err))?;
        let spec = Variant::from_code(&variant)
            .and_then(|variant| GameSpec::new(kind, variant))
            .map_err(|err| context(&err))?;
        let game = NewGame {
            id: GameId(u64::try_from(id).map_err(|_| context(&"negative id"))?),
            spec,
            time_control: parse_time_control_code(&time_control).map_err(|err| context(&err))?,
            rated,
            start_position,
            seats: [
                Participant::from_code(first.as_deref()).map_err(|err| context(&err))?,
                Participant::from_code(second.as_deref()).map_err(|err| context(&err))?,
            ],
            created_at_ms,
        };
        Ok((game, result, finished_at_ms))
    })())
}

fn side_code(side: Option<Side>) -> Option<&'static str> {
    side.map(|side| match side {
        Side::First => "first",
        Side::Second => "second",
    })
}

fn side_from_code(code: Option<&str>) -> Result<Option<Side>, BadCode> {
    match code {
        None => Ok(None),
        Some("first") => Ok(Some(Side::First)),
        Some("second") => Ok(Some(Side::Second)),
        Some(other) => Err(BadCode::new("a winner first or second", other)),
    }
}

fn seat_column(side: Side) -> &'static str {
    match side {
        Side::First => "first_seat",
        Side::Second => "second_seat",
    }
}

/// The ratings table's key of a rated identity: whether it is a bot, and its name.
fn rated_key(who: &Rated) -> (bool, String) {
    match who {
        Rated::Person(name) => (false, name.clone()),
        Rated::Bot(level) => (true, level.name().to_owned()),
    }
}

fn as_sql_id(id: GameId) -> Result<i64, StoreError> {
    i64::try_from(id.0).map_err(|_| StoreError::NotFound(format!("no game {id} is stored")))
}

fn limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

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
        let mut store = SqliteStore::from_connection(connection, now_ms)?;
        if path != Path::new(super::location::IN_MEMORY) {
            store.file = Some(FileIdentity::of(path)?);
        }
        Ok(store)
    }

    /// Opens the database at `path` as [`SqliteStore::open`] does, refusing one that is not
    /// the database this server used before (see [`super::file_identity`]): a missing file, or
    /// an empty or foreign one, where the seal beside it names another. `new_database` accepts
    /// it anyway (the operator's `--new-database`); the seal then names the new database.
    pub fn open_sealed(
        path: &Path,
        now_ms: i64,
        new_database: bool,
    ) -> Result<SqliteStore, StoreError> {
        if path == Path::new(super::location::IN_MEMORY) {
            return SqliteStore::open(path, now_ms);
        }
        let seal = file_identity::read_seal(path)?;
        if seal.is_some() && !new_database && !path.exists() {
            return Err(file_identity::not_the_sealed_database(path, "is missing"));
        }
        let store = SqliteStore::open(path, now_ms)?;
        let current: i32 = store
            .connection
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .map_err(database)?;
        if let Some(sealed) = seal
            && sealed != current
            && !new_database
        {
            return Err(file_identity::not_the_sealed_database(
                path,
                "is another database (an empty or foreign one)",
            ));
        }
        let id = if current == 0 {
            // A positive id, any of them: clamping a random i32 to 1 made half of all
            // databases share the id 1, so a foreign database could pass for the sealed one.
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
        // (README, "Memory after a load"): 512 KiB (negative: KiB, not pages).
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
            connection,
            file: None,
        })
    }

    /// Makes every later commit keep `durability`'s promise.
    pub fn set_durability(&mut self, durability: Durability) -> Result<(), StoreError> {
        self.connection
            .pragma_update(None, "synchronous", durability.sqlite_synchronous())
            .map_err(database)
    }

    /// SQLite's `synchronous` setting in force (1 = NORMAL, 2 = FULL).
    pub fn synchronous(&self) -> Result<i64, StoreError> {
        self.connection
            .pragma_query_value(None, "synchronous", |row| row.get(0))
            .map_err(database)
    }

    /// Runs one of the transaction statements (prepared once, then taken from the cache).
    fn control(&self, sql: &str) -> Result<(), StoreError> {
        self.connection
            .prepare_cached(sql)
            .and_then(|mut statement| statement.execute([]))
            .map(|_| ())
            .map_err(database)
    }

    /// The connection itself, for tests that set up rows no request writes.
    #[cfg(test)]
    pub(crate) fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        schema::version(&self.connection)
    }

    /// The journal mode in force (`wal` for a file database).
    pub fn journal_mode(&self) -> Result<String, StoreError> {
        self.connection
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
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

    fn check_changed(changed: usize, id: GameId, what: &str) -> Result<(), StoreError> {
        if changed == 0 {
            return Err(StoreError::NotFound(format!(
                "cannot {what}: no unfinished game {id} is stored"
            )));
        }
        Ok(())
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
        Self::check_changed(changed, game, "change a seat")
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
    ) -> Result<(), StoreError> {
        let id = as_sql_id(game)?;
        let changed = self
            .connection
            .prepare_cached(
                "UPDATE games SET winner = ?1, end_reason = ?2, finished_at_ms = ?3 \
                 WHERE id = ?4 AND finished_at_ms IS NULL",
            )
            .and_then(|mut statement| {
                statement.execute(params![
                    side_code(result.winner),
                    end_reason_code(result.reason),
                    finished_at_ms,
                    id
                ])
            })
            .map_err(database)?;
        Self::check_changed(changed, game, "finish a game")
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

    fn last_game_id(&mut self) -> Result<Option<GameId>, StoreError> {
        let id: Option<i64> = self
            .connection
            .query_row("SELECT MAX(id) FROM games", [], |row| row.get(0))
            .map_err(database)?;
        Ok(id.and_then(|id| u64::try_from(id).ok()).map(GameId))
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
            let (game, result, finished_at_ms) = game?;
            let (Some(result), Some(finished_at_ms)) = (result, finished_at_ms) else {
                continue;
            };
            entries.push(HistoryEntry {
                id: game.id,
                kind: game.spec.kind(),
                players: [game.seats[0].display_name(), game.seats[1].display_name()],
                moves,
                result,
                rated: game.rated,
                finished_at_ms,
            });
        }
        Ok(entries)
    }

    fn rating(&mut self, kind: GameKind, who: &Rated) -> Result<Option<Rating>, StoreError> {
        let (bot, player) = rated_key(who);
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
        let (bot, player) = rated_key(who);
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
        let Some((public_key, legacy_secret_hash)) = row else {
            return Ok(None);
        };
        let public_key = match public_key {
            None => None,
            Some(bytes) => Some(<[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| {
                corrupt(format!(
                    "the public key of {name:?} is {} bytes, not 32",
                    bytes.len()
                ))
            })?),
        };
        Ok(Some(StoredIdentity {
            public_key,
            legacy_secret_hash,
        }))
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
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use kingme_shared::DrawReason;
    use kingme_shared::ai::Level;
    use kingme_shared::domain::TimeControl;

    pub(crate) fn memory() -> SqliteStore {
        SqliteStore::open(Path::new(":memory:"), 0).unwrap()
    }

    pub(crate) fn new_game(id: u64, kind: GameKind, seats: [Participant; 2]) -> NewGame {
        NewGame {
            id: GameId(id),
            spec: kind.into(),
            time_control: TimeControl::Incremental {
                initial_secs: 60,
                increment_secs: 1,
            },
            rated: true,
            start_position: None,
            seats,
            created_at_ms: 1_000 * i64::try_from(id).unwrap(),
        }
    }

    fn stored_move(ply: u32, text: &str) -> StoredMove {
        StoredMove {
            ply,
            text: text.to_owned(),
            clocks_ms: [Some(60_000 - u64::from(ply)), None],
            played_at_ms: i64::from(ply),
        }
    }

    fn alice_and_bot() -> [Participant; 2] {
        [
            Participant::Person("alice".into()),
            Participant::Bot(Level::Advanced),
        ]
    }

    #[test]
    fn games_that_never_started_are_aborted_in_one_statement() {
        let mut store = memory();
        let open = [Participant::Person("alice".into()), Participant::Empty];
        for id in 1..=3 {
            store
                .create_game(&new_game(id, GameKind::Checkers, open.clone()))
                .unwrap();
        }
        store
            .create_game(&new_game(4, GameKind::Checkers, alice_and_bot()))
            .unwrap();
        assert_eq!(store.abort_open_games(99).unwrap(), 3);
        let left: Vec<GameId> = store
            .unfinished_games()
            .unwrap()
            .iter()
            .map(|g| g.game.id)
            .collect();
        assert_eq!(left, vec![GameId(4)]);
        let aborted = store.game(GameId(2)).unwrap().unwrap();
        assert_eq!(aborted.result.map(|r| r.reason), Some(EndReason::Aborted));
        assert_eq!(aborted.finished_at_ms, Some(99));
        assert_eq!(store.abort_open_games(100).unwrap(), 0);
    }

    #[test]
    fn a_game_is_kept_from_creation_to_result() {
        let mut store = memory();
        let game = new_game(
            1,
            GameKind::Checkers,
            [Participant::Empty, Participant::Empty],
        );
        store.create_game(&game).unwrap();
        store
            .set_seat(GameId(1), Side::First, &Participant::Person("alice".into()))
            .unwrap();
        store
            .set_seat(GameId(1), Side::Second, &Participant::Bot(Level::Advanced))
            .unwrap();
        for (ply, text) in [(1, "11-15"), (2, "23-19"), (3, "8-11")] {
            store
                .record_move(GameId(1), &stored_move(ply, text))
                .unwrap();
        }
        // Out of order, and for a game that does not exist.
        assert!(
            store
                .record_move(GameId(1), &stored_move(3, "9-13"))
                .is_err()
        );
        assert!(
            store
                .record_move(GameId(1), &stored_move(5, "9-13"))
                .is_err()
        );
        assert!(
            store
                .record_move(GameId(9), &stored_move(1, "9-13"))
                .is_err()
        );
        store.take_back(GameId(1), 2).unwrap();
        store
            .record_move(GameId(1), &stored_move(3, "9-13"))
            .unwrap();
        assert_eq!(store.unfinished_games().unwrap().len(), 1);
        let result = GameResult {
            winner: Some(Side::Second),
            reason: EndReason::Resignation,
        };
        store.finish_game(GameId(1), &result, 99).unwrap();
        // A game ends once.
        assert!(store.finish_game(GameId(1), &result, 100).is_err());
        assert!(
            store
                .record_move(GameId(1), &stored_move(4, "22-18"))
                .is_err()
        );
        let stored = store.game(GameId(1)).unwrap().unwrap();
        assert_eq!(stored.game.seats, alice_and_bot());
        let texts: Vec<&str> = stored.moves.iter().map(|mv| mv.text.as_str()).collect();
        assert_eq!(texts, ["11-15", "23-19", "9-13"]);
        assert_eq!(stored.moves[2].clocks_ms, [Some(59_997), None]);
        assert_eq!(stored.result, Some(result));
        assert_eq!(stored.finished_at_ms, Some(99));
        assert!(store.unfinished_games().unwrap().is_empty());
        assert_eq!(store.last_game_id().unwrap(), Some(GameId(1)));
        assert_eq!(store.game(GameId(2)).unwrap(), None);
    }

    #[test]
    fn history_lists_finished_games_newest_first_with_filters() {
        let mut store = memory();
        let seats = [
            alice_and_bot(),
            [
                Participant::Guest("bob".into()),
                Participant::Person("alice".into()),
            ],
            [
                Participant::Guest("bob".into()),
                Participant::Bot(Level::Random),
            ],
        ];
        let kinds = [GameKind::Checkers, GameKind::Pente, GameKind::TicTacToe];
        for (index, (seats, kind)) in seats.into_iter().zip(kinds).enumerate() {
            let id = index as u64 + 1;
            store.create_game(&new_game(id, kind, seats)).unwrap();
            let result = GameResult {
                winner: None,
                reason: EndReason::Draw(DrawReason::Repetition),
            };
            store
                .finish_game(GameId(id), &result, 10 * i64::try_from(id).unwrap())
                .unwrap();
        }
        store
            .create_game(&new_game(4, GameKind::Checkers, alice_and_bot()))
            .unwrap();
        let ids = |query: HistoryQuery, store: &mut SqliteStore| -> Vec<u64> {
            store
                .history(&HistoryQuery { limit: 10, ..query })
                .unwrap()
                .iter()
                .map(|entry| entry.id.0)
                .collect()
        };
        assert_eq!(ids(HistoryQuery::default(), &mut store), [3, 2, 1]);
        let player = |name: &str| HistoryQuery {
            player: Some(name.to_owned()),
            ..HistoryQuery::default()
        };
        assert_eq!(ids(player("alice"), &mut store), [2, 1]);
        assert_eq!(ids(player("bob"), &mut store), [3, 2]);
        assert_eq!(ids(player("carol"), &mut store), Vec::<u64>::new());
        let pente = HistoryQuery {
            kind: Some(GameKind::Pente),
            ..HistoryQuery::default()
        };
        assert_eq!(ids(pente, &mut store), [2]);
        let entries = store
            .history(&HistoryQuery {
                limit: 1,
                ..HistoryQuery::default()
            })
            .unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].players, ["bob (guest)", "random (bot)"]);
    }

    #[test]
    fn ratings_are_kept_per_game_and_listed_best_first() {
        let mut store = memory();
        let alice = Rated::Person("alice".into());
        let bot = Rated::Bot(Level::Advanced);
        let rating = |value: f64| Rating {
            rating: value,
            games: 1,
            wins: 1,
            draws: 0,
            losses: 0,
        };
        store
            .set_rating(GameKind::Checkers, &alice, &rating(1516.0))
            .unwrap();
        store
            .set_rating(GameKind::Checkers, &bot, &rating(1600.4))
            .unwrap();
        store
            .set_rating(GameKind::Pente, &alice, &rating(1400.0))
            .unwrap();
        assert_eq!(
            store.rating(GameKind::Checkers, &alice).unwrap(),
            Some(rating(1516.0))
        );
        assert_eq!(store.rating(GameKind::TicTacToe, &alice).unwrap(), None);
        let board = store.leaderboard(Some(GameKind::Checkers), 10).unwrap();
        let names: Vec<(&str, bool, i32)> = board
            .iter()
            .map(|entry| (entry.player.as_str(), entry.bot, entry.rating))
            .collect();
        assert_eq!(names, [("advanced", true, 1600), ("alice", false, 1516)]);
        assert_eq!(store.leaderboard(None, 10).unwrap().len(), 3);
        assert_eq!(store.leaderboard(None, 1).unwrap().len(), 1);
    }

    #[test]
    fn a_file_database_is_in_wal_mode_and_keeps_its_games_across_opens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("kingme.db");
        {
            let mut store = SqliteStore::open(&path, 0).unwrap();
            assert_eq!(store.journal_mode().unwrap(), "wal");
            let mut game = new_game(7, GameKind::Pente, alice_and_bot());
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
