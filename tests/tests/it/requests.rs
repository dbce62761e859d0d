//! What players ask of each other during and after a game: takebacks, draws, resignation,
//! rematches, chat, leaving; and what the lobby refuses.

use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, EndReason, ErrorKind, GameId, GameResult, MAX_CHAT_CHARS, Opponent,
    ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use kingme_testkit::{
    Client, against_bot, open_game, options, start_server, test_config, two_players,
};

/// The next `TookBack` and the `State` after it: plies taken back and the moves left.
async fn took_back(client: &mut Client) -> (u32, Vec<String>) {
    let plies = client
        .until(|message| match message {
            ServerMessage::TookBack { plies, .. } => Some(plies),
            _ => None,
        })
        .await;
    let state = client.state().await;
    (plies, state.moves.into_iter().map(|m| m.text).collect())
}

#[tokio::test]
async fn a_takeback_needs_the_opponent_s_consent_and_restores_the_position() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::Checkers)).await;
    ada.your_turn(game).await;
    ada.send_move(game, "11-15").await;
    bob.your_turn(game).await;
    bob.send_move(game, "22-18").await;
    ada.your_turn(game).await;
    // Bob declines Ada's first request.
    ada.send(ClientMessage::RequestTakeback { game }).await;
    bob.until(|m| {
        matches!(
            m,
            ServerMessage::TakebackRequested {
                by: Side::First,
                ..
            }
        )
        .then_some(())
    })
    .await;
    bob.send(ClientMessage::AnswerTakeback {
        game,
        accept: false,
    })
    .await;
    ada.until(|m| {
        matches!(
            m,
            ServerMessage::TakebackDeclined {
                by: Side::Second,
                ..
            }
        )
        .then_some(())
    })
    .await;
    // The second time he agrees: Ada's move and his reply go.
    ada.send(ClientMessage::RequestTakeback { game }).await;
    bob.until(|m| matches!(m, ServerMessage::TakebackRequested { .. }).then_some(()))
        .await;
    bob.send(ClientMessage::AnswerTakeback { game, accept: true })
        .await;
    assert_eq!(took_back(&mut ada).await, (2, Vec::new()));
    assert_eq!(took_back(&mut bob).await, (2, Vec::new()));
    // Ada moves again from the start, something else this time.
    assert!(ada.your_turn(game).await.contains(&"9-13".to_owned()));
    ada.send_move(game, "9-13").await;
    assert_eq!(bob.move_played(game).await, (1, "9-13".to_owned()));
    // Nobody can answer a request that was not made.
    bob.send(ClientMessage::AnswerTakeback { game, accept: true })
        .await;
    let (kind, message) = bob.error().await;
    assert_eq!(kind, ErrorKind::NotAllowed);
    assert!(message.contains("no takeback request"), "{message}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_bot_grants_a_takeback_at_once_in_an_unrated_game_only() {
    let server = start_server(test_config()).await;
    let mut ada = Client::hello(server.addr(), "ada").await;
    let game = ada
        .create(against_bot(GameKind::TicTacToe, Level::Beginner))
        .await
        .id;
    ada.your_turn(game).await;
    ada.send_move(game, "1").await;
    // Wait for the bot's reply, then take both back.
    ada.your_turn(game).await;
    ada.send(ClientMessage::RequestTakeback { game }).await;
    assert_eq!(took_back(&mut ada).await, (2, Vec::new()));
    assert!(ada.your_turn(game).await.len() == 9);

    let mut rated = against_bot(GameKind::TicTacToe, Level::Beginner);
    rated.rated = true;
    let game = ada.create(rated).await.id;
    ada.your_turn(game).await;
    ada.send_move(game, "5").await;
    ada.your_turn(game).await;
    ada.send(ClientMessage::RequestTakeback { game }).await;
    ada.until(|m| {
        matches!(
            m,
            ServerMessage::TakebackDeclined {
                by: Side::Second,
                ..
            }
        )
        .then_some(())
    })
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn draws_are_offered_declined_and_agreed_and_resignation_ends_the_game() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::Pente)).await;
    ada.send(ClientMessage::OfferDraw { game }).await;
    bob.until(|m| {
        matches!(
            m,
            ServerMessage::DrawOffered {
                by: Side::First,
                ..
            }
        )
        .then_some(())
    })
    .await;
    bob.send(ClientMessage::AnswerDraw {
        game,
        accept: false,
    })
    .await;
    ada.until(|m| {
        matches!(
            m,
            ServerMessage::DrawDeclined {
                by: Side::Second,
                ..
            }
        )
        .then_some(())
    })
    .await;
    bob.send(ClientMessage::OfferDraw { game }).await;
    ada.until(|m| {
        matches!(
            m,
            ServerMessage::DrawOffered {
                by: Side::Second,
                ..
            }
        )
        .then_some(())
    })
    .await;
    ada.send(ClientMessage::AnswerDraw { game, accept: true })
        .await;
    let agreed = GameResult {
        winner: None,
        reason: EndReason::DrawAgreed,
    };
    assert_eq!(ada.game_over(game).await, agreed);
    assert_eq!(bob.game_over(game).await, agreed);

    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::Checkers)).await;
    bob.send(ClientMessage::Resign { game }).await;
    let resigned = GameResult {
        winner: Some(Side::First),
        reason: EndReason::Resignation,
    };
    assert_eq!(ada.game_over(game).await, resigned);
    assert_eq!(bob.game_over(game).await, resigned);
    server.shutdown().await;
}

