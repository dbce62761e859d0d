//! The review board on the page (issue 32): a game against the bot played a few moves and
//! resigned, then Review: the progress, the evaluation graph, the marked move list, and
//! stepping through the positions (buttons and ← →) with the engine's best move drawn on the
//! board. At a desktop's width and a phone's (a game of noughts and crosses played out there).

use super::*;
use kingme_server::host::AnalysisLimits;

/// Presses Review on the finished game shown and waits for the review; the number of moves.
async fn review_shown(client: &Client) -> usize {
    click(client, "#review-open").await;
    wait_for(client, "#review:not([hidden])").await;
    wait_for(client, "body[data-review=shown]").await;
    let moves = moves_listed(client).await;
    let reviewed = client
        .find_all(Locator::Css("#review-moves li"))
        .await
        .unwrap()
        .len();
    assert_eq!(reviewed, moves, "one reviewed entry per move");
    // The graph: a line through every position, start and end included, a point for each.
    let points = run(
        client,
        "return document.querySelectorAll('#review-graph svg circle').length;",
    )
    .await;
    assert_eq!(
        points.as_u64(),
        Some(moves as u64 + 1),
        "a point per position"
    );
    let summary = text_of(client, "#review-progress-text").await;
    assert!(summary.starts_with("Reviewed: "), "{summary}");
    moves
}

/// The step the review shows.
async fn step_shown(client: &Client) -> String {
    run(client, "return document.body.dataset.reviewStep;")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Presses `key` on the page (outside any field).
async fn press(client: &Client, key: Key) {
    client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys(&char::from(key).to_string())
        .await
        .unwrap();
}

#[tokio::test]
async fn review_on_a_finished_game_shows_the_graph_the_marks_and_the_best_moves() {
    let server = start_web_server(Config {
        analysis: AnalysisLimits {
            per_minute: 100,
            ..AnalysisLimits::default()
        },
        ..test_config()
    })
    .await;
    let (driver, client) = signed_in(&server, "reviewer", true).await;
    create_against_random_bot(&client, "checkers").await;
    for reply in [2, 4, 6] {
        wait_for(&client, "#board[data-turn=mine]").await;
        play_first_marked(&client).await;
        wait_for(&client, &format!("#moves li:nth-child({reply})")).await;
    }
    click(&client, "#resign").await;
    client.accept_alert().await.unwrap();
    wait_for(&client, "#game[data-over]").await;
    let moves = review_shown(&client).await;
    assert_eq!(moves, 6);
    assert_eq!(step_shown(&client).await, "0");
    // The start: the best first move is drawn on the board, and named.
    wait_for(&client, "#board g.best").await;
    let note = text_of(&client, "#review-note").await;
    assert!(note.contains("Best now for Black"), "{note}");
    // → and the Next button step forward; ← back.
    press(&client, Key::Right).await;
    press(&client, Key::Right).await;
    assert_eq!(step_shown(&client).await, "2");
    click(&client, "#review-next").await;
    assert_eq!(step_shown(&client).await, "3");
    press(&client, Key::Left).await;
    assert_eq!(step_shown(&client).await, "2");
    let note = text_of(&client, "#review-note").await;
    assert!(note.starts_with("Move 2, White "), "{note}");
    wait_for(&client, "#board g.best").await;
    wait_for(&client, "#review-moves button[aria-current=step]").await;
    // A mark is its move's text's end, as the move list writes it.
    let marked = texts_of(&client, "#review-moves button[data-mark]").await;
    for entry in &marked {
        assert!(
            entry.ends_with('?') || entry.ends_with("?!"),
            "a marked move: {entry}"
        );
    }
    screenshot(&client, "review-desktop.png").await;
    // The list's entries step too; the end shows no best move.
    click(&client, "#review-moves li:nth-child(6) button").await;
    assert_eq!(step_shown(&client).await, "6");
    assert!(
        client
            .find_all(Locator::Css("#board g.best"))
            .await
            .unwrap()
            .is_empty(),
        "no best move after the last"
    );
    click(&client, "#review-close").await;
    assert_eq!(page_errors(&client).await, Vec::<String>::new());
    client.close().await.unwrap();

    // A phone: noughts and crosses played out, reviewed, stepped.
    let phone = phone(&driver.1, 390, 844).await;
    phone
        .goto(&format!("https://{}/", server.http_addr().unwrap()))
        .await
        .unwrap();
    record_errors(&phone).await;
    sign_in(&phone, "pocket", true).await;
    create_against_random_bot(&phone, "tictactoe").await;
    let mut played = 0;
    loop {
        wait_for(&phone, "#board[data-turn=mine], #game[data-over]").await;
        if phone.find(Locator::Css("#game[data-over]")).await.is_ok() {
            break;
        }
        play_first_marked(&phone).await;
        played += 1;
        assert!(played <= 5, "noughts and crosses ends by our fifth move");
        // Our move and the bot's answer (or the end) are listed before the next look.
        let answered = format!("#moves li:nth-child({}), #game[data-over]", 2 * played);
        wait_for(&phone, &answered).await;
    }
    let moves = review_shown(&phone).await;
    assert!(moves >= 5, "a whole game: {moves} moves");
    click(&phone, "#review-next").await;
    assert_eq!(step_shown(&phone).await, "1");
    assert_fits(&phone, "the review on a phone").await;
    screenshot(&phone, "review-phone.png").await;
    run(
        &phone,
        "document.getElementById('review').scrollIntoView(); return null;",
    )
    .await;
    screenshot(&phone, "review-phone-graph.png").await;
    assert_eq!(page_errors(&phone).await, Vec::<String>::new());
    phone.close().await.unwrap();
    server.shutdown().await;
}
