//! The database schema and its forward-only migrations. The version a database is at is the
//! highest row of `schema_version`; opening it applies every later migration in order, each in
//! its own transaction, and refuses a database newer than this build.
//!
//! Version 1: games (kind, options, start, seats, result), moves (text and both clocks), identities
//! and resume tokens. Version 2: ratings, and indexes for the history and for resuming. Version 3:
//! identities by public key (version-2 secrets kept until a key is bound), and the server's id.
//! Version 4: a game's rule variant (`variant`, a [`kingme_shared::Variant`] code) replaces the
//! boolean `pente_tournament_rule`. Version 5: `game_leases`, each game's fencing token.
//! Version 6: moderation, `sanctions` (a ban or a mute on a name) and `admin_log`. Version 7:
//! the bot levels' stored ratings dropped, because the twelve-level ladder (protocol version 9)
//! planned the levels anew; each re-enters at its new measured rating. Versions 8 and 9: Pente's
//! bot ratings dropped again, each time its levels were planned anew; versions 10 and 11:
//! checkers'.
//! A migration once released never changes; a change is a new migration appended here, with a
//! fixture of the previous version in `fixtures/` to test the step.

use super::store::StoreError;
use rusqlite::Connection;

/// Every migration, the one at index `i` taking the database from version `i` to `i + 1`.
pub const MIGRATIONS: [&str; 11] = [
    // Version 1.
    "CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        time_control TEXT NOT NULL,
        rated INTEGER NOT NULL,
        pente_tournament_rule INTEGER NOT NULL,
        start_position TEXT,
        first_seat TEXT,
        second_seat TEXT,
        created_at_ms INTEGER NOT NULL,
        winner TEXT,
        end_reason TEXT,
        finished_at_ms INTEGER
    );
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        text TEXT NOT NULL,
        first_clock_ms INTEGER,
        second_clock_ms INTEGER,
        played_at_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    CREATE TABLE identities (
        name TEXT PRIMARY KEY,
        secret_hash BLOB NOT NULL,
        created_at_ms INTEGER NOT NULL
    );
    CREATE TABLE resume_tokens (
        token_hash BLOB PRIMARY KEY,
        name TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
    );",
    // Version 2.
    "CREATE TABLE ratings (
        kind TEXT NOT NULL,
        bot INTEGER NOT NULL,
        player TEXT NOT NULL,
        rating REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        PRIMARY KEY (kind, bot, player)
    );
    CREATE INDEX ratings_by_rating ON ratings (kind, rating DESC);
    CREATE INDEX games_finished ON games (finished_at_ms) WHERE finished_at_ms IS NOT NULL;
    CREATE INDEX games_unfinished ON games (id) WHERE finished_at_ms IS NULL;",
    // Version 3: names belong to Ed25519 public keys. A name registered with a version-2 secret
    // keeps that secret's hash until its holder binds a key to it; the server gets a stable id
    // for the identity challenge.
    "CREATE TABLE identities_v3 (
        name TEXT PRIMARY KEY,
        public_key BLOB,
        legacy_secret_hash BLOB,
        created_at_ms INTEGER NOT NULL,
        bound_at_ms INTEGER,
        CHECK (public_key IS NOT NULL OR legacy_secret_hash IS NOT NULL)
    );
    INSERT INTO identities_v3 (name, legacy_secret_hash, created_at_ms)
        SELECT name, secret_hash, created_at_ms FROM identities;
    DROP TABLE identities;
    ALTER TABLE identities_v3 RENAME TO identities;
    CREATE TABLE server_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO server_meta (key, value) VALUES ('server_id', lower(hex(randomblob(16))));",
    // Version 4: games name their rule variant instead of a boolean only Pente read. A Pente game
    // stored without the tournament rule is the free variant; every other game is standard
    // (checkers games stored with the boolean off ignored it).
    "ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
    UPDATE games SET variant = 'free' WHERE kind = 'pente' AND pente_tournament_rule = 0;
    ALTER TABLE games DROP COLUMN pente_tournament_rule;",
    // Version 5: each game's fencing token, for servers sharing a database as cluster nodes
    // (`fence.rs`); a lone server never writes it.
    "CREATE TABLE game_leases (
        game_id INTEGER PRIMARY KEY,
        token INTEGER NOT NULL
    );",
    // Version 6: moderation. A name's sanctions (a ban, with the reason told at sign-in; a
    // mute), and the log of what admins did.
    "CREATE TABLE sanctions (
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        reason TEXT,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (name, kind)
    ) WITHOUT ROWID;
    CREATE TABLE admin_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at_ms INTEGER NOT NULL,
        admin TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT,
        detail TEXT
    );",
    // Version 7: the twelve-level ladder (protocol version 9) planned the bot levels anew, so a
    // level's stored rating described another bot: bots' ratings are dropped, and each level
    // re-enters the pool at its new measured rating (`ratings::Rating::seed`) at its next rated
    // game. People's ratings are kept.
    "DELETE FROM ratings WHERE bot = 1;",
    // Version 8: Pente's levels planned anew once more (the even ladder: `novice`, `easy`,
    // `strong` and `master` play otherwise): Pente's bots' ratings are dropped again, to
    // re-enter at the new measured ones. Checkers' and noughts and crosses' are kept.
    "DELETE FROM ratings WHERE bot = 1 AND kind = 'pente';",
    // Version 9: Pente's levels spaced again once the expert had outgrown the top step (each
    // level from `intermediate` to `strong` took the plan of the level above it, `casual` and
    // `master` new ones): a level's stored rating described another bot, so Pente's bots'
    // ratings are dropped once more.
    "DELETE FROM ratings WHERE bot = 1 AND kind = 'pente';",
    // Version 10: checkers' levels from `easy` up planned anew once the expert had outgrown the
    // top step (colder fixed depths, larger node budgets): checkers' bots' ratings are dropped,
    // to re-enter at the new measured ones. Pente's and noughts and crosses' are kept.
    "DELETE FROM ratings WHERE bot = 1 AND kind = 'checkers';",
    // Version 11: checkers' levels from `casual` up planned anew so that the expert's step
    // came inside the band (colder fixed depths at four and five plies, larger node budgets):
    // checkers' bots' ratings are dropped again. Pente's and noughts and crosses' are kept.
    "DELETE FROM ratings WHERE bot = 1 AND kind = 'checkers';",
];

