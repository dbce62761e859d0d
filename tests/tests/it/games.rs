//! Whole games over real TCP: two people, a person against a bot, two bots watched, and the
//! judge refusing what it must refuse.

use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, EndReason, GameStatus, SeatChoice, SeatHolder, ServerMessage,
};
use kingme_shared::{AnyGame, GameKind, Side, WinReason};
use kingme_testkit::{
    Client, against_bot, open_game, play_first_moves, play_out, start_server, test_config,
    two_players,
};

#[tokio::test]
async fn two_people_play_noughts_and_crosses_checkers_and_pente_to_a_win() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    let (result, moves) = play_first_moves([&mut ada, &mut bob], game, 0).await;
    // First legal moves fill 1, 2, 3, ...: X takes 1, 3, 5, 7 and wins on the 3-5-7 diagonal.
    assert_eq!(moves, ["1", "2", "3", "4", "5", "6", "7"]);
    assert_eq!(result.winner, Some(Side::First));
    assert_eq!(result.reason, EndReason::Win(WinReason::ThreeInARow));

    for kind in [GameKind::Checkers, GameKind::Pente] {
        let (mut ada, mut bob, game) = two_players(server.addr(), open_game(kind)).await;
        let (result, moves) = play_out([&mut ada, &mut bob], game, 0, |who, legal| {
            if who == 0 {
                legal[0].clone()
            } else {
                legal[legal.len() - 1].clone()
            }
        })
        .await;
        // Replaying the moves with the rules gives the same end: the judge applied exactly them.
        let mut replay = AnyGame::start(kind);
        for text in &moves {
            replay.play_text(text).unwrap();
        }
        let outcome = replay.outcome().expect("the replayed game is over");
        assert_eq!(result.winner, outcome.winner(), "{kind}");
        // Always the first move against always the last ends in a win in both games.
        assert!(
            matches!(result.reason, EndReason::Win(_)),
            "{kind}: {result:?}"
        );
        assert_eq!(
            result.reason,
            EndReason::Win(match outcome {
                kingme_shared::Outcome::Win { reason, .. } => reason,
                kingme_shared::Outcome::Draw { .. } => unreachable!("a win"),
            })
        );
    }
    server.shutdown().await;
}

async fn rejected(client: &mut Client) -> String {
    client
        .until(|message| match message {
            ServerMessage::MoveRejected { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn illegal_out_of_turn_and_foreign_moves_are_refused_and_change_nothing() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::Checkers)).await;
    let mut eve = Client::hello(server.addr(), "eve").await;
    // Out of turn: White moves first.
    bob.send_move(game, "22-18").await;
    let reason = rejected(&mut bob).await;
    assert!(reason.contains("Black's turn"), "{reason}");
    // Illegal: no such move.
    ada.your_turn(game).await;
    ada.send_move(game, "11-99").await;
    let reason = rejected(&mut ada).await;
    assert!(reason.contains("11-99"), "{reason}");
    ada.send_move(game, "22-18").await;
    let reason = rejected(&mut ada).await;
    assert!(reason.contains("22-18"), "{reason}");
    // A 3,000-byte move text (near the frame limit) is refused, and only a short prefix of it is quoted back.
    ada.send_move(game, &"9".repeat(3_000)).await;
    let (text, reason) = ada
        .until(|message| match message {
            ServerMessage::MoveRejected { text, reason, .. } => {
                Some((text.clone(), reason.clone()))
            }
            _ => None,
        })
        .await;
    assert!(text.len() <= 70 && text.ends_with("..."), "{text}");
    assert!(reason.len() < 200, "{reason}");
    // A stranger cannot move for either seat; a spectator neither.
    eve.send_move(game, "11-15").await;
    let reason = rejected(&mut eve).await;
    assert!(reason.contains("do not play"), "{reason}");
    eve.send(ClientMessage::Watch { game }).await;
    let watched = eve.state().await;
    assert!(watched.moves.is_empty(), "nothing was played");
    assert_eq!(watched.side_to_move, Side::First);
    eve.send_move(game, "11-15").await;
    let reason = rejected(&mut eve).await;
    assert!(reason.contains("spectators cannot play"), "{reason}");
    // The legal move still goes through as the first.
    ada.send_move(game, "11-15").await;
    assert_eq!(bob.move_played(game).await, (1, "11-15".to_owned()));
    assert_eq!(eve.move_played(game).await, (1, "11-15".to_owned()));
    server.shutdown().await;
}

#[tokio::test]
async fn a_spectator_gets_the_full_state_then_every_move_in_order() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    ada.your_turn(game).await;
    ada.send_move(game, "5").await;
    bob.move_played(game).await;
    let mut cy = Client::hello(server.addr(), "cy").await;
    cy.send(ClientMessage::Watch { game }).await;
    let state = cy.state().await;
    assert_eq!(state.your_side, None);
    assert_eq!(state.moves.len(), 1);
    assert_eq!(state.moves[0].text, "5");
    assert_eq!(state.position, "----X----");
    let (result, moves) = play_first_moves([&mut bob, &mut ada], game, 0).await;
    let mut seen = Vec::new();
    let watched = cy
        .until(|message| match message {
            ServerMessage::MovePlayed { ply, record, .. } => {
                seen.push((ply, record.text));
                None
            }
            ServerMessage::GameOver { result, .. } => Some(result),
            _ => None,
        })
        .await;
    assert_eq!(watched, result);
    let expected: Vec<(u32, String)> = moves
        .into_iter()
        .enumerate()
        .map(|(i, text)| (i as u32 + 2, text))
        .collect();
    assert_eq!(seen, expected);
    server.shutdown().await;
}

