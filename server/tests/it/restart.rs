//! The real `kingme-server` binary on a temporary SQLite database, killed with SIGKILL in the
//! middle of two games and started again: every acknowledged move is still there and the
//! players finish (the scenario is `kingme_testkit::scenario`'s). Both durability modes
//! promise this much: the default (WAL, `synchronous=NORMAL`) and `--fsync` (`synchronous=FULL`,
//! which adds power-loss safety no test here can show).

#[path = "../../src/storage/fixtures/copy_v4.rs"]
mod copy_v4;

use crate::SERVER;
use kingme_shared::Side;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::{GameId, GameState, GameStatus};
use kingme_testkit::server_process::start_server_process;
use kingme_testkit::{Client, first_legal, scenario};

async fn kill_and_restart(server_args: &[&str]) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("kingme.db");
    scenario::games_survive_a_kill_and_a_restart(SERVER, db.as_os_str(), server_args).await;
}

#[tokio::test]
async fn games_survive_a_kill_and_a_restart() {
    kill_and_restart(&[]).await;
}

#[tokio::test]
async fn games_survive_a_kill_and_a_restart_with_fsync() {
    kill_and_restart(&["--fsync"]).await;
}

/// The frozen version-4 database (`src/storage/fixtures/README.md`), made by the version-4
/// server and client, opened by this server: migrated, and its unfinished games go on, one
/// between two persons (with clocks) and one against a bot.
#[tokio::test]
async fn a_database_made_by_version_4_resumes_its_unfinished_games() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = copy_v4::copy_version_4_database(dir.path());
    let (_server, addr) = start_server_process(SERVER, db.as_os_str(), &[]).await;
    let key = |seed: u8| SigningKey::from_bytes(&[seed; 32]);
    let texts =
        |state: &GameState| -> Vec<String> { state.moves.iter().map(|m| m.text.clone()).collect() };

    // ada (the fixture's key) is seated again in her game against bob, her move.
    let mut ada = Client::person(&addr, "ada", &key(7)).await;
    assert_eq!(ada.games, [GameId(7)]);
    let state = ada.state_of(GameId(7)).await;
    assert_eq!(texts(&state), ["11-15", "22-17", "9-13", "24-19"]);
    assert_eq!(state.status, GameStatus::Playing);
    assert_eq!(state.your_side, Some(Side::First));
    let mut bob = Client::person(&addr, "bob", &key(8)).await;
    assert_eq!(bob.games, [GameId(7)]);
    bob.state_of(GameId(7)).await;
    let text = first_legal(&state);
    ada.play(GameId(7), &text).await;
    assert_eq!(bob.move_at(GameId(7), 5).await, text);

    // cy's game against the bot: the bot is seated again and answers.
    let mut cy = Client::person(&addr, "cy", &key(9)).await;
    assert_eq!(cy.games, [GameId(6)]);
    let state = cy.state_of(GameId(6)).await;
    assert_eq!(texts(&state), ["11-15", "21-17", "9-13", "22-18"]);
    cy.play(GameId(6), &first_legal(&state)).await;
    cy.move_at(GameId(6), 6).await;
}
