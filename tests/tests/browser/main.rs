//! The web page in a real browser: headless Chromium driven over WebDriver (chromedriver and
//! fantoccini), over HTTPS and WSS with the server's self-signed certificate.
//!
//! - A person (the page makes its Ed25519 key with WebCrypto and proves it) creates games against
//!   the random bot from the lobby's form and plays them by clicking the board: noughts and
//!   crosses to the end, checkers moves picked up and put down square by square, and Pente's
//!   first stone, each answered by the bot.
//! - A name another person holds is refused and another chosen in place; the server restarts
//!   mid-game and the page signs in again by itself and comes back to the game.
//! - The page at a phone's size (390x844) and a small desktop window has no horizontal scroll,
//!   its board fits and its controls are in reach.
//! - A person in the page and a player on the TCP door (what the terminal client speaks) in one
//!   game: a multi-jump square by square, moves by keyboard and by drag, the opponent's move
//!   animated, the same moves, chat and clocks on both sides, takeback, draw, rematch, the watch
//!   link opened in another tab (and the lobby's Watch button), the create form's open seat with
//!   a clock and a start position, resign.
//! - Moderation (`moderation.rs`): `/block NAME` hides NAME's chat, also after a reload; an
//!   admin's announcement shows.
//!
//! Screenshots are kept in `target/browser-screenshots/` for a person to look at.
//!
//! Behind the `browser` feature: `cargo test -p kingme-tests --features browser --test browser`.
//! It needs `chromium` and `chromium-driver` (Debian's packages; `CHROMEDRIVER` and `CHROMIUM`
//! name other paths). With the feature on and either missing, the test fails saying so.

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]
use ed25519_dalek::SigningKey;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use kingme_server::host::{Config, Database, ServerHandle};
use kingme_shared::domain::{ClockState, GameId};
use kingme_shared::protocol::{
    ClientMessage, GameOptions, Opponent, SeatChoice, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use kingme_testkit::{Client as Player, patience, start_web_server, test_config};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

mod archive;
mod beside_the_board;
mod following;
mod moderation;
mod ratings;
mod review;

/// chromedriver and the browsers it started, in a process group of their own: dropping it
/// (at a test's end, or while a failing test unwinds, before its session was closed) kills the
/// whole group, so no Chromium outlives its test.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(pid) = self.0.id() {
            // The group's id is chromedriver's pid (it leads the group it was started in).
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .status();
        }
    }
}

/// Starts chromedriver on a free port; returns it and its URL once it says it is ready.
async fn chromedriver() -> (Driver, String) {
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
        .process_group(0)
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
    tokio::time::timeout(patience::PAGE, ready)
        .await
        .expect("chromedriver starts in time");
    // Its later output is not needed, but must be read so it never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (Driver(child), format!("http://127.0.0.1:{port}"))
}

/// A headless Chromium session with a window of `width` x `height` CSS pixels.
async fn browser(webdriver: &str, width: u32, height: u32) -> Client {
    chromium(webdriver, width, height, None).await
}

/// A headless Chromium session that emulates a phone's screen of `width` x `height` CSS pixels
/// (three device pixels to one, touch).
async fn phone(webdriver: &str, width: u32, height: u32) -> Client {
    let metrics = serde_json::json!({
        "deviceMetrics": { "width": width, "height": height, "pixelRatio": 3.0, "touch": true },
    });
    chromium(webdriver, width, height, Some(metrics)).await
}

