//! A database file restored from a backup is never damaged by what the old file left behind,
//! and a damaged file is never served (issue 33, item 1). These drive the SQLite store the way
//! the server opens it (`SqliteStore::open_sealed`), through the steps a host takes: a backup
//! while games are played, the file replaced, the server stopped, the backup put back.

use kingme_server::test_support::conformance::{alice_and_bot, new_game, stored_move};
use kingme_server::test_support::{SqliteStore, Store, StoreError};
use kingme_shared::GameKind;
use kingme_shared::domain::GameId;
use std::path::{Path, PathBuf};

/// `path` with `suffix` appended to its file name (`g.db` → `g.db-wal`).
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Stores games `ids`, each with a few moves, one committed batch a game.
fn play(store: &mut SqliteStore, ids: std::ops::RangeInclusive<u64>) {
    for id in ids {
        store.begin_batch().unwrap();
        store
            .create_game(&new_game(GameId(id), GameKind::Checkers, alice_and_bot()))
            .unwrap();
        for ply in 1..=4 {
            store
                .record_move(GameId(id), &stored_move(ply, "11-15"))
                .unwrap();
        }
        store.commit_batch().unwrap();
    }
}

/// SQLite's own verdict on the file at `path` ("ok" when sound).
fn integrity(path: &Path) -> String {
    let connection = rusqlite::Connection::open(path).unwrap();
    let verdict: String = connection
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap();
    verdict
}

/// Copies the database at `path` to `to` as `sqlite3 g.db ".backup to"` does.
fn sqlite_backup(path: &Path, to: &Path) {
    let connection = rusqlite::Connection::open(path).unwrap();
    connection
        .backup(rusqlite::MAIN_DB, to, None)
        .expect("the backup");
}

#[test]
fn a_log_left_beside_a_replaced_file_is_never_replayed_into_the_restored_backup() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let backup = dir.path().join("backup.db");
    let mut store = SqliteStore::open_sealed(&path, 0, false).unwrap();
    play(&mut store, 1..=20);
    sqlite_backup(&path, &backup);
    assert_eq!(integrity(&backup), "ok");
    // Play goes on after the backup, then the file is replaced under the server.
    play(&mut store, 21..=200);
    let other = dir.path().join("other");
    std::fs::write(&other, b"another file").unwrap();
    std::fs::rename(&other, &path).unwrap();
    // The server stops (SIGTERM), and the backup is copied over the file (`cp backup.db g.db`).
    drop(store);
    std::fs::copy(&backup, &path).unwrap();

    let mut store = SqliteStore::open_sealed(&path, 1, false)
        .expect("a sound backup is served, whatever was left beside it");
    let games = store.unfinished_games().unwrap();
    assert_eq!(
        games.len(),
        20,
        "exactly the games of the backup: nothing of the old file's log"
    );
    drop(store);
    assert_eq!(integrity(&path), "ok");
}

#[test]
fn a_damaged_database_is_refused_at_start_saying_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let mut store = SqliteStore::open_sealed(&path, 0, false).unwrap();
    play(&mut store, 1..=30);
    drop(store);
    {
        // An index that no longer matches its table, as the replayed log left it.
        let connection = rusqlite::Connection::open(&path).unwrap();
        let table_root: i64 = connection
            .query_row(
                "SELECT rootpage FROM sqlite_schema WHERE name = 'moves'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        connection
            .execute_batch("PRAGMA writable_schema = ON")
            .unwrap();
        connection
            .execute(
                "UPDATE sqlite_schema SET rootpage = ?1 WHERE name = 'games_unfinished'",
                [table_root],
            )
            .unwrap();
    }
    assert_ne!(integrity(&path), "ok", "the file is damaged");

    let refusal = SqliteStore::open_sealed(&path, 1, false)
        .err()
        .expect("a damaged file is not served");
    assert!(matches!(refusal, StoreError::Corrupt(_)), "{refusal:?}");
    let advice = refusal.to_string();
    assert!(
        advice.contains("kingme-server restore"),
        "it says how to restore: {advice}"
    );
    assert!(
        advice.contains("games_unfinished") || advice.contains("index"),
        "it says what is wrong: {advice}"
    );
    // Nothing was written: the damage is there for the host to look at.
    assert!(beside(&path, "-seal").exists());
}