#[tokio::test]
async fn a_rematch_swaps_colours_once_both_ask_and_a_bot_always_agrees() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    ada.send(ClientMessage::Resign { game }).await;
    ada.game_over(game).await;
    bob.game_over(game).await;
    bob.send(ClientMessage::Rematch { game }).await;
    ada.until(|m| {
        matches!(
            m,
            ServerMessage::RematchOffered {
                by: Side::Second,
                ..
            }
        )
        .then_some(())
    })
    .await;
    ada.send(ClientMessage::Rematch { game }).await;
    let rematch = |m: ServerMessage| match m {
        ServerMessage::RematchStarted { rematch, .. } => Some(rematch),
        _ => None,
    };
    let new_game = ada.until(rematch).await;
    assert_eq!(bob.until(rematch).await, new_game);
    let ada_state = ada.state().await;
    let bob_state = bob.state().await;
    assert_eq!(ada_state.id, new_game);
    assert_eq!(ada_state.your_side, Some(Side::Second));
    assert_eq!(bob_state.your_side, Some(Side::First));
    assert!(!bob.your_turn(new_game).await.is_empty());

    let game = ada
        .create(against_bot(GameKind::TicTacToe, Level::Random))
        .await
        .id;
    ada.send(ClientMessage::Resign { game }).await;
    ada.game_over(game).await;
    ada.send(ClientMessage::Rematch { game }).await;
    let new_game = ada.until(rematch).await;
    let state = ada.state().await;
    assert_eq!((state.id, state.your_side), (new_game, Some(Side::Second)));
    server.shutdown().await;
}

#[tokio::test]
async fn chat_has_a_room_for_the_players_and_one_for_the_spectators_within_its_length_limit() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::Checkers)).await;
    let mut cy = Client::hello(server.addr(), "cy").await;
    let mut dan = Client::hello(server.addr(), "dan").await;
    for spectator in [&mut cy, &mut dan] {
        spectator.send(ClientMessage::Watch { game }).await;
        spectator.state().await;
    }
    let chat = |m: ServerMessage| match m {
        ServerMessage::Chat { from, text, .. } => Some((from, text)),
        _ => None,
    };
    cy.send(ClientMessage::Chat {
        game,
        text: "good luck\n\u{1b}[2J".to_owned(),
    })
    .await;
    let line = ("cy".to_owned(), "good luck  [2J".to_owned());
    assert_eq!(cy.until(chat).await, line);
    assert_eq!(dan.until(chat).await, line);
    // The players read their own room only: ada's line is the next either hears...
    ada.send(ClientMessage::Chat {
        game,
        text: "thanks".to_owned(),
    })
    .await;
    let thanks = ("ada".to_owned(), "thanks".to_owned());
    assert_eq!(ada.until(chat).await, thanks);
    assert_eq!(bob.until(chat).await, thanks);
    // ...and the spectators do not read it: dan's line is the next they hear.
    dan.send(ClientMessage::Chat {
        game,
        text: "ada is ahead".to_owned(),
    })
    .await;
    let ahead = ("dan".to_owned(), "ada is ahead".to_owned());
    assert_eq!(cy.until(chat).await, ahead);
    assert_eq!(dan.until(chat).await, ahead);
    let longest = "é".repeat(MAX_CHAT_CHARS);
    ada.send(ClientMessage::Chat {
        game,
        text: longest.clone(),
    })
    .await;
    assert_eq!(bob.until(chat).await, ("ada".to_owned(), longest.clone()));
    ada.send(ClientMessage::Chat {
        game,
        text: format!("{longest}!"),
    })
    .await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::NotAllowed);
    assert!(
        message.contains("301 characters") && message.contains("300"),
        "{message}"
    );
    // A stranger cannot chat into the game.
    let mut eve = Client::hello(server.addr(), "eve").await;
    eve.send(ClientMessage::Chat {
        game,
        text: "hi".to_owned(),
    })
    .await;
    assert_eq!(eve.error().await.0, ErrorKind::NoSuchGame);
    server.shutdown().await;
}