async fn chromium(
    webdriver: &str,
    width: u32,
    height: u32,
    mobile: Option<serde_json::Value>,
) -> Client {
    let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
    let mut options = serde_json::json!({
        "binary": binary,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", format!("--window-size={width},{height}")],
    });
    if let Some(mobile) = mobile {
        options["mobileEmulation"] = mobile;
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".to_owned(), options);
    // The test's server has a self-signed certificate made for its run, which no CA vouches for:
    // the browser is told to accept it, as a person accepts it in the browser's warning.
    capabilities.insert(
        "acceptInsecureCerts".to_owned(),
        serde_json::Value::Bool(true),
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
        .at_most(patience::PAGE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|err| panic!("the page shows {css} in time: {err}"))
}

/// The square numbers of the board's marks of `class` (`movable` pieces or `target` squares),
/// read in one go inside the page: the board is redrawn when the server pushes (a clock, a
/// move), and an element found by one command may be gone by the next.
async fn marked(client: &Client, class: &str) -> Vec<String> {
    let script = format!(
        "return [...document.querySelectorAll('#board .{class}')].map(e => e.dataset.square);"
    );
    match run(client, &script).await {
        serde_json::Value::Array(squares) => squares
            .into_iter()
            .map(|square| square.as_str().unwrap_or_default().to_owned())
            .collect(),
        other => panic!("the page's marks of {class} are a list: {other}"),
    }
}

/// Clicks the element `css` selects. The live lobby redraws its rows on every push, so an
/// element found may be gone by the click: it is found again, a few times.
async fn click(client: &Client, css: &str) {
    let mut tries = 0;
    loop {
        let element = client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|err| panic!("the page has {css}: {err}"));
        match element.click().await {
            Ok(()) => return,
            Err(err) if tries < 5 && err.to_string().contains("stale") => tries += 1,
            Err(err) => panic!("click {css}: {err}"),
        }
    }
}

async fn click_square(client: &Client, square: &str) {
    click(
        client,
        &format!("#board rect.cell[data-square=\"{square}\"]"),
    )
    .await;
}

/// Plays the first marked move on our turn: a placement's first marked point, or the first
/// movable piece and then its first marked landing after landing until the move is sent.
async fn play_first_marked(client: &Client) {
    let targets = marked(client, "target").await;
    if let Some(point) = targets.first() {
        click_square(client, point).await;
        return;
    }
    let movable = marked(client, "movable").await;
    assert!(!movable.is_empty(), "movable pieces are marked on our turn");
    click_square(client, &movable[0]).await;
    loop {
        let targets = marked(client, "target").await;
        let Some(target) = targets.first() else {
            break;
        };
        click_square(client, target).await;
    }
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

/// Signs in on the page's form as `name` (a person with a key unless `guest`).
async fn sign_in(client: &Client, name: &str, guest: bool) {
    wait_for(client, "#signin:not([hidden])").await;
    let field = client.find(Locator::Id("name")).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(name).await.unwrap();
    let checkbox = client.find(Locator::Id("guest")).await.unwrap();
    if checkbox.is_selected().await.unwrap() != guest {
        checkbox.click().await.unwrap();
    }
    click(client, "#signin-form button").await;
}

/// Runs `script` (a function body) in the page; its result.
async fn run(client: &Client, script: &str) -> serde_json::Value {
    client
        .execute(script, Vec::new())
        .await
        .unwrap_or_else(|err| panic!("the page runs {script}: {err}"))
}

/// The text of the element `css` selects.
async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|err| panic!("the page has {css}: {err}"))
        .prop("textContent")
        .await
        .unwrap()
        .unwrap_or_default()
}

/// The texts of every element `css` selects.
async fn texts_of(client: &Client, css: &str) -> Vec<String> {
    let mut texts = Vec::new();
    for element in client.find_all(Locator::Css(css)).await.unwrap() {
        texts.push(
            element
                .prop("textContent")
                .await
                .unwrap()
                .unwrap_or_default(),
        );
    }
    texts
}