#[test]
fn a_backup_taken_online_is_restored_safely_once_the_server_stops() {
    use kingme_server::test_support::backup::{self, BackupError};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let saved = dir.path().join("backup.db");
    let mut store = SqliteStore::open_sealed(&path, 0, false).unwrap();
    play(&mut store, 1..=20);
    backup::backup(&path, &saved).expect("a backup beside the running store");
    assert_eq!(integrity(&saved), "ok");
    assert!(!beside(&saved, "-wal").exists(), "the backup stands alone");
    play(&mut store, 21..=60);
    let log = dir.path().join("old-log");
    std::fs::copy(beside(&path, "-wal"), &log).unwrap();

    let refused = backup::restore(&saved, &path).expect_err("the store has the file open");
    assert!(matches!(refused, BackupError::InUse(_)), "{refused}");
    assert_eq!(
        store.unfinished_games().unwrap().len(),
        60,
        "nothing touched"
    );
    drop(store);

    // A log the killed server left, beside the file when it is restored.
    std::fs::copy(&log, beside(&path, "-wal")).unwrap();
    let restored = backup::restore(&saved, &path).expect("restored");
    assert_eq!(restored.set_aside.len(), 2, "{restored:?}");
    assert!(!beside(&path, "-wal").exists());
    let mut store = SqliteStore::open_sealed(&path, 1, false).expect("the restored file");
    assert_eq!(store.unfinished_games().unwrap().len(), 20);
    drop(store);
    assert_eq!(integrity(&path), "ok");
}

#[test]
fn a_log_a_killed_server_left_for_a_replaced_file_is_set_aside_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let saved = dir.path().join("backup.db");
    let mut store = SqliteStore::open_sealed(&path, 0, false).unwrap();
    play(&mut store, 1..=20);
    sqlite_backup(&path, &saved);
    play(&mut store, 21..=60);
    let log = dir.path().join("old-log");
    std::fs::copy(beside(&path, "-wal"), &log).unwrap();
    drop(store);
    // As after a SIGKILL: the file replaced (another inode), the old log still beside it.
    std::fs::rename(&saved, &path).unwrap();
    std::fs::copy(&log, beside(&path, "-wal")).unwrap();

    let mut store = SqliteStore::open_sealed(&path, 1, false).unwrap();
    assert_eq!(store.unfinished_games().unwrap().len(), 20);
    drop(store);
    assert_eq!(integrity(&path), "ok");
    let stranded = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .contains("-wal.stranded-")
        })
        .count();
    assert_eq!(stranded, 1, "the old log is kept aside, not deleted");
}

#[test]
fn the_server_binary_backs_up_and_restores() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let saved = dir.path().join("backup.db");
    let mut store = SqliteStore::open_sealed(&path, 0, false).unwrap();
    play(&mut store, 1..=5);
    let server = |args: &[&Path]| {
        let output = std::process::Command::new(crate::SERVER)
            .arg("--db")
            .arg(&path)
            .args(args.iter().map(|arg| arg.as_os_str()))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        (output.status.success(), text)
    };
    let (ok, text) = server(&[Path::new("backup"), &saved]);
    assert!(ok, "{text}");
    let (ok, text) = server(&[Path::new("restore"), &saved]);
    assert!(!ok && text.contains("stop it first"), "{text}");
    drop(store);
    let (ok, text) = server(&[Path::new("restore"), &saved]);
    assert!(ok && text.contains("set aside"), "{text}");
    let mut store = SqliteStore::open_sealed(&path, 1, false).unwrap();
    assert_eq!(store.unfinished_games().unwrap().len(), 5);
}
