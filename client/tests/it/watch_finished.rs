//! The full-screen client watching a finished game from the lobby, against the real server
//! (issue 32, defect 3): `w` on a game between bots that ended and whose table closed opens it
//! from the server's archive, over, with every move to step through, instead of "there is no
//! game N".

use crate::identity_tui::Client;
use kingme_client::net::event::Event;
use kingme_client::tui::app::Screen;
use kingme_server::host::{Config, ServerHandle};
use kingme_shared::protocol::GameStatus;
use ratatui::crossterm::event::{Event as TerminalEvent, KeyCode, KeyEvent, KeyModifiers};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn w_on_a_finished_game_opens_it_from_the_archive() {
    let config = Config {
        bot_move_delay: Duration::ZERO,
        ..kingme_testkit::test_config()
    };
    let server = ServerHandle::start("127.0.0.1:0", config).await.unwrap();
    let address = server.addr().to_string();

    // A game between bots, played out while its creator watched; its table then closes.
    let mut host = kingme_testkit::Client::hello(&address, "host").await;
    let (game, result) = host.bot_game_played_out().await;

    // In the lobby, the finished game is the only one listed: `w` opens it.
    let mut cy = Client::connect(&address, "cy", None, true);
    cy.until("the finished game listed", |app| {
        app.games.len() == 1 && app.games[0].id == game
    })
    .await;
    let key = Event::Terminal(TerminalEvent::Key(KeyEvent::new(
        KeyCode::Char('w'),
        KeyModifiers::NONE,
    )));
    for message in cy.app.update(key) {
        cy.net.outgoing.send(message).await.unwrap();
    }
    cy.until("the finished game open", |app| {
        app.screen == Screen::Game && app.table.as_ref().is_some_and(|t| t.id == game)
    })
    .await;
    let table = cy.app.table.as_ref().unwrap();
    assert_eq!(table.status, GameStatus::Over(result));
    assert!(table.moves.len() >= 5, "every move: {}", table.moves.len());
    let screen = cy.screen();
    assert!(!screen.contains("there is no game"), "{screen}");
    cy.net.close().await;
    server.shutdown().await;
}
