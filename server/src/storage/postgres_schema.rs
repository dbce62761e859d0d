//! The PostgreSQL schema: the same forward-only migrations as SQLite's ([`super::schema`]), step
//! for step and at the same version numbers, in PostgreSQL's dialect. Opening a database applies
//! every later migration, each in its own transaction, under an advisory lock so that servers
//! starting together on one new database migrate it once; a database newer than this build is
//! refused.
//!
//! PostgreSQL's own parts: game ids come from the sequence `game_ids` (SQLite keeps its last id
//! in `server_meta`), booleans are `BOOLEAN`, bytes `BYTEA`, the server's id is drawn with
//! `gen_random_uuid()` (PostgreSQL 13 or newer).

use super::postgres_error::database;
use super::schema::CURRENT_VERSION;
use super::store::StoreError;
use postgres::Client;

/// Every migration, the one at index `i` taking the database from version `i` to `i + 1`; the
/// same steps as [`super::schema::MIGRATIONS`].
pub const MIGRATIONS: [&str; 11] = [
    // Version 1.
    "CREATE TABLE games (
        id BIGINT PRIMARY KEY,
        kind TEXT NOT NULL,
        time_control TEXT NOT NULL,
        rated BOOLEAN NOT NULL,
        pente_tournament_rule BOOLEAN NOT NULL,
        start_position TEXT,
        first_seat TEXT,
        second_seat TEXT,
        created_at_ms BIGINT NOT NULL,
        winner TEXT,
        end_reason TEXT,
        finished_at_ms BIGINT
    );
    CREATE SEQUENCE game_ids AS BIGINT;
    CREATE TABLE moves (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        text TEXT NOT NULL,
        first_clock_ms BIGINT,
        second_clock_ms BIGINT,
        played_at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE identities (
        name TEXT PRIMARY KEY,
        secret_hash BYTEA NOT NULL,
        created_at_ms BIGINT NOT NULL
    );
    CREATE TABLE resume_tokens (
        token_hash BYTEA PRIMARY KEY,
        name TEXT NOT NULL,
        created_at_ms BIGINT NOT NULL
    );",
    // Version 2.
    "CREATE TABLE ratings (
        kind TEXT NOT NULL,
        bot BOOLEAN NOT NULL,
        player TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        PRIMARY KEY (kind, bot, player)
    );
    CREATE INDEX ratings_by_rating ON ratings (kind, rating DESC);
    CREATE INDEX games_finished ON games (finished_at_ms) WHERE finished_at_ms IS NOT NULL;
    CREATE INDEX games_unfinished ON games (id) WHERE finished_at_ms IS NULL;",
    // Version 3: names belong to Ed25519 public keys; the server gets a stable id.
    "CREATE TABLE identities_v3 (
        name TEXT PRIMARY KEY,
        public_key BYTEA,
        legacy_secret_hash BYTEA,
        created_at_ms BIGINT NOT NULL,
        bound_at_ms BIGINT,
        CHECK (public_key IS NOT NULL OR legacy_secret_hash IS NOT NULL)
    );
    INSERT INTO identities_v3 (name, legacy_secret_hash, created_at_ms)
        SELECT name, secret_hash, created_at_ms FROM identities;
    DROP TABLE identities;
    ALTER TABLE identities_v3 RENAME TO identities;
    ALTER INDEX identities_v3_pkey RENAME TO identities_pkey;
    CREATE TABLE server_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO server_meta (key, value)
        VALUES ('server_id', replace(gen_random_uuid()::text, '-', ''));",
    // Version 4: games name their rule variant instead of a boolean only Pente read.
    "ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
    UPDATE games SET variant = 'free' WHERE kind = 'pente' AND NOT pente_tournament_rule;
    ALTER TABLE games DROP COLUMN pente_tournament_rule;",
    // Version 5: each game's fencing token, for nodes sharing the database (see `fence.rs`).
    "CREATE TABLE game_leases (
        game_id BIGINT PRIMARY KEY,
        token BIGINT NOT NULL
    );",
    // Version 6: moderation: a name's sanctions (a ban with its reason, a mute) and the log
    // of what admins did.
    "CREATE TABLE sanctions (
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        reason TEXT,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (name, kind)
    );
    CREATE TABLE admin_log (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at_ms BIGINT NOT NULL,
        admin TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT,
        detail TEXT
    );",
    // Version 7: the bot levels planned anew for twelve levels: their stored ratings dropped
    // (each re-enters at its new measured rating); people's kept.
    "DELETE FROM ratings WHERE bot;",
    // Version 8: Pente's levels planned anew once more: Pente's bots' ratings dropped again.
    "DELETE FROM ratings WHERE bot AND kind = 'pente';",
    // Version 9: Pente's levels spaced again (each took the plan above it): dropped again.
    "DELETE FROM ratings WHERE bot AND kind = 'pente';",
    // Version 10: checkers' levels spaced again (colder and larger budgets): dropped likewise.
    "DELETE FROM ratings WHERE bot AND kind = 'checkers';",
    // Version 11: checkers' levels from `casual` up planned anew: dropped again.
    "DELETE FROM ratings WHERE bot AND kind = 'checkers';",
];

// The two dialects stay in step.
const _: () = assert!(MIGRATIONS.len() as i64 == CURRENT_VERSION);

/// The advisory lock servers take while migrating (any number no other program uses).
const MIGRATION_LOCK: i64 = 0x6b69_6e67_6d65;

/// The schema version of a database, 0 for an empty one.
pub fn version(client: &mut Client) -> Result<i64, StoreError> {
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_version (
                version INTEGER PRIMARY KEY,
                applied_at_ms BIGINT NOT NULL
            )",
        )
        .map_err(database)?;
    let row = client
        .query_one(
            "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_version",
            &[],
        )
        .map_err(database)?;
    row.try_get(0).map_err(database)
}

/// Brings a database to [`CURRENT_VERSION`], returning the version it was at.
pub fn migrate(client: &mut Client, now_ms: i64) -> Result<i64, StoreError> {
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .map_err(database)?;
    let migrated = migrate_locked(client, now_ms);
    let unlocked = client
        .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
        .map_err(database);
    let found = migrated?;
    unlocked?;
    Ok(found)
}

fn migrate_locked(client: &mut Client, now_ms: i64) -> Result<i64, StoreError> {
    let found = version(client)?;
    if found > CURRENT_VERSION {
        return Err(StoreError::Corrupt(format!(
            "the database is at schema version {found}, newer than this server's \
             {CURRENT_VERSION}; run a newer kingme-server or use another --db"
        )));
    }
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let mut transaction = client.transaction().map_err(database)?;
        transaction.batch_execute(migration).map_err(database)?;
        let version = i32::try_from(index + 1).unwrap_or(i32::MAX);
        transaction
            .execute(
                "INSERT INTO schema_version (version, applied_at_ms) VALUES ($1, $2)",
                &[&version, &now_ms],
            )
            .map_err(database)?;
        transaction.commit().map_err(database)?;
    }
    Ok(found)
}
