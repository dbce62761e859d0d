//! `Welcome` is the first thing a returning player hears, whatever its games say at that moment
//! (issue 33, item 5): the handshake queues the `Welcome` before it attaches the connection to
//! the player's session, through which the games write. Were the order reversed, a game's
//! message sent between the two would come first, and the kingme client gives up on a hello
//! answered by anything else ("the server answered the hello with SeatChanged").
//!
//! The race is made all but certain rather than waited for: opponents flood several of the
//! player's games with chat in the players' room (the rate limit raised for them), so a message
//! is on its way to the player's session at nearly every instant, while the player, seated in many games (each of
//! which the handshake looks at before the `Welcome`), comes back again and again over
//! plaintext. With the attach and the `Welcome` swapped in `server/src/net/handshake.rs`, a chat
//! line came first in 8 runs of 8, at returns 10 to 163 of the 200 (with spectators flooding,
//! before the chat had two rooms; with opponents flooding, checked once: at return 100).

use kingme_server::host::{Config, TlsSettings, TlsSource};
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{ClientMessage, GameId, ServerMessage};
use kingme_testkit::client::hello_message;
use kingme_testkit::{Client, against_bot, open_game, start_server, test_config};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many times the player comes back.
const RETURNS: usize = 200;

/// The player's games: the handshake looks at each before the `Welcome`, so with many, a
/// `Welcome` queued after the attach would leave the games a wide window.
const GAMES: usize = 16;

/// How many opponents flood the games with chat, each its own game.
const FLOODERS: usize = 6;

/// Chat lines an opponent sends before it reads back its own.
const BATCH: usize = 32;

/// The opponent `name`, seated in `game`, saying `BATCH` lines at a time until `stop`; it reads
/// back its own lines so that its connection is never too slow.
async fn flood(addr: SocketAddr, game: GameId, name: String, stop: Arc<AtomicBool>) {
    let mut opponent = Client::connect_plaintext(addr).await.guest(&name).await;
    opponent.send(ClientMessage::Join { game }).await;
    opponent.state_of(game).await;
    while !stop.load(Ordering::Relaxed) {
        for _ in 0..BATCH {
            let text = "line".to_owned();
            opponent.send(ClientMessage::Chat { game, text }).await;
        }
        let mut echoed = 0;
        while echoed < BATCH {
            if let ServerMessage::Chat { from, .. } = opponent.recv().await
                && from == name
            {
                echoed += 1;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn welcome_comes_before_what_the_games_say() {
    // No rate limit for the flood, and room for it in every queue; plaintext, so that coming
    // back costs little.
    let server = start_server(Config {
        rate_burst: 1_000_000,
        rate_per_second: 1_000_000,
        outbox_capacity: 100_000,
        max_games_per_player: GAMES,
        tls: TlsSettings {
            source: TlsSource::Plaintext,
            proxy_cert: None,
        },
        ..test_config()
    })
    .await;
    let addr = server.addr();
    let mut ada = Client::connect_plaintext(addr).await.guest("ada").await;
    let token = ada.token.clone();
    let mut games = Vec::new();
    for n in 0..GAMES {
        // The flooded games have an open seat for their flooder; the others a bot.
        let options = if n < FLOODERS {
            open_game(GameKind::Checkers)
        } else {
            against_bot(GameKind::Checkers, Level::Random)
        };
        games.push(ada.create(options).await.id);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flooders: Vec<_> = games
        .iter()
        .take(FLOODERS)
        .enumerate()
        .map(|(i, game)| {
            let name = format!("opponent{i}");
            tokio::spawn(flood(addr, *game, name, Arc::clone(&stop)))
        })
        .collect();
    // The flood reaches ada before she starts coming back.
    ada.until(|m| matches!(m, ServerMessage::Chat { .. }).then_some(()))
        .await;

    for round in 0..RETURNS {
        let mut back = Client::connect_plaintext(addr).await;
        let hello = hello_message("ada", None, Some(token.clone()));
        back.send(hello).await;
        let answer = back.recv().await;
        assert!(
            matches!(&answer, ServerMessage::Welcome { games: named, .. } if *named == games),
            "return {round}: the hello was answered first by {answer:?}, not by the Welcome \
             naming games {games:?}"
        );
        // The game was talking to her all along: its chat reaches this connection too.
        back.until(|m| matches!(m, ServerMessage::Chat { .. }).then_some(()))
            .await;
    }
    stop.store(true, Ordering::Relaxed);
    for flooder in flooders {
        flooder.await.unwrap();
    }
}
