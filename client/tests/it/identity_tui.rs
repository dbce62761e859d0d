//! The full-screen client after a restart, against the real server: a person whose client
//! went away in the middle of a game connects again with the same key, and the app opens the
//! game at once (drawn on ratatui's `TestBackend`); a spectator sees the absence counted down,
//! then `ann is back`.

use kingme_client::identity::KeyStore;
use kingme_client::net::event::Event;
use kingme_client::net::{Net, NetConfig, Security};
use kingme_client::tui::app::{App, Screen};
use kingme_server::host::{Config, ServerHandle};
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, Opponent, SeatChoice, TimeControl,
};
use kingme_shared::{GameKind, Side};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// An app connected to `address` as `name` through a real connection task (`watch_finished`
/// drives one too).
pub(crate) struct Client {
    pub(crate) app: App,
    pub(crate) net: Net,
    events: mpsc::Receiver<Event>,
}

impl Client {
    pub(crate) fn connect(
        address: &str,
        name: &str,
        keys: Option<KeyStore>,
        guest: bool,
    ) -> Client {
        let (events_tx, events) = mpsc::channel(256);
        let config = NetConfig {
            guest,
            secrets: None,
            keys,
            resume_tokens: None,
            security: Security::Tls {
                known_servers: None,
            },
            ..NetConfig::new(address.to_owned(), name.to_owned())
        };
        let net = Net::spawn(config, events_tx, CancellationToken::new());
        Client {
            app: App::new(name, (100, 30), Instant::now()),
            net,
            events,
        }
    }

    /// Feeds the app the connection's events until `done` holds (at most ten seconds).
    pub(crate) async fn until(&mut self, what: &str, done: impl Fn(&App) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !done(&self.app) {
            let event = tokio::time::timeout_at(deadline, self.events.recv())
                .await
                .unwrap_or_else(|_| panic!("waited in vain for {what}: {}", self.app.status))
                .unwrap_or_else(|| panic!("the connection ended before {what}"));
            for message in self.app.update(event) {
                self.net.outgoing.send(message).await.unwrap();
            }
        }
    }

    pub(crate) fn screen(&self) -> String {
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        terminal
            .draw(|frame| kingme_client::tui::ui::draw(frame, &self.app))
            .unwrap();
        let buffer = terminal.backend().buffer();
        let width = usize::from(buffer.area.width);
        buffer
            .content()
            .chunks(width)
            .map(|row| row.iter().map(|cell| cell.symbol()).collect::<String>() + "\n")
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_tui_opens_the_game_in_progress() {
    let server = ServerHandle::start("127.0.0.1:0", Config::default())
        .await
        .unwrap();
    let address = server.addr().to_string();
    let dir = tempfile::tempdir().unwrap();
    let keys = KeyStore::new(dir.path().join("identities"));

    // Ann starts a game of noughts and crosses against a bot; it is her move.
    let mut ann = Client::connect(&address, "ann", Some(keys.clone()), false);
    ann.app.first_request = Some(ClientMessage::CreateGame(GameOptions {
        spec: GameKind::TicTacToe.into(),
        seat: SeatChoice::Side(Side::First),
        opponent: Opponent::Bot(kingme_shared::ai::Level::Random),
        time_control: TimeControl::Unlimited,
        start_position: None,
        rated: false,
    }));
    ann.until("ann's game", |app| {
        app.table.as_ref().is_some_and(|t| t.is_my_turn())
    })
    .await;
    let game: GameId = ann.app.table.as_ref().unwrap().id;

    // Cy, a guest, watches.
    let mut cy = Client::connect(&address, "cy", None, true);
    cy.app.first_request = Some(ClientMessage::Watch { game });
    cy.until("cy watching", |app| app.table.is_some()).await;

    // Ann's client goes away (quitting does not resign).
    ann.net.close().await;
    cy.until("the countdown", |app| {
        app.table.as_ref().is_some_and(|t| {
            t.seat_text(Side::First, Instant::now(), &app.ratings)
                .starts_with("ann disconnected: ")
        })
    })
    .await;
    let countdown =
        cy.app
            .table
            .as_ref()
            .unwrap()
            .seat_text(Side::First, Instant::now(), &cy.app.ratings);
    assert!(countdown.ends_with(" to return"), "{countdown}");
    assert!(
        cy.screen().contains("ann disconnected: "),
        "{}",
        cy.screen()
    );

    // Started again with the same key: the game is open at once, her move.
    let mut again = Client::connect(&address, "ann", Some(keys), false);
    again
        .until("the game back", |app| {
            app.screen == Screen::Game && app.table.as_ref().is_some_and(|t| t.is_my_turn())
        })
        .await;
    assert_eq!(again.app.table.as_ref().unwrap().id, game);
    assert_eq!(again.app.in_progress, vec![game]);
    let screen = again.screen();
    assert!(screen.contains(&format!("back in game {game}")), "{screen}");
    assert!(screen.contains("your move"), "{screen}");
    cy.until("ann is back", |app| app.status.contains("ann is back"))
        .await;

    // And she plays on.
    again
        .net
        .outgoing
        .send(ClientMessage::Move {
            game,
            text: "5".to_owned(),
        })
        .await
        .unwrap();
    cy.until("ann's move", |app| {
        app.table.as_ref().is_some_and(|t| !t.moves.is_empty())
    })
    .await;
    again.net.close().await;
    cy.net.close().await;
    server.shutdown().await;
}