/// The game shown, from its title ("Game 3: ...").
async fn shown_game(client: &Client) -> u64 {
    let title = text_of(client, "#game-title").await;
    title
        .strip_prefix("Game ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("a game's title: {title}"))
}

/// Keeps what the console would show as the page's errors from now on (uncaught exceptions and
/// unhandled rejections, such as a throw in a WebSocket handler) in `window.pageErrors`, for
/// [`page_errors`]. A reload forgets them: call it again after one.
async fn record_errors(client: &Client) {
    run(
        client,
        "window.pageErrors = [];
         window.addEventListener('error', (e) => window.pageErrors.push(String(e.message)));
         window.addEventListener('unhandledrejection', (e) =>
           window.pageErrors.push(String(e.reason && e.reason.message || e.reason)));
         return null;",
    )
    .await;
}

/// Headless Chromium at 900x1300 on `server`'s page, keeping its errors ([`record_errors`]),
/// signed in as `name` (a guest if `guest`): chromedriver (kept while the browser is used) and
/// the browser.
async fn signed_in(server: &ServerHandle, name: &str, guest: bool) -> ((Driver, String), Client) {
    let driver = chromedriver().await;
    let client = browser(&driver.1, 900, 1300).await;
    client
        .goto(&format!("https://{}/", server.http_addr().unwrap()))
        .await
        .unwrap();
    record_errors(&client).await;
    sign_in(&client, name, guest).await;
    (driver, client)
}

/// The page's errors since [`record_errors`].
async fn page_errors(client: &Client) -> Vec<String> {
    let errors = run(
        client,
        "return window.pageErrors || ['errors were not recorded'];",
    )
    .await;
    serde_json::from_value(errors).unwrap()
}

/// Waits for the game's heading to name `spec` (a game's name in the catalogue); the heading.
/// Fails with the heading shown and the page's errors when it does not.
async fn wait_for_title(client: &Client, spec: &str) -> String {
    let waited = client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(&format!(
            "//section[@id='game' and not(@hidden)]//h2[@id='game-title' and contains(text(), ': {spec}')]"
        )))
        .await;
    let title = text_of(client, "#game-title").await;
    if let Err(err) = waited {
        panic!(
            "the heading names the new {spec} game ({err}); it says {title:?}; the page's \
             errors: {:?}",
            page_errors(client).await
        );
    }
    title
}

/// Asserts the page has no horizontal scroll, every visible control and the board lie within
/// the window's width, and a game's board with both players' lines (name and clock) fits the
/// window's height from the top of the page.
async fn assert_fits(client: &Client, what: &str) {
    let found = run(
        client,
        "const width = window.innerWidth;
         const outside = [...document.querySelectorAll('button, input, select, a, #board svg')]
           .filter((e) => e.getClientRects().length > 0)
           .filter((e) => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > width + 0.5; })
           .map((e) => e.id || e.getAttribute('aria-label') || e.textContent);
         const board = document.getElementById('bottom-player');
         const below = board && board.getClientRects().length > 0
           ? board.getBoundingClientRect().bottom + window.scrollY - window.innerHeight : 0;
         return [document.scrollingElement.scrollWidth, width, outside, below];",
    )
    .await;
    let scroll = found[0].as_f64().unwrap();
    let width = found[1].as_f64().unwrap();
    assert!(
        scroll <= width,
        "{what}: no horizontal scroll (the page is {scroll} px wide in a {width} px window)"
    );
    assert_eq!(
        found[2],
        serde_json::json!([]),
        "{what}: controls beyond the window's {width} px"
    );
    let below = found[3].as_f64().unwrap();
    assert!(
        below <= 0.0,
        "{what}: the board and both players' lines fit the window's height ({below} px more)"
    );
}

/// The board's centre of square `css` (a `rect.cell[data-square=..]` or the cursor), in CSS
/// pixels of the window.
async fn centre(client: &Client, css: &str) -> (f64, f64) {
    let script = format!(
        "const r = document.querySelector('{css}').getBoundingClientRect();
         return [r.left + r.width / 2, r.top + r.height / 2, r.width];"
    );
    let found = run(client, &script).await;
    (found[0].as_f64().unwrap(), found[1].as_f64().unwrap())
}

/// Chooses `square` with the keyboard: the arrow keys walk the cursor there, Enter chooses it.
async fn choose_by_keyboard(client: &Client, square: &str) {
    let board = client.find(Locator::Id("board")).await.unwrap();
    run(
        client,
        "document.getElementById('board').focus(); return null;",
    )
    .await;
    let cell = format!("#board rect.cell[data-square=\"{square}\"]");
    let step = run(
        client,
        &format!("return document.querySelector('{cell}').getBoundingClientRect().width;"),
    )
    .await
    .as_f64()
    .unwrap();
    for _ in 0..40 {
        let (cx, cy) = centre(client, "#board .cursor").await;
        let (tx, ty) = centre(client, &cell).await;
        let key = if tx - cx > step / 2.0 {
            Key::Right
        } else if cx - tx > step / 2.0 {
            Key::Left
        } else if ty - cy > step / 2.0 {
            Key::Down
        } else if cy - ty > step / 2.0 {
            Key::Up
        } else {
            board
                .send_keys(&char::from(Key::Enter).to_string())
                .await
                .unwrap();
            return;
        };
        board.send_keys(&char::from(key).to_string()).await.unwrap();
    }
    panic!("the keyboard's cursor reaches square {square}");
}

