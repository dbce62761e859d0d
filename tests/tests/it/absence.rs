//! Clocks and absent players, on tokio's paused clock: time jumps to the next deadline as soon
//! as everyone waits, so flag falls and grace periods take no real time.

use kingme_server::host::ServerHandle;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::{
    ClientMessage, ClockState, EndReason, ErrorKind, GameId, GameOptions, GameResult, GameStatus,
    SeatHolder, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use kingme_testkit::{Client, open_game, start_server, test_config, two_players};
use std::time::Duration;

/// A game between Ada (first) and Bob under `time_control`.
fn timed(kind: GameKind, time_control: TimeControl) -> GameOptions {
    GameOptions {
        time_control,
        ..open_game(kind)
    }
}

/// A server and an untimed checkers game between Ada (first, to move) and Bob.
async fn untimed_checkers() -> (ServerHandle, Client, Client, GameId) {
    let server = start_server(test_config()).await;
    let (mut ada, bob, game) = two_players(
        server.addr(),
        timed(GameKind::Checkers, TimeControl::Unlimited),
    )
    .await;
    ada.your_turn(game).await;
    (server, ada, bob, game)
}

/// The next `SeatChanged` for `side`: whether its holder is connected.
async fn seat_connected(client: &mut Client, side: Side) -> bool {
    client
        .until(|message| match message {
            ServerMessage::SeatChanged {
                side: changed,
                holder: SeatHolder::Human { connected, .. },
                ..
            } if changed == side => Some(connected),
            _ => None,
        })
        .await
}

/// The next `GameOver`: its result and the clocks it carries.
async fn game_over_with_clocks(client: &mut Client) -> (GameResult, ClockState) {
    client
        .until(|message| match message {
            ServerMessage::GameOver { result, clocks, .. } => Some((result, clocks)),
            _ => None,
        })
        .await
}

#[tokio::test(start_paused = true)]
async fn the_side_whose_flag_falls_loses_on_time_and_clocks_travel_with_moves() {
    let server = start_server(test_config()).await;
    let control = TimeControl::Incremental {
        // Short enough that Bob's flag falls (at 50 s) well before a connection the test is not
        // reading meanwhile could be closed as idle (at 70 s).
        initial_secs: 40,
        increment_secs: 2,
    };
    let (mut ada, mut bob, game) =
        two_players(server.addr(), timed(GameKind::TicTacToe, control)).await;
    ada.your_turn(game).await;
    tokio::time::advance(Duration::from_secs(10)).await;
    ada.send_move(game, "5").await;
    let clocks = bob
        .until(|message| match message {
            ServerMessage::MovePlayed { clocks, .. } => Some(clocks),
            _ => None,
        })
        .await;
    // A clock starts at its side's first move: Ada's ten seconds before it cost nothing.
    assert_eq!(clocks.remaining_ms, [Some(40_000), Some(40_000)]);
    assert_eq!(clocks.running, Some(Side::Second));
    // Bob never moves: his first-move allowance (his 40 s) runs out.
    let expected = GameResult {
        winner: Some(Side::First),
        reason: EndReason::TimeForfeit,
    };
    let (bob_result, bob_clocks) = game_over_with_clocks(&mut bob).await;
    let (ada_result, ada_clocks) = game_over_with_clocks(&mut ada).await;
    assert_eq!((bob_result, ada_result), (expected, expected));
    // Both are told the same clocks, the flagged side's at zero.
    assert_eq!(bob_clocks, ada_clocks);
    assert_eq!(bob_clocks.remaining_ms, [Some(40_000), Some(0)]);

    let (mut cy, mut dee, game) = two_players(
        server.addr(),
        timed(GameKind::Checkers, TimeControl::PerMove { secs: 5 }),
    )
    .await;
    let result = dee.game_over(game).await;
    assert_eq!(result.winner, Some(Side::Second));
    assert_eq!(result.reason, EndReason::TimeForfeit);
    assert_eq!(cy.game_over(game).await, result);
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_person_who_signs_in_again_is_seated_at_once_and_others_see_the_countdown() {
    let server = start_server(test_config()).await;
    let key = SigningKey::from_bytes(&[3; 32]);
    let mut ann = Client::person(server.addr(), "ann", &key).await;
    let mut bob = Client::hello(server.addr(), "bob").await;
    let created = ann.create(open_game(GameKind::TicTacToe)).await;
    let game = created.id;
    bob.send(ClientMessage::Join { game }).await;
    bob.state().await;
    ann.your_turn(game).await;
    ann.send_move(game, "5").await;
    bob.your_turn(game).await;
    bob.send_move(game, "1").await;
    ann.your_turn(game).await;
    drop(ann);

    // Bob sees ann away, with the whole grace period (60 s by default) to run.
    let away = bob
        .until(|message| match message {
            ServerMessage::SeatChanged {
                side: Side::First,
                holder:
                    SeatHolder::Human {
                        connected: false,
                        grace_left_ms,
                        ..
                    },
                ..
            } => Some(grace_left_ms),
            _ => None,
        })
        .await;
    let left = away.expect("an absent person's seat says how long is left");
    assert!((59_000..=60_000).contains(&left), "{left}");
    tokio::time::advance(Duration::from_secs(20)).await;

    // Ann signs in again with her key (a new connection, no token): her seat is hers at once.
    let (mut ann, answer) = Client::sign_in(server.addr(), "ann", &key).await;
    assert!(
        matches!(&answer, ServerMessage::Welcome { games, .. } if *games == [game]),
        "{answer:?}"
    );
    let state = ann.state().await;
    assert_eq!(state.id, game);
    assert_eq!(state.your_side, Some(Side::First));
    assert_eq!(state.moves.len(), 2);
    assert!(!ann.your_turn(game).await.is_empty());
    assert!(seat_connected(&mut bob, Side::First).await);
    ann.send_move(game, "9").await;
    assert_eq!(bob.move_played(game).await, (3, "9".to_owned()));
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_player_who_comes_back_with_the_token_in_time_gets_everything_back() {
    let (server, mut ada, mut bob, game) = untimed_checkers().await;
    ada.send_move(game, "11-15").await;
    bob.your_turn(game).await;
    let (player, token) = (ada.player, ada.token.clone());
    drop(ada);
    assert!(!seat_connected(&mut bob, Side::First).await);
    bob.send_move(game, "23-19").await;
    bob.move_played(game).await;
    tokio::time::advance(Duration::from_secs(30)).await;

    // A wrong token gets nobody's seat.
    let (mut thief, answer) =
        Client::resume(server.addr(), "0123456789abcdef0123456789abcdef").await;
    assert!(
        matches!(
            answer,
            ServerMessage::Error {
                kind: ErrorKind::Unauthorized,
                fatal: true,
                ..
            }
        ),
        "{answer:?}"
    );
    assert!(thief.is_closed().await);

    let (mut ada, answer) = Client::resume(server.addr(), &token).await;
    assert!(
        matches!(answer, ServerMessage::Welcome { .. }),
        "{answer:?}"
    );
    assert_eq!(ada.player, player);
    let state = ada.state().await;
    assert_eq!(state.id, game);
    assert_eq!(state.your_side, Some(Side::First));
    let moves: Vec<&str> = state.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["11-15", "23-19"]);
    assert!(!ada.your_turn(game).await.is_empty());
    assert!(seat_connected(&mut bob, Side::First).await);
    ada.send_move(game, "8-11").await;
    assert_eq!(bob.move_played(game).await, (3, "8-11".to_owned()));

    // Resuming from a second connection closes the first.
    let (mut again, answer) = Client::resume(server.addr(), &token).await;
    assert!(matches!(answer, ServerMessage::Welcome { .. }));
    let (kind, message) = ada.fatal_error().await;
    assert_eq!(kind, ErrorKind::Unauthorized);
    assert!(
        message.contains("another kingme signed in as \"ada\""),
        "{message}"
    );
    assert_eq!(again.state().await.moves.len(), 3);
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_player_away_longer_than_the_grace_period_forfeits_and_its_token_expires() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(
        server.addr(),
        timed(GameKind::TicTacToe, TimeControl::Unlimited),
    )
    .await;
    ada.your_turn(game).await;
    let token = ada.token.clone();
    drop(ada);
    assert!(!seat_connected(&mut bob, Side::First).await);
    let result = bob.game_over(game).await;
    assert_eq!(result.winner, Some(Side::Second));
    assert_eq!(result.reason, EndReason::Abandoned);
    tokio::time::advance(Duration::from_secs(1)).await;
    let (_, answer) = Client::resume(server.addr(), &token).await;
    assert!(
        matches!(
            answer,
            ServerMessage::Error {
                kind: ErrorKind::Unauthorized,
                ..
            }
        ),
        "{answer:?}"
    );
    // The finished game is listed with its result.
    bob.send(ClientMessage::ListGames).await;
    let games = bob
        .until(|message| match message {
            ServerMessage::GameList { games } => Some(games.clone()),
            _ => None,
        })
        .await;
    let listed = games.iter().find(|summary| summary.id == game).unwrap();
    assert_eq!(listed.status, GameStatus::Over(result));
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_player_back_within_the_grace_period_sees_how_the_game_ended_meanwhile() {
    let (server, ada, mut bob, game) = untimed_checkers().await;
    let token = ada.token.clone();
    drop(ada);
    assert!(!seat_connected(&mut bob, Side::First).await);
    bob.send(ClientMessage::Resign { game }).await;
    bob.game_over(game).await;
    bob.send(ClientMessage::Leave { game }).await;
    bob.until(|m| matches!(m, ServerMessage::Left { .. }).then_some(()))
        .await;
    let (mut ada, answer) = Client::resume(server.addr(), &token).await;
    assert!(
        matches!(answer, ServerMessage::Welcome { .. }),
        "{answer:?}"
    );
    let state = ada.state().await;
    let won = GameResult {
        winner: Some(Side::First),
        reason: EndReason::Resignation,
    };
    assert_eq!((state.id, state.status), (game, GameStatus::Over(won)));
    server.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_finished_games_table_closes_once_its_players_saw_the_end_and_went() {
    let (server, mut ada, mut bob, game) = untimed_checkers().await;
    ada.send(ClientMessage::Resign { game }).await;
    ada.game_over(game).await;
    bob.game_over(game).await;
    // Both close their connections without leaving, as a client does once a game is over.
    drop((ada, bob));
    // A watcher is soon shown the stored game (whose players the archive shows as present):
    // the table closed, long before the grace period it keeps for a player who was away at
    // the end (the test above) would have run out.
    let mut carol = Client::hello(server.addr(), "carol").await;
    let gone = tokio::time::Instant::now();
    loop {
        carol.send(ClientMessage::Watch { game }).await;
        let state = carol.state_of(game).await;
        if matches!(
            state.seats[0],
            SeatHolder::Human {
                connected: true,
                ..
            }
        ) {
            break;
        }
        assert!(
            gone.elapsed() < Duration::from_secs(10),
            "the finished table stayed open: {state:?}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    server.shutdown().await;
}
