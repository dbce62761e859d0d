//! The web page in a real browser: headless Chromium driven over WebDriver (chromedriver and
//! fantoccini) signs in as a person (the page makes its Ed25519 key with WebCrypto and proves it),
//! creates games against the random bot from the lobby's form and plays them by clicking the
//! board: noughts and crosses to the end, checkers moves picked up and put down square by
//! square, and Pente's first stone, each answered by the bot. A screenshot of each board is kept in
//! `target/browser-screenshots/` for a person to look at.
//!
//! Behind the `browser` feature: `cargo test -p kingme-tests --features browser --test browser`.
//! It needs `chromium` and `chromium-driver` (Debian's packages; `CHROMEDRIVER` and `CHROMIUM`
//! name other paths). With the feature on and either missing, the test fails saying so.

#![cfg(feature = "browser")]
#![allow(clippy::unwrap_used)]

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use kingme_tests::{start_web_server, test_config};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long the page may take to show what the test waits for.
const PATIENCE: Duration = Duration::from_secs(60);

/// Starts chromedriver on a free port; returns it and its URL once it says it is ready.
async fn chromedriver() -> (Child, String) {
    let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_owned());
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let mut child = Command::new(&program)
        .arg(format!("--port={port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|err| {
            panic!(
                "the browser feature drives Chromium through {program} ({err}); install \
                 chromium and chromium-driver (apt-get install chromium chromium-driver) or set \
                 CHROMEDRIVER"
            )
        });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let ready = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line.contains("started successfully") {
                return;
            }
        }
        panic!("chromedriver stopped before it was ready");
    };
    tokio::time::timeout(PATIENCE, ready)
        .await
        .expect("chromedriver starts in time");
    // Its later output is not needed, but must be read so it never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, format!("http://127.0.0.1:{port}"))
}

/// A headless Chromium session.
async fn browser(webdriver: &str) -> Client {
    let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_owned(),
        serde_json::json!({
            "binary": binary,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,1300"],
        }),
    );
    ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(webdriver)
        .await
        .unwrap_or_else(|err| panic!("headless Chromium ({binary}) starts: {err}"))
}

async fn wait_for(client: &Client, css: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|err| panic!("the page shows {css} in time: {err}"))
}

/// The square numbers of the board's marks of `class` (`movable` pieces or `target` squares).
async fn marked(client: &Client, class: &str) -> Vec<String> {
    let mut squares = Vec::new();
    for mark in client
        .find_all(Locator::Css(&format!("#board .{class}")))
        .await
        .unwrap()
    {
        squares.push(mark.attr("data-square").await.unwrap().unwrap());
    }
    squares
}

/// Clicks the element `css` selects.
async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|err| panic!("the page has {css}: {err}"))
        .click()
        .await
        .unwrap();
}

async fn click_square(client: &Client, square: &str) {
    click(
        client,
        &format!("#board rect.cell[data-square=\"{square}\"]"),
    )
    .await;
}

/// Chooses the option of the select `#id` whose value is `value`.
async fn select(client: &Client, id: &str, value: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

async fn moves_listed(client: &Client) -> usize {
    client
        .find_all(Locator::Css("#moves li"))
        .await
        .unwrap()
        .len()
}

/// Keeps a screenshot for a person to look at.
async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join("browser-screenshots");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(name), png).unwrap();
}

/// Creates a game of `spec` (its name in the form) against the random bot, moving first.
async fn create_against_random_bot(client: &Client, spec: &str) {
    wait_for(client, "#lobby:not([hidden])").await;
    client
        .find(Locator::Id("create-spec"))
        .await
        .unwrap()
        .select_by_label(spec)
        .await
        .unwrap();
    select(client, "create-seat", "First").await;
    select(client, "create-opponent", "Random").await;
    click(client, "#create button[type=submit]").await;
    wait_for(client, "#game:not([hidden])").await;
}

#[tokio::test]
async fn a_person_in_chromium_plays_the_bot_by_clicking_the_board() {
    let server = start_web_server(test_config()).await;
    let page = format!("http://{}/", server.http_addr().unwrap());
    let (_driver, webdriver) = chromedriver().await;
    let client = browser(&webdriver).await;
    client.goto(&page).await.unwrap();

    // Sign in as a person: the page makes a key and proves it.
    wait_for(&client, "#signin:not([hidden])").await;
    client
        .find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys("webby")
        .await
        .unwrap();
    click(&client, "#signin-form button").await;

    // Noughts and crosses to the end, one click a move; the bot answers each.
    create_against_random_bot(&client, "tictactoe").await;
    let mut played = 0;
    loop {
        wait_for(&client, "#board[data-turn=mine], #game[data-over]").await;
        if client.find(Locator::Css("#game[data-over]")).await.is_ok() {
            break;
        }
        let targets = marked(&client, "target").await;
        assert!(!targets.is_empty(), "legal squares are marked on our turn");
        click_square(&client, &targets[0]).await;
        played += 1;
        assert!(
            played <= 5,
            "a game of noughts and crosses ends by our fifth move"
        );
        // Our move and the bot's answer (or the end) appear in the move list.
        let answered = format!("#moves li:nth-child({}), #game[data-over]", 2 * played);
        wait_for(&client, &answered).await;
    }
    let status = client
        .find(Locator::Id("game-status"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        status.contains("won") || status.contains("Drawn"),
        "{status}"
    );
    assert!(moves_listed(&client).await >= 5);
    screenshot(&client, "tictactoe.png").await;

    // Checkers: each move picked up and put down square by square (a multi-jump landing by
    // landing); the bot answers.
    click(&client, "#leave").await;
    create_against_random_bot(&client, "checkers").await;
    for turn in 1..=4 {
        wait_for(&client, "#board[data-turn=mine], #game[data-over]").await;
        if client.find(Locator::Css("#game[data-over]")).await.is_ok() {
            break;
        }
        let movable = marked(&client, "movable").await;
        assert!(!movable.is_empty(), "movable pieces are marked on our turn");
        click_square(&client, &movable[0]).await;
        // Landing after landing until the move is sent (the turn mark goes).
        loop {
            let targets = marked(&client, "target").await;
            if targets.is_empty() {
                break;
            }
            click_square(&client, &targets[0]).await;
        }
        let answered = format!("#moves li:nth-child({}), #game[data-over]", 2 * turn);
        wait_for(&client, &answered).await;
    }
    let listed = moves_listed(&client).await;
    assert!(
        listed >= 2,
        "our checkers moves and the bot's answers are listed: {listed}"
    );
    let board_text = client
        .find(Locator::Id("board-text"))
        .await
        .unwrap()
        .prop("textContent")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(board_text.contains("to move"), "{board_text}");
    screenshot(&client, "checkers.png").await;

    // Pente: the first stone on the one marked point (the centre), and the bot's answer.
    click(&client, "#leave").await;
    create_against_random_bot(&client, "pente").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    let targets = marked(&client, "target").await;
    assert_eq!(targets.len(), 1, "the first stone has one legal point");
    click_square(&client, &targets[0]).await;
    wait_for(&client, "#moves li:nth-child(2)").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    screenshot(&client, "pente.png").await;
    client.close().await.unwrap();
    server.shutdown().await;
}
