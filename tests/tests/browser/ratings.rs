//! Ratings on the page (issue 32, defect 2, the page's part): the create form's Rated box makes a
//! rated game; a bot's measured rating stands beside its name in the lobby and the game; and
//! once a rated game is over, the person's new rating stands beside the name with its change.

use super::*;

#[tokio::test]
async fn a_rated_game_shows_the_ratings_and_their_change_beside_the_names() {
    let server = start_web_server(test_config()).await;
    let (_driver, client) = signed_in(&server, "rater", false).await;
    wait_for(&client, "#lobby:not([hidden])").await;
    // Rated by default for a person who signed in with a key, as in the terminal client.
    wait_for(&client, "#create-rated:checked:not(:disabled)").await;
    create_against_random_bot(&client, "checkers").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    let title = text_of(&client, "#game-title").await;
    assert!(title.contains(", rated"), "{title}");
    // The random bot's measured rating in checkers is 0 (shared/src/ai/ladder.rs).
    let bot = text_of(&client, "#top-player").await;
    assert!(bot.contains("random bot (0)"), "{bot}");
    click(&client, "#leave").await;
    let listed = "//table[@id='games']//td[contains(text(), 'random bot (0)')]";
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(listed))
        .await
        .expect("the lobby gives the bot's rating");
    let resume = "#games button[aria-label^=\"Resume game\"]";
    click(&client, resume).await;
    wait_for(&client, "#game:not([hidden]) #board[data-turn=mine]").await;

    // One move each (a game ended sooner is not rated), then resigned: 1500 less about 32
    // against a bot rated 0.
    play_first_marked(&client).await;
    wait_for(&client, "#moves li:nth-child(2)").await;
    click(&client, "#resign").await;
    client.accept_alert().await.unwrap();
    wait_for(&client, "#game[data-over]").await;
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(
            "//div[@id='bottom-player']/span[contains(text(), 'rater 1468 (−32)')]",
        ))
        .await
        .unwrap_or_else(|err| {
            panic!("the new rating and its change ({err})");
        });
    screenshot(&client, "rated.png").await;
    assert_eq!(page_errors(&client).await, Vec::<String>::new());
    client.close().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn a_rated_game_resigned_before_both_sides_moved_says_it_is_not_rated() {
    let server = start_web_server(test_config()).await;
    let (_driver, client) = signed_in(&server, "quitter", false).await;
    wait_for(&client, "#create-rated:checked:not(:disabled)").await;
    create_against_random_bot(&client, "checkers").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    click(&client, "#resign").await;
    client.accept_alert().await.unwrap();
    wait_for(&client, "#game[data-over]").await;
    let status = text_of(&client, "#game-status").await;
    assert!(
        status.contains("Not rated: it ended before both sides moved."),
        "{status}"
    );
    let me = text_of(&client, "#bottom-player").await;
    assert!(!me.contains('('), "no rating and no change: {me}");
    screenshot(&client, "not-rated.png").await;
    assert_eq!(page_errors(&client).await, Vec::<String>::new());
    client.close().await.unwrap();
    server.shutdown().await;
}