#[tokio::test]
async fn a_person_beats_or_loses_to_a_bot_and_two_bots_play_while_people_watch() {
    let server = start_server(test_config()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let state = ada
        .create(against_bot(GameKind::Checkers, Level::Beginner))
        .await;
    assert_eq!(
        state.seats[1],
        SeatHolder::Bot {
            level: Level::Beginner
        }
    );
    let game = state.id;
    let result = loop {
        let next = ada
            .until(|message| match message {
                ServerMessage::YourTurn { legal_moves, .. } => Some(Ok(legal_moves.clone())),
                ServerMessage::GameOver { result, .. } => Some(Err(result)),
                _ => None,
            })
            .await;
        match next {
            Ok(legal) => ada.send_move(game, &legal[0]).await,
            Err(result) => break result,
        }
    };
    assert!(
        matches!(result.reason, EndReason::Win(_) | EndReason::Draw(_)),
        "{result:?}"
    );

    // Bot against bot: the creator watches, a bot is attached to the open seat.
    let mut options = against_bot(GameKind::TicTacToe, Level::Random);
    options.seat = SeatChoice::Spectate;
    let state = ada.create(options).await;
    assert_eq!(state.your_side, None);
    assert_eq!(state.status, GameStatus::Open);
    let mut cy = Client::hello(server.addr(), "cy").await;
    cy.send(ClientMessage::Watch { game: state.id }).await;
    cy.state().await;
    ada.send(ClientMessage::AttachBot {
        game: state.id,
        level: Level::Beginner,
    })
    .await;
    let ada_saw = ada.game_over(state.id).await;
    let cy_saw = cy.game_over(state.id).await;
    assert_eq!(ada_saw, cy_saw);
    assert!(matches!(
        ada_saw.reason,
        EndReason::Win(_) | EndReason::Draw(_)
    ));
    server.shutdown().await;
}

#[tokio::test]
async fn many_bot_games_do_not_stall_a_game_between_people() {
    let server = start_server(test_config()).await;
    let mut host = Client::hello(server.addr(), "host").await;
    let mut bot_games = Vec::new();
    for _ in 0..12 {
        let mut options = against_bot(GameKind::Checkers, Level::Random);
        options.seat = SeatChoice::Spectate;
        let state = host.create(options).await;
        host.send(ClientMessage::AttachBot {
            game: state.id,
            level: Level::Beginner,
        })
        .await;
        bot_games.push(state.id);
    }
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    let (result, _) = play_first_moves([&mut ada, &mut bob], game, 0).await;
    assert_eq!(result.winner, Some(Side::First));
    server.shutdown().await;
}

#[tokio::test]
async fn a_game_starts_from_a_given_fen_or_board_file() {
    let server = start_server(test_config()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let board_file = "0000\n0000\n0100\n0000\n0020\n0000\n0000\n0000\n1\n";
    for text in ["W:WK10,K30:BK1,K3", board_file] {
        let expected = if text.contains('\n') {
            let file: kingme_shared::games::checkers::BoardFile = text.parse().unwrap();
            kingme_shared::games::checkers::fen(&file.position)
        } else {
            AnyGame::from_position_text(GameKind::Checkers, text)
                .unwrap()
                .position_text()
        };
        let mut setup = against_bot(GameKind::Checkers, Level::Random);
        setup.seat = kingme_shared::protocol::SeatChoice::Side(Side::Second);
        setup.start_position = Some(text.to_owned());
        let state = ada.create(setup).await;
        assert_eq!(state.start_position, expected);
        assert_eq!(state.your_side, Some(Side::Second));
        ada.send(ClientMessage::Resign { game: state.id }).await;
        ada.game_over(state.id).await;
    }
    server.shutdown().await;
}