/// The schema version this build writes.
pub const CURRENT_VERSION: i64 = MIGRATIONS.len() as i64;

fn database(err: rusqlite::Error) -> StoreError {
    StoreError::Database(err.to_string())
}

/// The schema version of a database, 0 for an empty one.
pub fn version(connection: &Connection) -> Result<i64, StoreError> {
    connection
        .execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_version (
                version INTEGER PRIMARY KEY,
                applied_at_ms INTEGER NOT NULL
            )",
        )
        .map_err(database)?;
    connection
        .query_row(
            "SELECT COALESCE(MAX(version), 0) FROM schema_version",
            [],
            |row| row.get(0),
        )
        .map_err(database)
}

/// Brings a database to [`CURRENT_VERSION`], returning the version it was at.
pub fn migrate(connection: &mut Connection, now_ms: i64) -> Result<i64, StoreError> {
    let found = version(connection)?;
    if found > CURRENT_VERSION {
        return Err(StoreError::Corrupt(format!(
            "the database is at schema version {found}, newer than this server's \
             {CURRENT_VERSION}; run a newer kingme-server or use another --db"
        )));
    }
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let transaction = connection.transaction().map_err(database)?;
        transaction.execute_batch(migration).map_err(database)?;
        transaction
            .execute(
                "INSERT INTO schema_version (version, applied_at_ms) VALUES (?1, ?2)",
                (index as i64 + 1, now_ms),
            )
            .map_err(database)?;
        transaction.commit().map_err(database)?;
    }
    Ok(found)
}