/// Drags the piece on `from` to `to` with the mouse.
async fn drag(client: &Client, from: &str, to: &str) {
    let cell = |square: &str| format!("#board rect.cell[data-square=\"{square}\"]");
    let start = client.find(Locator::Css(&cell(from))).await.unwrap();
    let (fx, fy) = centre(client, &cell(from)).await;
    let (tx, ty) = centre(client, &cell(to)).await;
    let actions = MouseActions::new("mouse".to_owned())
        .then(PointerAction::MoveToElement {
            element: start,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(200)),
            x: (tx - fx) / 2.0,
            y: (ty - fy) / 2.0,
        })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(200)),
            x: tx,
            y: ty,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(actions).await.unwrap();
}

/// The clock text the page shows for `ms` (minutes:seconds, rounded up).
fn clock_text(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// Creates a game of `spec` (its name in the form) against the random bot, moving first.
async fn create_against_random_bot(client: &Client, spec: &str) {
    create_against_random_bot_from(client, spec, "").await;
}

/// Creates a game of `spec` against the random bot, moving first, from the position `start`
/// (the standard start when empty; the form keeps what was typed).
async fn create_against_random_bot_from(client: &Client, spec: &str, start: &str) {
    wait_for(client, "#lobby:not([hidden])").await;
    if !start.is_empty() {
        let field = client.find(Locator::Id("create-start")).await.unwrap();
        field.send_keys(start).await.unwrap();
    }
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
    let page = format!("https://{}/", server.http_addr().unwrap());
    let (_driver, webdriver) = chromedriver().await;
    let client = browser(&webdriver, 900, 1300).await;
    client.goto(&page).await.unwrap();

    // Sign in as a person: the page makes a key and proves it, over WSS, binding the proof to
    // the server's certificate (the server refuses a proof made for another).
    sign_in(&client, "webby", false).await;
    wait_for(&client, "#lobby:not([hidden])").await;
    wait_for(&client, "body[data-link=connected]").await;
    let who = text_of(&client, "#who").await;
    assert!(who.contains("webby") && who.contains("connected"), "{who}");
    assert_eq!(
        run(&client, "return location.protocol;").await,
        "https:",
        "the page is served over HTTPS"
    );
    screenshot(&client, "signed-in.png").await;

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
        // Landing after landing until the move is sent.
        play_first_marked(&client).await;
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

#[tokio::test]
async fn a_refused_name_is_changed_in_place_and_a_dropped_person_comes_back_to_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        database: Database::File(dir.path().join("kingme.db")),
        ..test_config()
    };
    let server = start_web_server(config.clone()).await;
    let (tcp, http) = (server.addr(), server.http_addr().unwrap());
    // Someone else holds the name "taken".
    let _holder = Player::person(tcp, "taken", &SigningKey::from_bytes(&[7; 32])).await;
    let (_driver, webdriver) = chromedriver().await;
    let client = browser(&webdriver, 900, 1300).await;
    client.goto(&format!("https://{http}/")).await.unwrap();

    // The page's key is not the holder's: refused, and the form is back to try another name.
    sign_in(&client, "taken", false).await;
    wait_for(&client, "#signin:not([hidden]) #signin-error:not(:empty)").await;
    let refusal = text_of(&client, "#signin-error").await;
    assert!(refusal.contains("another name"), "{refusal}");
    assert!(
        client
            .find(Locator::Css("#lobby:not([hidden])"))
            .await
            .is_err(),
        "the lobby waits for a name the server accepts"
    );
    sign_in(&client, "webby", false).await;
    create_against_random_bot(&client, "checkers").await;
    let game = shown_game(&client).await;
    wait_for(&client, "#board[data-turn=mine]").await;
    play_first_marked(&client).await;
    wait_for(&client, "#moves li:nth-child(2)").await;
    let before = texts_of(&client, "#moves li").await;

    // The server goes away mid-game (closing the WebSocket from its side) and comes back on
    // the same addresses and database: the page notices, tries again with growing pauses, signs
    // in with its stored key and is back in the game, with its moves, and can play on.
    server.shutdown().await;
    wait_for(&client, "body[data-link=lost]").await;
    let status = text_of(&client, "#status").await;
    assert!(status.contains("trying again"), "{status}");
    // While the server is away the pauses between attempts grow (half a second, then doubling).
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(
            "//p[@id='who' and contains(text(), 'trying again in 2 s')]",
        ))
        .await
        .expect("the pause between attempts grows to 2 s");
    let server = ServerHandle::start_with_http(tcp, http, config)
        .await
        .unwrap();
    wait_for(&client, "body[data-link=connected]").await;
    wait_for(&client, "#game:not([hidden]) #board[data-turn=mine]").await;
    assert_eq!(shown_game(&client).await, game, "back in the same game");
    assert_eq!(texts_of(&client, "#moves li").await, before);
    let who = text_of(&client, "#who").await;
    assert!(who.contains("webby") && who.contains("connected"), "{who}");
    play_first_marked(&client).await;
    wait_for(&client, "#moves li:nth-child(4)").await;
    screenshot(&client, "reconnected.png").await;
    client.close().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn the_page_fits_a_phone_and_a_small_desktop_window() {
    let server = start_web_server(test_config()).await;
    let page = format!("https://{}/", server.http_addr().unwrap());
    let (_driver, webdriver) = chromedriver().await;
    let client = phone(&webdriver, 390, 844).await;
    client.goto(&page).await.unwrap();
    let width = run(&client, "return window.innerWidth;").await;
    assert!(
        width.as_f64().is_some_and(|w| w <= 400.0),
        "a phone-sized window: {width}"
    );
    sign_in(&client, "phone", true).await;
    wait_for(&client, "#lobby:not([hidden])").await;
    assert_fits(&client, "the lobby on a phone").await;
    screenshot(&client, "phone-lobby.png").await;
    for (spec, name) in [
        ("checkers", "phone-checkers.png"),
        ("pente", "phone-pente.png"),
    ] {
        create_against_random_bot(&client, spec).await;
        wait_for(&client, "#board[data-turn=mine]").await;
        assert_fits(&client, &format!("{spec} on a phone")).await;
        // The board is played by touch-sized squares: at least 17 px for Pente's 19 points.
        let square = run(
            &client,
            "return document.querySelector('#board rect.cell').getBoundingClientRect().width;",
        )
        .await;
        assert!(
            square.as_f64().is_some_and(|w| w >= 17.0),
            "{spec}: squares of {square} px"
        );
        play_first_marked(&client).await;
        wait_for(&client, "#moves li:nth-child(2)").await;
        assert_fits(&client, &format!("{spec} on a phone, played")).await;
        screenshot(&client, name).await;
        click(&client, "#leave").await;
    }
    client.close().await.unwrap();
    // A desktop window about a 120x40 terminal's size.
    let client = browser(&webdriver, 960, 640).await;
    client.goto(&page).await.unwrap();
    sign_in(&client, "desktop", true).await;
    create_against_random_bot(&client, "checkers").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    assert_fits(&client, "checkers in a small desktop window").await;
    screenshot(&client, "desktop-small-checkers.png").await;
    client.close().await.unwrap();
    server.shutdown().await;
}

