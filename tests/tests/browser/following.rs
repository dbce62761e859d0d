//! The page follows a person from one game to the next, whatever the boards: Pente (361
//! points), then checkers (32 squares), then noughts and crosses (9), each against the random
//! bot, played a move, resigned and left. Each new game's heading, board and clock are the new
//! game's, and the page raises no error on the way (issue 32, defect 1: a smaller board than
//! the last one used to throw in `board.js` and leave the page on the old game).

use super::*;

/// How many playing cells the page draws for each game.
const GAMES: [(&str, usize); 3] = [("pente", 361), ("checkers", 32), ("tictactoe", 9)];

#[tokio::test]
async fn the_page_follows_a_person_into_each_new_game_even_onto_a_smaller_board() {
    let server = start_web_server(test_config()).await;
    let (_driver, client) = signed_in(&server, "follower", true).await;
    let mut shown = Vec::new();
    for (spec, cells) in GAMES {
        // A clock, so the game shown is visibly the one whose clock runs.
        wait_for(&client, "#lobby:not([hidden])").await;
        select(&client, "create-clock", "inc:60:1").await;
        create_against_random_bot(&client, spec).await;
        let title = wait_for_title(&client, spec).await;
        let game = shown_game(&client).await;
        assert!(!shown.contains(&game), "a new game each time: {title}");
        shown.push(game);
        assert_eq!(
            run(&client, "return location.hash;").await,
            format!("#game={game}")
        );
        wait_for(&client, "#board[data-turn=mine]").await;
        let drawn = run(
            &client,
            "return document.querySelectorAll('#board rect.cell').length;",
        )
        .await;
        assert_eq!(drawn, cells, "{spec}: the new game's board");
        assert!(
            !text_of(&client, ".clock[data-side=First]").await.is_empty(),
            "{spec}: the new game's clock"
        );
        play_first_marked(&client).await;
        wait_for(&client, "#moves li:nth-child(2), #game[data-over]").await;
        let moves = moves_listed(&client).await;
        assert!(moves >= 1, "{spec}: the new game's moves ({moves})");
        screenshot(&client, &format!("following-{spec}.png")).await;
        if client.find(Locator::Css("#game[data-over]")).await.is_err() {
            click(&client, "#resign").await;
            client.accept_alert().await.unwrap();
            wait_for(&client, "#game[data-over]").await;
        }
        click(&client, "#leave").await;
        assert_eq!(page_errors(&client).await, Vec::<String>::new(), "{spec}");
    }
    client.close().await.unwrap();
    server.shutdown().await;
}
