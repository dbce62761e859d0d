//! The lobby's Watch on a finished game whose table has closed opens it from the server's
//! archive (issue 32, defect 3): the game's board, every move and the result, with no banner
//! saying there is no such game, and a Review button that reviews it; and back in the lobby,
//! nothing is left to complain about.

use super::*;

#[tokio::test]
async fn watch_on_a_finished_game_opens_it_from_the_archive() {
    let server = start_web_server(Config {
        bot_move_delay: Duration::ZERO,
        ..test_config()
    })
    .await;
    // A game between bots, played out while its creator watched; its table then closes.
    let mut host = Player::hello(server.addr(), "host").await;
    let (game, _) = host.bot_game_played_out().await;

    let (_driver, client) = signed_in(&server, "viewer", true).await;
    // A guest's games are casual: the create form's Rated box is off and cannot be ticked.
    wait_for(&client, "#create-rated:not(:checked):disabled").await;
    let watch = format!("#games button[aria-label=\"Watch game {}\"]", game.0);
    wait_for(&client, &watch).await;
    click(&client, &watch).await;
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::Css("#game:not([hidden])[data-over]"))
        .await
        .unwrap_or_else(|err| {
            panic!("game {} opens, over ({err})", game.0);
        });
    assert_eq!(shown_game(&client).await, game.0);
    assert_eq!(text_of(&client, "#status").await, "", "no banner");
    assert!(moves_listed(&client).await >= 5, "every move is listed");
    let status = text_of(&client, "#game-status").await;
    assert!(
        status.contains("won") || status.contains("Drawn"),
        "{status}"
    );
    screenshot(&client, "archived.png").await;
    // A game from the archive may be reviewed as well (the review board).
    click(&client, "#review-open").await;
    wait_for(&client, "body[data-review=shown]").await;
    let reviewed = client
        .find_all(Locator::Css("#review-moves li"))
        .await
        .unwrap()
        .len();
    assert_eq!(reviewed, moves_listed(&client).await, "every move reviewed");
    click(&client, "#leave").await;
    wait_for(&client, "#lobby:not([hidden])").await;
    // Leaving what the archive showed is no error either.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(text_of(&client, "#status").await, "", "no banner");
    assert_eq!(page_errors(&client).await, Vec::<String>::new());
    client.close().await.unwrap();
    server.shutdown().await;
}