/// Reads the terminal player's messages until `pick` accepts one, keeping the texts of the
/// moves and chat lines of `game` it passes and the last clocks.
struct Terminal {
    player: Player,
    game: GameId,
    moves: Vec<String>,
    chat: Vec<String>,
    clocks: Option<ClockState>,
}

impl Terminal {
    async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let message = self.player.recv().await;
            match &message {
                ServerMessage::MovePlayed {
                    game,
                    record,
                    clocks,
                    ..
                } if *game == self.game => {
                    self.moves.push(record.text.clone());
                    self.clocks = Some(*clocks);
                }
                ServerMessage::State(state) if state.id == self.game => {
                    self.moves = state
                        .moves
                        .iter()
                        .map(|record| record.text.clone())
                        .collect();
                    self.clocks = Some(state.clocks);
                }
                ServerMessage::Chat {
                    game, from, text, ..
                } if *game == self.game => self.chat.push(format!("{from}: {text}")),
                _ => {}
            }
            if let Some(picked) = pick(&message) {
                return picked;
            }
        }
    }

    /// Waits for its turn and plays its first legal move; the move's text.
    async fn play_first(&mut self) -> String {
        let game = self.game;
        let legal = self
            .until(|message| match message {
                ServerMessage::YourTurn {
                    game: id,
                    legal_moves,
                    ..
                } if *id == game => Some(legal_moves.clone()),
                _ => None,
            })
            .await;
        let text = legal[0].clone();
        self.player.send_move(game, &text).await;
        let mover = text.clone();
        self.until(|message| match message {
            ServerMessage::MovePlayed {
                game: id, record, ..
            } if *id == game && record.text == mover => Some(()),
            _ => None,
        })
        .await;
        text
    }
}

