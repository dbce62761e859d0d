//! Each kind of hostile input once against the real server over TCP, with ordinary games played
//! beside the attacks: every attack gets the answer it should (a fatal error and a close, or
//! refusals), every ordinary game ends by the rules with the moves the rules allow, and the
//! server still greets a new client at the end. `kingme-hostile` does the same at length.

use kingme_server::host::Config;
use kingme_shared::GameKind;
use kingme_shared::protocol::{ErrorKind, GameId};
use kingme_testkit::{Client, start_server, test_config};
use kingme_tests::hostile::{self, Attack, ORDINARY_KINDS, Patience, Reaction};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::Duration;
use tokio::sync::watch;

/// What the server must do about each attack; `None` where either a close or keeping the
/// connection is right (random bytes may look like the start of a long frame; a slow reader is
/// dropped only once its queue is full).
fn expected(attack: Attack) -> Option<Reaction> {
    Some(match attack {
        Attack::RandomBytes | Attack::SlowReader | Attack::ForeignSeat => return None,
        Attack::OversizePrefix | Attack::UndecodablePayload => {
            Reaction::Closed(Some(ErrorKind::Malformed))
        }
        Attack::TruncatedFrame => Reaction::Closed(None),
        Attack::Silent => Reaction::Closed(Some(ErrorKind::HandshakeRequired)),
        Attack::SilentAfterHello => Reaction::Closed(Some(ErrorKind::Timeout)),
        Attack::Flood => Reaction::Closed(Some(ErrorKind::LimitExceeded)),
        Attack::WrongToken => Reaction::Closed(Some(ErrorKind::Unauthorized)),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_attack_is_answered_and_ordinary_games_finish_normally() {
    let config = Config {
        handshake_timeout: Duration::from_millis(300),
        // Short enough for the silent attacks to be closed within the test, long enough that
        // an ordinary player waiting for its turn on a loaded machine is never taken for one.
        idle_timeout: Duration::from_secs(1),
        ..test_config()
    };
    let server = start_server(config).await;
    let addr = server.addr();

    // Ordinary games, one after another, until the attacks are over; the one in progress is
    // published for the attacks that meddle with it.
    let (current, watching) = watch::channel(None::<GameId>);
    let (stop, stopped) = watch::channel(false);
    let players = tokio::spawn(async move {
        let mut games = Vec::new();
        loop {
            let kind = ORDINARY_KINDS[games.len() % ORDINARY_KINDS.len()];
            let publish = current.clone();
            games.push(
                hostile::ordinary_game(addr, kind, games.len() as u64, move |id| {
                    publish.send_replace(Some(id));
                })
                .await,
            );
            if *stopped.borrow() && games.len() >= ORDINARY_KINDS.len() {
                return games;
            }
        }
    });

    let patience = Patience {
        reaction: Duration::from_secs(30),
        slow_reader_hold: Duration::from_millis(500),
    };
    let mut rng = StdRng::seed_from_u64(8);
    for attack in Attack::ALL {
        let games: Vec<GameId> = watching.borrow().iter().copied().collect();
        let reaction = hostile::attack(addr, attack, &games, patience, &mut rng)
            .await
            .unwrap_or_else(|err| panic!("{attack}: {err}"));
        match (attack, expected(attack)) {
            (Attack::ForeignSeat, _) => {
                let Reaction::Refused {
                    errors,
                    moves_rejected,
                } = &reaction
                else {
                    panic!("{attack}: {reaction}");
                };
                assert_eq!(errors.len() + moves_rejected, 8, "one refusal per request");
                assert!(
                    errors
                        .iter()
                        .all(|kind| matches!(kind, ErrorKind::NotAllowed | ErrorKind::NoSuchGame)),
                    "{errors:?}"
                );
            }
            (_, Some(expected)) => assert_eq!(reaction, expected, "{attack}"),
            (_, None) => {}
        }
    }
    stop.send_replace(true);

    let games = players.await.expect("the ordinary players");
    assert!(games.len() >= ORDINARY_KINDS.len());
    for game in &games {
        assert_eq!(game.disturbed, None, "{game:?}");
        assert!(game.moves > 0, "{game:?}");
    }
    assert!(games.iter().any(|game| game.kind == GameKind::Checkers));

    // Still serving.
    let mut late = Client::hello(addr, "late").await;
    assert_ne!(late.token, "");
    late.send(kingme_shared::protocol::ClientMessage::ListGames)
        .await;
    server.shutdown().await;
}
