//! Moderation on the page (issue 31): `/block NAME` typed in the chat line hides NAME's chat
//! from this person, and still after a reload (the list is kept with the signed-in name); an
//! admin's announcement shows in the page's status line.

use super::*;
use kingme_server::host::{Admins, Fingerprint};
use kingme_shared::protocol::AdminAction;
use kingme_testkit::tictactoe_options;
use std::sync::Arc;

/// Says `text` in `game` from the TCP door, and waits for the server to pass it on.
async fn say(player: &mut Player, game: GameId, text: &str) {
    player
        .send(ClientMessage::Chat {
            game,
            text: text.to_owned(),
        })
        .await;
    player
        .until(|message| {
            matches!(message, ServerMessage::Chat { text: said, .. } if said == text).then_some(())
        })
        .await;
}

/// Types `text` in the page's chat line and sends it.
async fn type_chat(client: &Client, text: &str) {
    let line = client.find(Locator::Id("chat-text")).await.unwrap();
    line.send_keys(text).await.unwrap();
    click(client, "#chat-form button").await;
}

/// Waits for the page to show what `xpath` selects.
async fn until_shown(client: &Client, xpath: &str) {
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(xpath))
        .await
        .unwrap_or_else(|err| panic!("the page shows {xpath}: {err}"));
}

/// Waits for a chat line containing `text`.
async fn chat_line(client: &Client, text: &str) {
    until_shown(
        client,
        &format!("//*[@id='chat']//li[contains(., '{text}')]"),
    )
    .await;
}

/// Waits for the status line to contain `text`; the status line.
async fn status_saying(client: &Client, text: &str) -> String {
    until_shown(
        client,
        &format!("//*[@id='status' and contains(., '{text}')]"),
    )
    .await;
    text_of(client, "#status").await
}

#[tokio::test]
async fn a_blocked_persons_chat_stays_hidden_after_a_reload_and_an_announcement_shows() {
    let key = SigningKey::from_bytes(&[9; 32]);
    let admin: Fingerprint = kingme_shared::identity::fingerprint(&key.verifying_key().to_bytes())
        .parse()
        .unwrap();
    let config = Config {
        admins: Arc::new(Admins::new([admin])),
        ..test_config()
    };
    let server = start_web_server(config).await;
    // The admin, on the TCP door, opens a game of noughts and crosses for a person to join.
    let mut root = Player::person(server.addr(), "root", &key).await;
    let game = root
        .create(tictactoe_options(
            Opponent::OpenSeat,
            TimeControl::Unlimited,
            false,
        ))
        .await
        .id;
    let (_driver, client) = signed_in(&server, "pia", false).await;
    let join = format!("#games button[aria-label=\"Join game {}\"]", game.0);
    wait_for(&client, &join).await;
    click(&client, &join).await;
    wait_for(&client, "#game:not([hidden])").await;
    assert_eq!(shown_game(&client).await, game.0);

    // Before the block, root's line shows.
    say(&mut root, game, "first, shown").await;
    chat_line(&client, "root: first, shown").await;

    // `/block root`: said in the status line, never sent; root's next line does not show,
    // while pia's own line, sent after it, does.
    type_chat(&client, "/block root").await;
    let said = status_saying(&client, "blocked root").await;
    assert!(said.contains("/unblock root"), "{said}");
    say(&mut root, game, "second, hidden").await;
    type_chat(&client, "pia after the block").await;
    chat_line(&client, "pia: pia after the block").await;
    let chat = texts_of(&client, "#chat li").await;
    assert!(!chat.iter().any(|line| line.contains("second")), "{chat:?}");
    screenshot(&client, "blocked.png").await;

    // A reload: the room's chat so far comes again, and none of root's lines shows, the one
    // from before the block neither; a new line of root's stays hidden.
    client.refresh().await.unwrap();
    record_errors(&client).await;
    wait_for(&client, "body[data-link=connected]").await;
    wait_for(&client, "#game:not([hidden])").await;
    chat_line(&client, "pia: pia after the block").await;
    say(&mut root, game, "third, hidden").await;
    type_chat(&client, "pia after the reload").await;
    chat_line(&client, "pia: pia after the reload").await;
    let chat = texts_of(&client, "#chat li").await;
    assert_eq!(
        chat,
        ["pia: pia after the block", "pia: pia after the reload"],
        "root's lines stay hidden after the reload"
    );

    // The admin's announcement shows on the page.
    root.administer(AdminAction::Announce {
        text: "the server restarts at noon".to_owned(),
    })
    .await
    .unwrap();
    let status = status_saying(&client, "the server restarts at noon").await;
    assert_eq!(
        status,
        "Announcement from root: the server restarts at noon"
    );
    screenshot(&client, "announcement.png").await;
    assert!(page_errors(&client).await.is_empty());
    client.close().await.unwrap();
    server.shutdown().await;
}
