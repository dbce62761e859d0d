//! The kill-and-restart scenario the server's suites run on each store (`restart` on SQLite,
//! `postgres` on PostgreSQL): the real `kingme-server` binary killed with SIGKILL in the middle
//! of two games and started again on the same database. Every acknowledged move is still
//! there, the clocks stand where they stood, the bot plays on, and the players come back (a
//! person by proving their key, on another port and address; a guest with its resume token)
//! and finish. Also: a name belongs to its key, a second client of a person takes over, and
//! finished games can be listed and exported.

use crate::client::{Client, hello_message};
use crate::games::tictactoe_options;
use crate::server_process::start_server_process;
use kingme_shared::ai::Level;
use kingme_shared::identity::{self, SigningKey};
use kingme_shared::protocol::{
    ClientMessage, EndReason, ErrorKind, GameId, GameState, GameStatus, Opponent, ServerMessage,
    TimeControl,
};
use kingme_shared::{Side, WinReason};
use std::ffi::OsStr;

/// Two games, a kill, a restart of the server binary `program` on the same database `db` (a
/// `--db` value) with `server_args`, and play on.
///
/// # Panics
/// Wherever the server does not keep its promises.
pub async fn games_survive_a_kill_and_a_restart(program: &str, db: &OsStr, server_args: &[&str]) {
    let (mut server, addr) = start_server_process(program, db, server_args).await;

    let alice_key = SigningKey::from_bytes(&[1; 32]);
    let mut alice = Client::person(&addr, "alice", &alice_key).await;
    assert_eq!(alice.games, []);
    let mut bob = Client::hello(&addr, "bob").await;
    let bob_token = bob.token.clone();

    // Game 1: alice (X) against bob (O), with clocks.
    let clocks = TimeControl::Incremental {
        initial_secs: 600,
        increment_secs: 2,
    };
    alice
        .send(ClientMessage::CreateGame(tictactoe_options(
            Opponent::OpenSeat,
            clocks,
            true,
        )))
        .await;
    let people = alice.state_of(GameId(1)).await.id;
    bob.send(ClientMessage::Join { game: people }).await;
    bob.state_of(people).await;
    alice.play(people, "5").await;
    bob.play(people, "1").await;
    let ServerMessage::MovePlayed {
        clocks: clocks_before,
        ..
    } = alice.play(people, "3").await
    else {
        unreachable!("play returns the announcement")
    };
    // Game 2: alice (X) against a bot that answers at once.
    alice
        .send(ClientMessage::CreateGame(tictactoe_options(
            Opponent::Bot(Level::Random),
            TimeControl::Unlimited,
            true,
        )))
        .await;
    let bot_game = alice.state_of(GameId(2)).await.id;
    alice.play(bot_game, "5").await;
    let bot_reply = alice.move_at(bot_game, 2).await;

    // Killed outright: no chance to save anything more.
    server.start_kill().expect("the server is killed");
    server.wait().await.expect("the killed server is reaped");
    drop((alice, bob));
    // Back on another port, and through another name for the same host: the key, not the
    // address or a token, says who alice is, and the welcome names her games.
    let (mut server, addr) = start_server_process(program, db, server_args).await;
    let by_name = addr.replace("127.0.0.1", "localhost");
    let mut alice = Client::person(&by_name, "alice", &alice_key).await;
    let mut games = alice.games.clone();
    games.sort();
    assert_eq!(games, [GameId(1), GameId(2)]);
    let mut bob = Client::resume_guest(&addr, &bob_token).await;
    // Both games' states arrive, in either order.
    let mut states: Vec<GameState> = Vec::new();
    while states.len() < 2 {
        let state = alice.state().await;
        states.retain(|known| known.id != state.id);
        states.push(state);
    }
    states.sort_by_key(|state| state.id);
    let resumed_bot = states.pop().expect("two states");
    let resumed = states.pop().expect("two states");
    assert_eq!((resumed.id, resumed_bot.id), (people, bot_game));
    let texts = |state: &GameState| -> Vec<String> {
        state.moves.iter().map(|mv| mv.text.clone()).collect()
    };
    assert_eq!(texts(&resumed), ["5", "1", "3"]);
    assert_eq!(resumed.status, GameStatus::Playing);
    assert_eq!(resumed.side_to_move, Side::Second);
    // X's clock was stopped after its move and stays exactly where it was; O's runs again
    // from where it stood, the downtime charged to nobody.
    assert_eq!(
        resumed.clocks.remaining_ms[0],
        clocks_before.remaining_ms[0]
    );
    assert_eq!(resumed.clocks.running, Some(Side::Second));
    assert!(resumed.clocks.remaining_ms[1] <= clocks_before.remaining_ms[1]);
    assert_eq!(texts(&resumed_bot), ["5".to_owned(), bot_reply]);

    // Play on and finish: O 2, X 7 completes the diagonal 3-5-7.
    bob.state_of(people).await;
    bob.play(people, "2").await;
    alice.play(people, "7").await;
    let result = alice.game_over(people).await;
    assert_eq!(result.winner, Some(Side::First));
    assert_eq!(result.reason, EndReason::Win(WinReason::ThreeInARow));
    // The bot was seated again: it answers a new move.
    let free = ["1", "2", "3", "4", "6", "7", "8", "9"]
        .into_iter()
        .find(|square| **square != *texts(&resumed_bot)[1])
        .expect("a free square");
    alice.play(bot_game, free).await;
    alice.move_at(bot_game, 4).await;

    // The finished game is in the history and exports with every move.
    alice
        .send(ClientMessage::History {
            player: Some("bob".into()),
            kind: None,
        })
        .await;
    let history = alice
        .until(|message| match message {
            ServerMessage::History { games } => Some(games),
            _ => None,
        })
        .await;
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].id, people);
    assert_eq!(history[0].players, ["alice", "bob (guest)"]);
    alice.send(ClientMessage::Export { game: people }).await;
    let record = alice
        .until(|message| match message {
            ServerMessage::Record { record, .. } => Some(record),
            _ => None,
        })
        .await;
    assert_eq!(record.moves, ["5", "1", "3", "2", "7"]);

    // Impersonation: alice's name with another key, or as a guest.
    let mallory = SigningKey::from_bytes(&[2; 32]);
    let refusal = Client::refused(&addr, "alice", &mallory).await;
    let expected = format!(
        "the name \"alice\" belongs to another key (fingerprint {}); use --name to choose \
         another, or import alice's key",
        identity::fingerprint(&alice_key.verifying_key().to_bytes())
    );
    assert!(refusal.starts_with(&expected), "{refusal}");
    let mut posing = Client::connect(&addr).await;
    posing.send(hello_message("alice", None, None)).await;
    let posed = posing.recv().await;
    assert!(
        matches!(&posed, ServerMessage::Error { kind: ErrorKind::Unauthorized, message, .. }
            if message.contains("registered person")),
        "{posed:?}"
    );
    // A second client of alice's takes over her session; the first is told why and closed.
    let mut second = Client::person(&addr, "alice", &alice_key).await;
    let (_, told) = alice.fatal_error().await;
    assert!(
        told.contains("another kingme signed in as \"alice\""),
        "{told}"
    );
    second.send(ClientMessage::Ping { nonce: 9 }).await;
    second
        .until(|message| matches!(message, ServerMessage::Pong { nonce: 9 }).then_some(()))
        .await;

    server.start_kill().expect("the server is killed");
    server.wait().await.expect("the killed server is reaped");
}