#[cfg(test)]
#[path = "fixtures/copy_v4.rs"]
mod copy_v4;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::identity::admit;
    use crate::storage::sanctions::Sanctions;
    use crate::storage::store::{Store, StoredIdentity};
    use crate::storage::{Claim, IdentityError, Participant, SqliteStore};
    use kingme_shared::Side;
    use kingme_shared::ai::Level;
    use kingme_shared::domain::{EndReason, GameId, TimeControl};
    use kingme_shared::identity::SigningKey;
    use kingme_shared::{GameKind, GameSpec, Variant};

    /// A database as version 1 left it.
    const VERSION_1: &str = include_str!("fixtures/schema_v1.sql");
    /// A database as version 2 left it.
    const VERSION_2: &str = include_str!("fixtures/schema_v2.sql");
    /// A database as version 3 left it.
    const VERSION_3: &str = include_str!("fixtures/schema_v3.sql");

    #[test]
    fn a_fresh_database_gets_every_migration() {
        let mut connection = Connection::open_in_memory().unwrap();
        assert_eq!(migrate(&mut connection, 7).unwrap(), 0);
        assert_eq!(version(&connection).unwrap(), CURRENT_VERSION);
        // Running again changes nothing.
        assert_eq!(migrate(&mut connection, 8).unwrap(), CURRENT_VERSION);
        let applied: i64 = connection
            .query_row("SELECT COUNT(*) FROM schema_version", [], |row| row.get(0))
            .unwrap();
        assert_eq!(applied, CURRENT_VERSION);
    }

    #[test]
    fn a_version_1_database_is_migrated_and_keeps_its_games() {
        let connection = Connection::open_in_memory().unwrap();
        connection.execute_batch(VERSION_1).unwrap();
        assert_eq!(version(&connection).unwrap(), 1);
        let mut store = SqliteStore::from_connection(connection, 9).unwrap();
        assert_eq!(store.schema_version().unwrap(), CURRENT_VERSION);
        let finished = store.game(GameId(1)).unwrap().unwrap();
        assert_eq!(finished.moves.len(), 5);
        assert!(finished.to_record().replay().is_ok());
        let unfinished = store.unfinished_games().unwrap();
        assert_eq!(unfinished.len(), 1);
        assert_eq!(
            unfinished[0].moves[0].clocks_ms,
            [Some(290_000), Some(300_000)]
        );
        assert_eq!(
            store.identity("alice").unwrap(),
            Some(StoredIdentity {
                public_key: None,
                legacy_secret_hash: Some(vec![0])
            })
        );
        assert_eq!(
            store.resume_token_owner(&[1]).unwrap().as_deref(),
            Some("alice")
        );
        // Version 2's ratings table is there and empty.
        assert_eq!(store.leaderboard(None, 10).unwrap(), vec![]);
    }

    #[test]
    fn a_version_2_database_is_migrated_and_a_secret_holder_binds_a_key() {
        let connection = Connection::open_in_memory().unwrap();
        connection.execute_batch(VERSION_2).unwrap();
        assert_eq!(version(&connection).unwrap(), 2);
        let mut store = SqliteStore::from_connection(connection, 9).unwrap();
        assert_eq!(store.schema_version().unwrap(), CURRENT_VERSION);
        // Games, tokens and ratings are all still there.
        assert_eq!(store.game(GameId(1)).unwrap().unwrap().moves.len(), 5);
        assert_eq!(store.unfinished_games().unwrap().len(), 1);
        assert_eq!(
            store.resume_token_owner(&[1]).unwrap().as_deref(),
            Some("alice")
        );
        let board = store.leaderboard(None, 10).unwrap();
        assert_eq!(board[0].player, "carol");
        // The server got an id.
        let id = store.server_id().unwrap();
        assert_eq!(id.len(), 32);
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
        // carol's name is kept for the client holding her version-2 secret, and only for it.
        let key = |seed: u8| {
            SigningKey::from_bytes(&[seed; 32])
                .verifying_key()
                .to_bytes()
        };
        let claim = |seed: u8, secret: Option<&str>| Claim::Person {
            public_key: key(seed),
            legacy_secret: secret.map(str::to_owned),
        };
        assert!(matches!(
            admit(&mut store, "carol", &claim(1, None), 10),
            Err(IdentityError::LegacySecretRequired(_))
        ));
        assert_eq!(
            admit(&mut store, "carol", &claim(1, Some("c0ffee")), 11),
            Ok(Sanctions::default())
        );
        assert_eq!(
            admit(&mut store, "carol", &claim(1, None), 12),
            Ok(Sanctions::default())
        );
        assert!(matches!(
            admit(&mut store, "carol", &claim(2, Some("c0ffee")), 13),
            Err(IdentityError::OtherKey { .. })
        ));
    }

    #[test]
    fn a_version_3_database_is_migrated_and_its_games_keep_their_rules() {
        let mut connection = Connection::open_in_memory().unwrap();
        connection.execute_batch(VERSION_3).unwrap();
        assert_eq!(migrate(&mut connection, 9).unwrap(), 3);
        // The boolean column is gone; the variant took its place.
        let columns: Vec<String> = connection
            .prepare("SELECT name FROM pragma_table_info('games')")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(columns.contains(&"variant".to_owned()), "{columns:?}");
        assert!(
            !columns.iter().any(|c| c.contains("tournament")),
            "{columns:?}"
        );
        let mut store = SqliteStore::from_connection(connection, 9).unwrap();
        assert_eq!(store.schema_version().unwrap(), CURRENT_VERSION);
        let spec = |store: &mut SqliteStore, id: u64| {
            let game = store.game(GameId(id)).unwrap().unwrap();
            assert!(game.to_record().replay().is_ok(), "game {id} replays");
            game.game.spec
        };
        let free = GameSpec::new(GameKind::Pente, Variant::Free).unwrap();
        assert_eq!(spec(&mut store, 3), free);
        assert_eq!(spec(&mut store, 4), GameSpec::standard(GameKind::Pente));
        assert_eq!(spec(&mut store, 5), GameSpec::standard(GameKind::Checkers));
        assert_eq!(spec(&mut store, 1), GameSpec::standard(GameKind::TicTacToe));
        // The free game's third move is legal only without the tournament rule: read under the
        // wrong rule, it would not replay.
        let mut wrong = store.game(GameId(3)).unwrap().unwrap().to_record();
        wrong.spec = GameSpec::standard(GameKind::Pente);
        assert!(wrong.replay().is_err());
        // The unfinished games come back for resuming, each under its rule.
        let unfinished: Vec<(u64, GameSpec)> = store
            .unfinished_games()
            .unwrap()
            .iter()
            .map(|game| (game.game.id.0, game.game.spec))
            .collect();
        assert_eq!(
            unfinished,
            [(2, GameSpec::standard(GameKind::Checkers)), (3, free)]
        );
        // Everything else of version 3 is kept: keys, secrets, the server's id, ratings.
        assert_eq!(
            store.server_id().unwrap(),
            "0123456789abcdef0123456789abcdef"
        );
        assert_eq!(
            store.identity("dave").unwrap(),
            Some(StoredIdentity {
                public_key: Some([0x11; 32]),
                legacy_secret_hash: None
            })
        );
        // Carol's rating; the bot's was dropped by version 7 (the levels planned anew).
        assert_eq!(store.leaderboard(None, 10).unwrap().len(), 1);
    }

    /// The frozen version-4 database in a temporary directory.
    fn version_4_database() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let db = super::copy_v4::copy_version_4_database(dir.path());
        (dir, db)
    }

    #[test]
    fn a_version_4_database_made_by_version_4_is_migrated_with_everything_in_it() {
        let (_dir, path) = version_4_database();
        let mut connection = Connection::open(&path).unwrap();
        assert_eq!(migrate(&mut connection, 9).unwrap(), 4);
        let mut store = SqliteStore::from_connection(connection, 9).unwrap();
        assert_eq!(store.schema_version().unwrap(), CURRENT_VERSION);
        let tictactoe = GameSpec::standard(GameKind::TicTacToe);
        let checkers = GameSpec::standard(GameKind::Checkers);
        let person = |name: &str| Participant::Person(name.to_owned());
        // The finished games: two between persons, one against a bot, two never started.
        for (id, seats, winner) in [
            (1, [person("bob"), person("ada")], Some(Side::First)),
            (3, [person("ada"), person("bob")], None),
            (
                5,
                [person("ada"), Participant::Bot(Level::Random)],
                Some(Side::First),
            ),
        ] {
            let game = store.game(GameId(id)).unwrap().unwrap();
            assert_eq!((game.game.spec, game.game.rated), (tictactoe, true));
            assert_eq!(game.game.seats, seats, "game {id}");
            assert_eq!(game.moves.len(), 9, "game {id}");
            assert_eq!(game.result.unwrap().winner, winner, "game {id}");
            assert!(game.to_record().replay().is_ok(), "game {id} replays");
        }
        for id in [2, 4] {
            let game = store.game(GameId(id)).unwrap().unwrap();
            assert_eq!(game.result.unwrap().reason, EndReason::Aborted);
        }
        // The unfinished ones, with their moves and clocks.
        let unfinished = store.unfinished_games().unwrap();
        let ids: Vec<u64> = unfinished.iter().map(|game| game.game.id.0).collect();
        assert_eq!(ids, [6, 7]);
        let against_bot = &unfinished[0];
        assert_eq!(against_bot.game.spec, checkers);
        assert_eq!(
            against_bot.game.seats,
            [person("cy"), Participant::Bot(Level::Random)]
        );
        let texts: Vec<&str> = against_bot.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["11-15", "21-17", "9-13", "22-18"]);
        let between_persons = &unfinished[1];
        assert_eq!(between_persons.game.seats, [person("ada"), person("bob")]);
        assert_eq!(
            between_persons.game.time_control,
            TimeControl::Incremental {
                initial_secs: 600,
                increment_secs: 5
            }
        );
        let last = between_persons.moves.last().unwrap();
        assert_eq!((last.ply, last.text.as_str()), (4, "24-19"));
        assert_eq!(last.clocks_ms, [Some(603_532), Some(604_998)]);
        // Ratings: ada and bob; the random bot's was dropped by version 7 (the levels planned
        // anew).
        let board: Vec<(String, bool, u32)> = store
            .leaderboard(Some(GameKind::TicTacToe), 10)
            .unwrap()
            .into_iter()
            .map(|entry| (entry.player, entry.bot, entry.games))
            .collect();
        assert_eq!(
            board,
            [("bob".to_owned(), false, 2), ("ada".to_owned(), false, 3)]
        );
        // Identities: the keys the fixture's players used (seeds 7, 8 and 9).
        for (name, seed) in [("ada", 7), ("bob", 8), ("cy", 9)] {
            let key = SigningKey::from_bytes(&[seed; 32])
                .verifying_key()
                .to_bytes();
            assert_eq!(
                store.identity(name).unwrap().unwrap().public_key,
                Some(key),
                "{name}"
            );
        }
        // Version 5's fencing tokens work on the migrated games.
        let token = store.claim_lease(GameId(7)).unwrap();
        assert!(store.check_lease(GameId(7), token).is_ok());
    }

    /// An empty database in memory brought to `version` by this build's own migrations.
    fn database_at(version: usize) -> Connection {
        let connection = Connection::open_in_memory().unwrap();
        connection
            .execute_batch(
                "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at_ms INTEGER NOT NULL);",
            )
            .unwrap();
        for (index, migration) in MIGRATIONS[..version].iter().enumerate() {
            connection.execute_batch(migration).unwrap();
            connection
                .execute(
                    "INSERT INTO schema_version VALUES (?1, 0)",
                    [index as i64 + 1],
                )
                .unwrap();
        }
        connection
    }

    /// A store opened on a database brought to `version`, given `rows`, then migrated by this
    /// build (which says it found `version`).
    fn migrated_from(version: usize, rows: &str) -> SqliteStore {
        let mut connection = database_at(version);
        connection.execute_batch(rows).unwrap();
        assert_eq!(migrate(&mut connection, 9).unwrap(), version as i64);
        SqliteStore::from_connection(connection, 9).unwrap()
    }

    #[test]
    fn a_version_5_database_gets_moderation_and_keeps_its_games() {
        let mut store = migrated_from(
            5,
            "INSERT INTO games (id, kind, time_control, rated, created_at_ms) \
             VALUES (1, 'tictactoe', 'unlimited', 0, 0);",
        );
        assert_eq!(store.schema_version().unwrap(), CURRENT_VERSION);
        assert!(store.game(GameId(1)).unwrap().is_some());
        use crate::storage::sanctions::SanctionKind;
        store
            .sanction("ann", SanctionKind::Ban, Some("spam"), 10)
            .unwrap();
        assert_eq!(
            store.sanctions("ann").unwrap().ban,
            Some(Some("spam".into()))
        );
        assert_eq!(store.admin_log(10).unwrap(), vec![]);
    }

    #[test]
    fn a_version_6_database_drops_the_bots_ratings_and_keeps_the_peoples() {
        use crate::storage::ratings::{Rated, Rating};
        // A person's and a bot level's ratings, as version 6 kept them.
        let mut store = migrated_from(
            6,
            "INSERT INTO ratings VALUES ('checkers', 0, 'carol', 1530.0, 3, 2, 0, 1);
             INSERT INTO ratings VALUES ('checkers', 1, 'intermediate', 1190.0, 3, 1, 0, 2);",
        );
        let carol = Rated::Person("carol".to_owned());
        let bot = Rated::Bot(Level::Intermediate);
        assert_eq!(
            store
                .rating(GameKind::Checkers, &carol)
                .unwrap()
                .map(|r| r.rating),
            Some(1530.0)
        );
        assert_eq!(store.rating(GameKind::Checkers, &bot).unwrap(), None);
        // The level re-enters at its measured rating, not the old stored one.
        assert_ne!(Rating::seed(GameKind::Checkers, &bot).rating, 1190.0);
    }

    /// The ratings left once a database at `version` holding a Pente and a checkers rating of
    /// the bot `level` and a person's Pente rating is migrated by this build: the Pente bot's,
    /// the checkers bot's and the person's, in that order.
    fn ratings_migrated_from(version: usize, level: &str) -> [Option<f64>; 3] {
        use crate::storage::ratings::Rated;
        let mut store = migrated_from(
            version,
            &format!(
                "INSERT INTO ratings VALUES ('pente', 1, '{level}', 2190.0, 3, 2, 0, 1);
                 INSERT INTO ratings VALUES ('pente', 0, 'carol', 1480.0, 3, 1, 0, 2);
                 INSERT INTO ratings VALUES ('checkers', 1, '{level}', 2070.0, 3, 1, 0, 2);"
            ),
        );
        let mut rating = |kind, who| store.rating(kind, &who).unwrap().map(|r| r.rating);
        let bot = || Rated::Bot(level.parse::<Level>().expect("a level"));
        [
            rating(GameKind::Pente, bot()),
            rating(GameKind::Checkers, bot()),
            rating(GameKind::Pente, Rated::Person("carol".to_owned())),
        ]
    }

    #[test]
    fn a_version_7_database_drops_both_games_bot_ratings_and_keeps_the_peoples() {
        assert_eq!(
            ratings_migrated_from(7, "master"),
            [None, None, Some(1480.0)]
        );
    }

    #[test]
    fn a_version_8_database_drops_both_games_bot_ratings_and_keeps_the_peoples() {
        assert_eq!(
            ratings_migrated_from(8, "strong"),
            [None, None, Some(1480.0)]
        );
    }

    #[test]
    fn a_version_9_database_drops_checkers_bot_ratings_and_keeps_the_rest() {
        assert_eq!(
            ratings_migrated_from(9, "advanced"),
            [Some(2190.0), None, Some(1480.0)]
        );
    }

    #[test]
    fn a_version_10_database_drops_checkers_bot_ratings_again_and_keeps_the_rest() {
        assert_eq!(
            ratings_migrated_from(10, "master"),
            [Some(2190.0), None, Some(1480.0)]
        );
    }

    #[test]
    fn a_newer_database_is_refused() {
        let mut connection = Connection::open_in_memory().unwrap();
        migrate(&mut connection, 0).unwrap();
        connection
            .execute("INSERT INTO schema_version VALUES (99, 0)", [])
            .unwrap();
        let err = migrate(&mut connection, 0).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "schema version 99, newer than this server's {CURRENT_VERSION}"
            )),
            "{err}"
        );
    }
}
