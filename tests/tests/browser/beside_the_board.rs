//! What the page shows beside the board, as the terminal client does (issue 32, defect 9):
//! checkers' square numbers on the board, numbered moves, Pente's captured pairs in plain sight
//! and its captures in the move list (`K13x2`), the result of a finished game in the lobby; a
//! banner that does not outstay its screen; and a reload that keeps the person signed in.

use super::*;

/// A Pente setup where the first player captures a pair at once: K13 flanks K11 and K12.
const PENTE_CAPTURE: &str = "1:K10,A1:K11,K12:0,0";

#[tokio::test]
async fn the_page_numbers_squares_and_moves_shows_captures_and_results_and_keeps_you_signed_in() {
    let server = start_web_server(test_config()).await;
    let http = server.http_addr().unwrap();
    let (_driver, webdriver) = chromedriver().await;
    let client = browser(&webdriver, 900, 1300).await;

    // A link to a game there is none of: the lobby says so, and the banner goes with the
    // screen it was shown on.
    client
        .goto(&format!("https://{http}/#game=999"))
        .await
        .unwrap();
    record_errors(&client).await;
    sign_in(&client, "numbers", false).await;
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(
            "//p[@id='status' and contains(text(), '999')]",
        ))
        .await
        .expect("the lobby says there is no game 999");
    create_against_random_bot(&client, "checkers").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    assert_eq!(text_of(&client, "#status").await, "", "the banner went");
    let game = shown_game(&client).await;

    // Checkers' squares carry their numbers, as the moves are written.
    let numbers = run(
        &client,
        "return [...document.querySelectorAll('#board .square-number')].map(e => Number(e.textContent));",
    )
    .await;
    let mut numbers: Vec<u32> = serde_json::from_value(numbers).unwrap();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=32).collect::<Vec<_>>());

    // Moves are numbered: the first side's with its number, the second's after it.
    play_first_marked(&client).await;
    wait_for(&client, "#moves li:nth-child(2)").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    play_first_marked(&client).await;
    wait_for(&client, "#moves li:nth-child(3)").await;
    let moves = texts_of(&client, "#moves li").await;
    assert!(moves[0].starts_with("1. Black "), "{moves:?}");
    assert!(moves[1].starts_with("1... White "), "{moves:?}");
    assert!(moves[2].starts_with("2. Black "), "{moves:?}");
    screenshot(&client, "numbered.png").await;
    click(&client, "#resign").await;
    client.accept_alert().await.unwrap();
    wait_for(&client, "#game[data-over]").await;

    // A reload: still signed in with the key this browser keeps, back at the same game.
    client.refresh().await.unwrap();
    record_errors(&client).await;
    wait_for(&client, "body[data-link=connected]").await;
    wait_for(&client, "#game:not([hidden])[data-over]").await;
    assert_eq!(shown_game(&client).await, game);
    assert!(
        client
            .find(Locator::Css("#signin:not([hidden])"))
            .await
            .is_err(),
        "no sign-in form after a reload"
    );
    let who = text_of(&client, "#who").await;
    assert!(who.contains("numbers"), "{who}");

    // The lobby says how the finished game ended.
    click(&client, "#leave").await;
    let row = format!(
        "//table[@id='games']//tr[td[1][text()='{game}'] and td[5][contains(text(), 'White won (resignation)')]]"
    );
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(&row))
        .await
        .unwrap_or_else(|err| {
            panic!("the lobby gives game {game}'s result ({err})");
        });

    // Pente: a capture is in the move list (`K13x2`) and the captured pairs stand in the
    // player's line, not folded away.
    create_against_random_bot_from(&client, "pente", PENTE_CAPTURE).await;
    wait_for(&client, "#board[data-turn=mine]").await;
    let captures = ".player .captures[data-side=First]";
    assert!(
        text_of(&client, captures)
            .await
            .contains("captured pairs: 0"),
        "{}",
        text_of(&client, captures).await
    );
    let field = client.find(Locator::Id("move-text")).await.unwrap();
    field.send_keys("K13").await.unwrap();
    click(&client, "#move-form button").await;
    wait_for(&client, "#moves li").await;
    let first = texts_of(&client, "#moves li").await.remove(0);
    assert!(
        first.starts_with("1. ") && first.ends_with(" K13x2"),
        "{first}"
    );
    let shown = text_of(&client, captures).await;
    assert!(shown.contains("captured pairs: 1 of 5"), "{shown}");
    let visible = run(
        &client,
        &format!("return document.querySelector('{captures}').getClientRects().length > 0;"),
    )
    .await;
    assert_eq!(visible, true, "the captured pairs are in plain sight");
    screenshot(&client, "pente-captures.png").await;
    assert_eq!(page_errors(&client).await, Vec::<String>::new());
    client.close().await.unwrap();
    server.shutdown().await;
}
