//! The command line is checked before anything is touched: a listening address that is not
//! one, or a database in a directory that does not exist, is refused with the reason, and no
//! file or directory is made.

use crate::SERVER;
use std::process::Output;
use tokio::process::Command;

async fn server(args: &[&str], db: &std::path::Path) -> Output {
    let run = Command::new(SERVER)
        .args(args)
        .arg("--db")
        .arg(db)
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(kingme_testkit::patience::SERVER_LOG, run)
        .await
        .expect("the server ends by itself")
        .unwrap()
}

#[tokio::test]
async fn a_database_in_a_missing_directory_is_refused_and_no_directory_made() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    let output = server(&["--listen", "127.0.0.1:0"], &missing.join("x.db")).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(stderr.contains("no-such-dir"), "{stderr}");
    assert!(!missing.exists(), "the directory was made");
}

#[tokio::test]
async fn a_bad_listening_address_is_refused_before_the_database_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    for args in [["--listen", "nonsense"], ["--http", "nonsense"]] {
        let output = server(&args, &db).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}: {stderr}");
        assert!(stderr.contains("nonsense"), "{args:?}: {stderr}");
        assert!(stderr.contains("HOST:PORT"), "{args:?}: {stderr}");
        assert!(!db.exists(), "{args:?}: the database was made first");
    }
}