#[tokio::test]
async fn leaving_a_running_game_abandons_it_and_the_lobby_refuses_bad_requests() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::TicTacToe)).await;
    bob.send(ClientMessage::Leave { game }).await;
    bob.until(|m| matches!(m, ServerMessage::Left { .. }).then_some(()))
        .await;
    let result = ada.game_over(game).await;
    assert_eq!(result.winner, Some(Side::First));
    assert_eq!(result.reason, EndReason::Abandoned);

    ada.send(ClientMessage::Join { game: GameId(9999) }).await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::NoSuchGame);
    assert!(message.contains("9999"), "{message}");

    let mut bad = options(GameKind::Checkers, Side::First, Opponent::OpenSeat);
    bad.time_control = TimeControl::PerMove { secs: 0 };
    ada.send(ClientMessage::CreateGame(bad)).await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::InvalidOptions);
    assert!(message.contains("time per move"), "{message}");

    let limit = test_config().max_games_per_player;
    for _ in 0..limit {
        ada.create(options(GameKind::Pente, Side::First, Opponent::OpenSeat))
            .await;
    }
    ada.send(ClientMessage::CreateGame(options(
        GameKind::Pente,
        Side::First,
        Opponent::OpenSeat,
    )))
    .await;
    let (kind, message) = ada.error().await;
    assert_eq!(kind, ErrorKind::LimitExceeded);
    assert!(message.contains(&limit.to_string()), "{message}");
    server.shutdown().await;
}

#[tokio::test]
async fn each_rooms_chat_so_far_reaches_a_newcomer_and_a_player_who_comes_back_once() {
    let server = start_server(test_config()).await;
    let (mut ada, mut bob, game) = two_players(server.addr(), open_game(GameKind::Checkers)).await;
    let chat = |m: ServerMessage| match m {
        ServerMessage::Chat { from, text, .. } => Some((from, text)),
        _ => None,
    };
    let line = |from: &str, text: &str| (from.to_owned(), text.to_owned());
    for (client, text) in [(&mut ada, "hello"), (&mut bob, "hi ada")] {
        client
            .send(ClientMessage::Chat {
                game,
                text: text.to_owned(),
            })
            .await;
    }
    let said = [line("ada", "hello"), line("bob", "hi ada")];
    for client in [&mut ada, &mut bob] {
        assert_eq!([client.until(chat).await, client.until(chat).await], said);
    }
    let mut cy = Client::hello(server.addr(), "cy").await;
    cy.send(ClientMessage::Watch { game }).await;
    cy.state().await;
    cy.send(ClientMessage::Chat {
        game,
        text: "who wins?".to_owned(),
    })
    .await;
    assert_eq!(cy.until(chat).await, line("cy", "who wins?"));
    // A newcomer reads what was said before it came in its room, after the game's state.
    let mut dan = Client::hello(server.addr(), "dan").await;
    dan.send(ClientMessage::Watch { game }).await;
    dan.state().await;
    assert_eq!(dan.until(chat).await, line("cy", "who wins?"));
    // So does a player back on a new connection, in the players' room.
    let token = bob.token.clone();
    drop(bob);
    let mut bob = Client::resume_guest(server.addr(), &token).await;
    assert_eq!(bob.state().await.id, game);
    assert_eq!([bob.until(chat).await, bob.until(chat).await], said);
    // A member asking again gets the state alone: its client has the chat already.
    cy.send(ClientMessage::Watch { game }).await;
    cy.state().await;
    dan.send(ClientMessage::Chat {
        game,
        text: "ada".to_owned(),
    })
    .await;
    assert_eq!(cy.until(chat).await, line("dan", "ada"));
    ada.send(ClientMessage::Chat {
        game,
        text: "third".to_owned(),
    })
    .await;
    assert_eq!(bob.until(chat).await, line("ada", "third"));
    server.shutdown().await;
}