/// The move list's entries without the side's name ("Black 11-15" is "11-15").
async fn listed_moves(client: &Client) -> Vec<String> {
    texts_of(client, "#moves li")
        .await
        .into_iter()
        .map(|entry| entry.rsplit(' ').next().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_person_in_chromium_and_a_terminal_player_agree_on_moves_chat_and_clocks() {
    let server = start_web_server(test_config()).await;
    let page = format!("https://{}/", server.http_addr().unwrap());
    // The terminal player (the TCP door, as `kingme` speaks it) opens a clocked game of checkers
    // from a position where the first move is a double jump, and waits for a person.
    let mut player = Player::hello(server.addr(), "terminal").await;
    let created = player
        .create(GameOptions {
            spec: GameKind::Checkers.into(),
            seat: SeatChoice::Side(Side::Second),
            opponent: Opponent::OpenSeat,
            time_control: TimeControl::Incremental {
                initial_secs: 300,
                increment_secs: 5,
            },
            start_position: Some("B:W6,15,29,30,31,32:B1,4".to_owned()),
            rated: false,
        })
        .await;
    let game = created.id;
    let mut terminal = Terminal {
        player,
        game,
        moves: Vec::new(),
        chat: Vec::new(),
        clocks: None,
    };
    let (_driver, webdriver) = chromedriver().await;
    let client = browser(&webdriver, 900, 1300).await;
    client.goto(&page).await.unwrap();
    sign_in(&client, "webby", false).await;

    // The live lobby lists the open seat; the person joins it.
    let join = format!("#games button[aria-label=\"Join game {}\"]", game.0);
    wait_for(&client, &join).await;
    click(&client, &join).await;
    wait_for(&client, "#game:not([hidden]) #board[data-turn=mine]").await;
    assert_eq!(shown_game(&client).await, game.0);

    // The double jump, landing by landing: only the piece that must jump is marked, then only
    // the next landing; nothing is sent before the last.
    assert_eq!(marked(&client, "movable").await, ["1"]);
    click_square(&client, "1").await;
    assert_eq!(marked(&client, "target").await, ["10"]);
    click_square(&client, "10").await;
    assert_eq!(marked(&client, "target").await, ["19"]);
    assert_eq!(moves_listed(&client).await, 0, "half a jump is not sent");
    // The last landing sends the move, and from that moment the board takes no more choices:
    // it says so at once, inside the same script, before the server can answer. (A board that
    // still said "your move" until the server's answer came let a quick click pick up a piece
    // that the answer then dropped.)
    let turn_after_sending = run(
        &client,
        "document.querySelector('#board rect.cell[data-square=\"19\"]')\
           .dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, cancelable: true }));\
         return document.getElementById('board').dataset.turn ?? null;",
    )
    .await;
    assert_eq!(turn_after_sending, serde_json::Value::Null);
    assert!(marked(&client, "movable").await.is_empty());
    let reply = terminal.play_first().await;
    assert_eq!(terminal.moves[0], "1x19", "the double jump, written short");
    // The terminal's move slides along its path on the page.
    wait_for(&client, "#board[data-turn=mine]").await;
    let slid = client
        .find(Locator::Id("board"))
        .await
        .unwrap()
        .attr("data-slide")
        .await
        .unwrap();
    assert_eq!(slid.as_deref(), Some(reply.replace('x', "-").as_str()));

    // A typed move the server refuses gives the turn back, with the reason under the board.
    let movable = marked(&client, "movable").await;
    let typed = client.find(Locator::Id("move-text")).await.unwrap();
    typed.send_keys("32-28").await.unwrap();
    click(&client, "#move-form button").await;
    wait_for(&client, "#board[data-turn=mine]").await;
    let reason = text_of(&client, "#move-error").await;
    assert!(reason.starts_with("32-28: "), "{reason}");
    assert_eq!(marked(&client, "movable").await, movable);

    // Chat both ways.
    terminal
        .player
        .send(ClientMessage::Chat {
            game,
            text: "hello from the terminal".to_owned(),
        })
        .await;
    wait_for(&client, "#chat li").await;
    let chat = client.find(Locator::Id("chat-text")).await.unwrap();
    chat.send_keys("hello from the browser").await.unwrap();
    click(&client, "#chat-form button").await;
    terminal
        .until(|message| {
            matches!(message, ServerMessage::Chat { text, .. } if text == "hello from the browser")
                .then_some(())
        })
        .await;

    // A move by keyboard, and one by drag; the terminal answers each.
    let movable = marked(&client, "movable").await;
    choose_by_keyboard(&client, &movable[0]).await;
    let target = marked(&client, "target").await;
    choose_by_keyboard(&client, &target[0]).await;
    terminal.play_first().await;
    wait_for(&client, "#board[data-turn=mine]").await;
    let movable = marked(&client, "movable").await;
    click_square(&client, &movable[0]).await;
    // The page marks the targets once it has drawn the choice: wait for them, not a race.
    wait_for(&client, "#board .target").await;
    let target = marked(&client, "target").await;
    click_square(&client, &movable[0]).await; // put back: nothing chosen
    assert!(marked(&client, "target").await.is_empty());
    drag(&client, &movable[0], &target[0]).await;
    terminal.play_first().await;
    wait_for(&client, "#board[data-turn=mine]").await;

    // Both sides tell the same story: moves, chat, clocks (the stopped clock to the second,
    // the running one ticking down from where the terminal saw it).
    assert_eq!(listed_moves(&client).await, terminal.moves);
    assert_eq!(texts_of(&client, "#chat li").await, terminal.chat);
    assert_eq!(terminal.chat.len(), 2);
    let clocks = terminal.clocks.unwrap();
    let [first, second] = clocks.remaining_ms.map(Option::unwrap);
    assert_eq!(
        text_of(&client, ".clock[data-side=Second]").await,
        clock_text(second)
    );
    let running = text_of(&client, ".clock.running[data-side=First]").await;
    assert!(running <= clock_text(first), "{running} after {first} ms");
    client
        .wait()
        .at_most(patience::PAGE)
        .for_element(Locator::XPath(&format!(
            "//span[contains(@class, 'clock') and @data-side='First' and text() != '{running}']"
        )))
        .await
        .expect("the running clock ticks");
    screenshot(&client, "person-and-terminal.png").await;

    // A takeback the terminal grants: both go back to the same moves.
    click(&client, "#takeback").await;
    terminal
        .until(|message| matches!(message, ServerMessage::TakebackRequested { .. }).then_some(()))
        .await;
    terminal
        .player
        .send(ClientMessage::AnswerTakeback { game, accept: true })
        .await;
    let undone = terminal
        .until(|message| match message {
            ServerMessage::State(state) if state.id == game => Some(state.moves.len()),
            _ => None,
        })
        .await;
    assert!(
        (1..6).contains(&undone),
        "moves taken back: {undone} left of 6"
    );
    wait_for(
        &client,
        &format!("#moves li:nth-child({undone}):last-child"),
    )
    .await;
    assert_eq!(listed_moves(&client).await, terminal.moves);

    // The terminal offers a draw; the person accepts it on the page.
    terminal
        .player
        .send(ClientMessage::OfferDraw { game })
        .await;
    wait_for(&client, "#offer:not([hidden])").await;
    click(&client, "#offer-yes").await;
    let result = terminal.player.game_over(game).await;
    assert_eq!(result.winner, None);
    wait_for(&client, "#game[data-over]").await;
    assert!(text_of(&client, "#game-status").await.contains("Drawn"));

    // A rematch both ask for: the page opens the new game, colours swapped.
    click(&client, "#rematch").await;
    terminal.player.send(ClientMessage::Rematch { game }).await;
    let rematch = terminal
        .until(|message| match message {
            ServerMessage::RematchStarted { rematch, .. } => Some(*rematch),
            _ => None,
        })
        .await;
    wait_for(&client, "#game:not([data-over]) #resign:not([hidden])").await;
    assert_eq!(shown_game(&client).await, rematch.0);
    let title = text_of(&client, "#game-title").await;
    assert!(title.contains("you play White"), "{title}");

    // The watch link, opened in another tab by a guest, shows the game being watched.
    let link = client
        .find(Locator::Id("watch-link"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    assert!(link.ends_with(&format!("#game={}", rematch.0)), "{link}");
    let person = client.window().await.unwrap();
    let tab = client.new_window(true).await.unwrap();
    client.switch_to_window(tab.handle).await.unwrap();
    client.goto(&link).await.unwrap();
    sign_in(&client, "watcher", true).await;
    wait_for(&client, "#game:not([hidden])").await;
    assert_eq!(shown_game(&client).await, rematch.0);
    assert!(text_of(&client, "#game-title").await.contains("watching"));
    // A spectator is offered neither resign nor the move form (nor its help about moving).
    for offered in ["#resign", "#move-form", "#board-help"] {
        assert!(
            client
                .find(Locator::Css(&format!("{offered}:not([hidden])")))
                .await
                .is_err(),
            "a spectator sees {offered}"
        );
    }
    // Back in the lobby, the game's Watch button opens it again.
    click(&client, "#leave").await;
    let watch = format!("#games button[aria-label=\"Watch game {}\"]", rematch.0);
    wait_for(&client, &format!("#lobby:not([hidden]) {watch}")).await;
    click(&client, &watch).await;
    wait_for(&client, "#game:not([hidden])").await;
    assert_eq!(shown_game(&client).await, rematch.0);
    client.close_window().await.unwrap();
    client.switch_to_window(person).await.unwrap();

    // The person resigns (confirming the page's question); the terminal wins.
    click(&client, "#resign").await;
    client.accept_alert().await.unwrap();
    terminal.game = rematch;
    let result = terminal.player.game_over(rematch).await;
    assert_eq!(result.winner, Some(Side::First));
    wait_for(&client, "#game[data-over]").await;
    assert!(text_of(&client, "#game-status").await.contains("won"));

    // The person opens a seat from the lobby's form with the terminal client's other choices
    // (second seat, 30 s a move, a start position); the terminal player joins it and gets
    // exactly those.
    click(&client, "#leave").await;
    wait_for(&client, "#lobby:not([hidden])").await;
    client
        .find(Locator::Id("create-spec"))
        .await
        .unwrap()
        .select_by_label("checkers")
        .await
        .unwrap();
    select(&client, "create-seat", "Second").await;
    select(&client, "create-opponent", "open").await;
    select(&client, "create-clock", "move:30").await;
    let start = "B:W18,24,27:B12,16,20";
    let field = client.find(Locator::Id("create-start")).await.unwrap();
    field.send_keys(start).await.unwrap();
    click(&client, "#create button[type=submit]").await;
    wait_for(&client, "#game:not([hidden]):not([data-over])").await;
    let opened = GameId(shown_game(&client).await);
    assert!(
        text_of(&client, "#game-status")
            .await
            .contains("Waiting for a player")
    );
    terminal.game = opened;
    terminal
        .player
        .send(ClientMessage::Join { game: opened })
        .await;
    let joined = terminal
        .until(|message| match message {
            ServerMessage::State(state) if state.id == opened => Some(state.clone()),
            _ => None,
        })
        .await;
    assert_eq!(joined.your_side, Some(Side::First));
    assert_eq!(joined.time_control, TimeControl::PerMove { secs: 30 });
    assert_eq!(joined.start_position, start);
    terminal.play_first().await;
    wait_for(&client, "#board[data-turn=mine]").await;
    assert_eq!(listed_moves(&client).await, terminal.moves);
    client.close().await.unwrap();
    server.shutdown().await;
}
