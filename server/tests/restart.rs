//! The real `kingme-server` binary on a temporary SQLite database, killed with SIGKILL in the
//! middle of two games and started again: every acknowledged move is still there and the
//! players finish (the scenario is in `support/restart_scenario.rs`).

#[path = "support/restart_scenario.rs"]
mod restart_scenario;

#[tokio::test]
async fn games_survive_a_kill_and_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("kingme.db");
    restart_scenario::games_survive_a_kill_and_a_restart(db.as_os_str()).await;
}
