//! The real `kingme-server` binary on a temporary SQLite database, killed with SIGKILL in the
//! middle of two games and started again: every acknowledged move is still there and the
//! players finish (the scenario is in `support/restart_scenario.rs`). Both durability modes
//! promise this much: the default (WAL, `synchronous=NORMAL`) and `--fsync` (`synchronous=FULL`,
//! which adds power-loss safety no test here can show).

#[path = "support/restart_scenario.rs"]
mod restart_scenario;

async fn kill_and_restart(server_args: &[&str]) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("kingme.db");
    restart_scenario::games_survive_a_kill_and_a_restart(db.as_os_str(), server_args).await;
}

#[tokio::test]
async fn games_survive_a_kill_and_a_restart() {
    kill_and_restart(&[]).await;
}

#[tokio::test]
async fn games_survive_a_kill_and_a_restart_with_fsync() {
    kill_and_restart(&["--fsync"]).await;
}
