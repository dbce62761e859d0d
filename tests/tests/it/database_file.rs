//! The database cannot vanish silently: a database file removed while the server runs stops
//! every move with an error saying so (nothing is announced into an unlinked file), and the next
//! start refuses to begin afresh where the seal says a database was, unless the operator says
//! `--new-database`. Also: an open game its creator left is stored as aborted at once, not left
//! for the next start. And the file keeps no secret: resume tokens only as their hashes.

use kingme_server::host::{Config, Database, ServerHandle};
use kingme_shared::ai::Level;
use kingme_shared::protocol::{Opponent, ServerMessage};
use kingme_shared::{GameKind, Side};
use kingme_testkit::Client;
use kingme_testkit::{options, start_server, test_config};

#[tokio::test]
async fn a_database_file_removed_during_play_stops_the_moves_with_an_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.db");
    let config = Config {
        database: Database::File(path.clone()),
        ..test_config()
    };
    let server = start_server(config.clone()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let game = ada
        .create(options(
            GameKind::TicTacToe,
            Side::First,
            Opponent::Bot(Level::Random),
        ))
        .await
        .id;
    ada.your_turn(game).await;
    ada.send_move(game, "5").await;
    assert_eq!(ada.move_played(game).await.0, 1);
    assert_eq!(ada.move_played(game).await.0, 2);
    let legal = ada.your_turn(game).await;

    std::fs::remove_file(&path).expect("the database file is removed");
    ada.send_move(game, &legal[0]).await;
    let reason = ada
        .until(|m| match m {
            ServerMessage::MoveRejected { reason, .. } => Some(reason.clone()),
            ServerMessage::MovePlayed { ply: 3, .. } => panic!("a move went into a removed file"),
            _ => None,
        })
        .await;
    assert!(
        reason.contains("was removed") && reason.contains("put the file back"),
        "{reason}"
    );
    server.shutdown().await;

    // The next start does not quietly create an empty database in its place.
    let refused = ServerHandle::start("127.0.0.1:0", config.clone())
        .await
        .expect_err("a start on a missing database is refused");
    let message = refused.to_string();
    assert!(
        message.contains("is missing") && message.contains("--new-database"),
        "{message}"
    );
    // Unless the operator says so.
    let fresh = Config {
        new_database: true,
        ..config.clone()
    };
    start_server(fresh).await.shutdown().await;
    // From then on the new database is the sealed one.
    start_server(config).await.shutdown().await;
}

#[tokio::test]
async fn a_foreign_database_in_place_of_the_sealed_one_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.db");
    let config = Config {
        database: Database::File(path.clone()),
        ..test_config()
    };
    start_server(config.clone()).await.shutdown().await;
    // Another kingme database (its own id) is copied over this one.
    let other = dir.path().join("other.db");
    let other_config = Config {
        database: Database::File(other.clone()),
        ..test_config()
    };
    start_server(other_config).await.shutdown().await;
    std::fs::rename(&other, &path).expect("the file is replaced");
    // Copied as a person copies a file: without either database's write-ahead log beside it (a
    // log left behind would be replayed into the copy).
    for leftover in [
        "games.db-wal",
        "games.db-shm",
        "other.db-wal",
        "other.db-shm",
    ] {
        let _ = std::fs::remove_file(dir.path().join(leftover));
    }
    let refused = ServerHandle::start("127.0.0.1:0", config)
        .await
        .expect_err("a foreign database is refused");
    assert!(
        refused.to_string().contains("another database"),
        "{refused}"
    );
}

#[tokio::test]
async fn an_open_game_its_creator_left_is_stored_as_aborted_at_once() {
    let server = start_server(test_config()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let game = ada
        .create(kingme_testkit::open_game(GameKind::Checkers))
        .await
        .id;
    ada.send(kingme_shared::protocol::ClientMessage::Leave { game })
        .await;
    ada.until(|m| matches!(m, ServerMessage::Left { .. }).then_some(()))
        .await;
    // The table closes and stores the result; the export shows it.
    let mut asked = 0;
    let record = loop {
        asked += 1;
        assert!(asked < 100, "the game was never stored as finished");
        ada.send(kingme_shared::protocol::ClientMessage::Export { game })
            .await;
        let record = ada
            .until(|m| match m {
                ServerMessage::Record { record, .. } => Some(record.clone()),
                _ => None,
            })
            .await;
        if record.result.is_some() {
            break record;
        }
        tokio::task::yield_now().await;
    };
    assert_eq!(
        record.result.and_then(|r| r.reason),
        Some(kingme_shared::protocol::EndReason::Aborted)
    );
    server.shutdown().await;
}

/// The server keeps no secret: a guest's resume token is stored only as its SHA-256 hash, so
/// the database file (and its log) holds the hash and never the token.
#[tokio::test]
async fn a_resume_token_is_stored_only_as_its_hash() {
    use sha2::{Digest, Sha256};
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.db");
    let config = Config {
        database: Database::File(path),
        ..test_config()
    };
    let server = start_server(config).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let token = ada.token.clone();
    assert!(token.len() >= 16, "a token was given: {token:?}");
    let game = ada
        .create(options(
            GameKind::TicTacToe,
            Side::First,
            Opponent::Bot(Level::Random),
        ))
        .await
        .id;
    ada.your_turn(game).await;
    ada.send_move(game, "5").await;
    assert_eq!(ada.move_played(game).await.0, 1);
    server.shutdown().await;

    let mut stored = Vec::new();
    for entry in std::fs::read_dir(dir.path()).expect("the directory is read") {
        let entry = entry.expect("an entry");
        if entry.file_name().to_string_lossy().starts_with("games.db") {
            stored.extend(std::fs::read(entry.path()).expect("a database file is read"));
        }
    }
    let contains = |needle: &[u8]| stored.windows(needle.len()).any(|window| window == needle);
    let hash = Sha256::digest(token.as_bytes());
    let hash_hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    assert!(
        contains(&hash) || contains(hash_hex.as_bytes()),
        "the token's hash is stored (so the search below looks where tokens go)"
    );
    assert!(
        !contains(token.as_bytes()),
        "the resume token itself is in the database"
    );
}

/// Milliseconds since the epoch, now.
fn now_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock is after 1970");
    i64::try_from(since.as_millis()).expect("a time in range")
}

/// As it starts, a server forgets the resume tokens saved over a week ago by guests who hold no
/// unfinished game, and keeps the newer ones: the table does not grow with every guest that ever
/// connected.
#[tokio::test]
async fn old_resume_tokens_are_forgotten_as_the_server_starts() {
    use kingme_server::test_support::{SqliteStore, Store};
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.db");
    let old = [1_u8; 32];
    let new = [2_u8; 32];
    {
        let mut store = SqliteStore::open(&path, 0).expect("a new database");
        store
            .save_resume_token(&old, "long_gone", 1)
            .expect("an old token");
        store
            .save_resume_token(&new, "just_left", now_ms())
            .expect("a new token");
    }
    let config = Config {
        database: Database::File(path.clone()),
        ..test_config()
    };
    start_server(config).await.shutdown().await;
    let mut store = SqliteStore::open(&path, 0).expect("the database again");
    assert_eq!(store.resume_token_owner(&old).expect("a lookup"), None);
    assert_eq!(
        store.resume_token_owner(&new).expect("a lookup").as_deref(),
        Some("just_left")
    );
}
