//! The review board on the real server (`Analyse`, protocol version 8), started in the test's
//! process on real TCP: a finished game is reviewed (one entry per move, each best move legal
//! where it stands); a game in progress, an unknown game, a second request while one runs, a
//! full server and a spent budget are refused with clear words; a connection that goes stops its
//! analysis; and the server keeps relaying another game's moves while an analysis runs.

use kingme_server::host::{AnalysisLimits, Config};
use kingme_shared::ai::Level;
use kingme_shared::protocol::{ClientMessage, ErrorKind, GameId, ServerMessage};
use kingme_shared::review::GameReview;
use kingme_shared::{AnyGame, GameKind};
use kingme_testkit::server::{start_server, test_config};
use kingme_testkit::{Client, against_bot, open_game, play_first_moves, two_players};
use std::time::Duration;

/// The tests' server: every asker may start many analyses a minute, `running` at once.
fn config(running: usize, per_minute: usize) -> Config {
    Config {
        analysis: AnalysisLimits {
            running,
            per_minute,
            ..AnalysisLimits::default()
        },
        ..test_config()
    }
}

fn analyse(game: GameId, depth: Option<u32>, time_ms: Option<u64>) -> ClientMessage {
    ClientMessage::Analyse {
        game,
        depth,
        time_ms,
    }
}

/// A game of checkers against a bot, resigned by ada after her third move: its id and moves.
async fn short_checkers(ada: &mut Client) -> (GameId, Vec<String>) {
    let game = ada
        .create(against_bot(GameKind::Checkers, Level::Random))
        .await
        .id;
    for _ in 0..3 {
        let legal = ada.your_turn(game).await;
        ada.play(game, &legal[0]).await;
    }
    ada.move_at(game, 6).await;
    ada.send(ClientMessage::Resign { game }).await;
    ada.game_over(game).await;
    ada.send(ClientMessage::Export { game }).await;
    let moves = ada
        .until(|message| match message {
            ServerMessage::Record { record, .. } => Some(record.moves),
            _ => None,
        })
        .await;
    (game, moves)
}

/// A whole game of checkers between two people always playing their first legal move: long
/// enough that its analysis, a second a position, takes minutes.
async fn long_checkers(addr: &str) -> GameId {
    let (mut ada, mut bob, game) = two_players(addr, open_game(GameKind::Checkers)).await;
    let (_, moves) = play_first_moves([&mut ada, &mut bob], game, 0).await;
    assert!(moves.len() >= 20, "a long game: {} moves", moves.len());
    game
}

/// The review of `game`, skipping the progress before it; fails on an error.
async fn review(client: &mut Client, game: GameId) -> GameReview {
    client
        .until(|message| match message {
            ServerMessage::Analysis { game: id, review } if id == game => Some(review),
            ServerMessage::AnalysisProgress { .. } => None,
            ServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_finished_game_is_reviewed_move_by_move_with_legal_best_moves() {
    let server = start_server(config(2, 100)).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let (game, moves) = short_checkers(&mut ada).await;
    ada.send(analyse(game, Some(3), Some(100))).await;
    let review = review(&mut ada, game).await;
    assert_eq!(review.kind, GameKind::Checkers);
    assert_eq!(review.plies.len(), moves.len(), "one entry per move");
    let mut position = AnyGame::start(GameKind::Checkers);
    for (ply, played) in review.plies.iter().zip(&moves) {
        assert_eq!(&ply.played, played);
        assert!(
            position.legal_move_texts().contains(&ply.best),
            "{} is not legal where {} was played",
            ply.best,
            ply.played
        );
        assert!(!ply.best_squares.is_empty(), "the best move's squares");
        position.play_text(played).unwrap();
    }
}

#[tokio::test]
async fn a_game_in_play_and_an_unknown_game_are_refused() {
    let server = start_server(config(2, 100)).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let game = ada
        .create(against_bot(GameKind::Checkers, Level::Random))
        .await
        .id;
    ada.send(analyse(game, None, None)).await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::NotAllowed);
    assert!(
        message.contains(&format!("game {game} is not over yet")),
        "{message}"
    );
    assert!(
        message.contains("never helps anyone playing it"),
        "{message}"
    );
    ada.send(analyse(GameId(9999), None, None)).await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::NoSuchGame);
    assert_eq!(
        message,
        "there is no game 9999; the lobby lists the games there are"
    );
}

#[tokio::test]
async fn one_analysis_at_a_time_on_a_connection_within_the_servers_cap() {
    let server = start_server(config(1, 100)).await;
    let game = long_checkers(&server.addr().to_string()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    ada.send(analyse(game, None, Some(1000))).await;
    ada.send(analyse(game, None, Some(1000))).await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(
        message.contains(&format!("game {game} analysed already")),
        "{message}"
    );
    // The server runs one at a time: another connection waits its turn.
    let mut bob = Client::hello(server.addr(), "bob").await;
    bob.send(analyse(game, None, Some(1000))).await;
    let (kind, message) = bob.error().await;
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(message.contains("analysing 1 games already"), "{message}");
    // When ada goes, her analysis stops and frees its slot, long before it would have ended.
    drop(ada);
    let mut tries = 0;
    loop {
        tries += 1;
        assert!(tries < 100, "the slot was never freed");
        bob.send(analyse(game, None, Some(1000))).await;
        let (started, busy) = bob
            .until(|message| match message {
                ServerMessage::AnalysisProgress { .. } => Some((true, false)),
                ServerMessage::Error { message, .. } => {
                    Some((false, message.contains("analysing 1 games already")))
                }
                _ => None,
            })
            .await;
        if started {
            break;
        }
        assert!(busy, "refused for another reason");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn an_askers_budget_a_minute_is_kept() {
    let server = start_server(config(2, 1)).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let (game, _) = short_checkers(&mut ada).await;
    ada.send(analyse(game, Some(1), Some(10))).await;
    review(&mut ada, game).await;
    ada.send(analyse(game, Some(1), Some(10))).await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(message.contains("within the last minute"), "{message}");
    // A guest's budget is its address's: another name from here has none left either.
    let mut bob = Client::hello(server.addr(), "bob").await;
    bob.send(analyse(game, Some(1), Some(10))).await;
    assert_eq!(bob.error().await.0, ErrorKind::LimitExceeded);
}

#[tokio::test]
async fn moves_of_another_game_are_relayed_while_an_analysis_runs() {
    let server = start_server(config(2, 100)).await;
    let addr = server.addr().to_string();
    let long = long_checkers(&addr).await;
    let mut ada = Client::hello(&addr, "ada").await;
    ada.send(analyse(long, None, Some(1000))).await;
    ada.until(|message| match message {
        ServerMessage::AnalysisProgress { game, .. } if game == long => Some(()),
        ServerMessage::Error { message, .. } => panic!("refused: {message}"),
        _ => None,
    })
    .await;
    // A whole game between two others, every move relayed while the analysis runs.
    let (mut cy, mut di, other) = two_players(&addr, open_game(GameKind::TicTacToe)).await;
    play_first_moves([&mut cy, &mut di], other, 0).await;
    // Ada's analysis is still running: a ping is answered before any review.
    ada.send(ClientMessage::Ping { nonce: 7 }).await;
    let reviewed_first = ada
        .until(|message| match message {
            ServerMessage::Pong { nonce: 7 } => Some(false),
            ServerMessage::Analysis { .. } => Some(true),
            _ => None,
        })
        .await;
    assert!(
        !reviewed_first,
        "the analysis ended before the other game did"
    );
}
