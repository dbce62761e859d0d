//! Moderation with the real `kingme-server` binary: admins named by key fingerprint
//! (`--admin`), a non-admin's admin messages refused (a guest's and a person's), an
//! announcement reaching every connection, and a ban and a mute kept over a killed and
//! restarted server (the ban refuses the sign-in with its reason, ends the person's games and
//! closes their connection, a guest's name as a person's; the mute refuses chat) until lifted,
//! with the admin log; a banned name nobody holds not taken by a sign-in refused for the ban;
//! and the admins of the configuration file read again on SIGHUP.

use crate::SERVER;
use kingme_shared::Side;
use kingme_shared::identity::{SigningKey, fingerprint};
use kingme_shared::protocol::{
    AdminAction, ClientMessage, EndReason, ErrorKind, GameId, GameStatus, Opponent, ServerMessage,
    TimeControl,
};
use kingme_testkit::client::hello_message;
use kingme_testkit::server_process::{line_containing, start_server_process};
use kingme_testkit::{Client, patience, tictactoe_options};
use std::path::Path;
use tokio::process::{Child, Command};

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

/// The fingerprint of `key(seed)`, as `kingme identity show` prints it.
fn fingerprint_of(seed: u8) -> String {
    fingerprint(&key(seed).verifying_key().to_bytes())
}

/// The server on the database file `db` with the person of `key(1)` as its admin.
async fn start(db: &Path) -> (Child, String) {
    let admin = fingerprint_of(1);
    start_server_process(SERVER, db.as_os_str(), &["--admin", &admin]).await
}

/// Creates a noughts-and-crosses game with an open seat; its id.
async fn open_game(client: &mut Client) -> GameId {
    client
        .create(tictactoe_options(
            Opponent::OpenSeat,
            TimeControl::Unlimited,
            false,
        ))
        .await
        .id
}

/// Says `text` in `game`: `Ok` once the line comes back, else the refusal's kind and words.
async fn chat(client: &mut Client, game: GameId, text: &str) -> Result<(), (ErrorKind, String)> {
    client
        .send(ClientMessage::Chat {
            game,
            text: text.to_owned(),
        })
        .await;
    client
        .until(|message| match message {
            ServerMessage::Chat { text: said, .. } if said == text => Some(Ok(())),
            ServerMessage::Error { kind, message, .. } => Some(Err((kind, message))),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_non_admins_admin_message_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = start(&dir.path().join("kingme.db")).await;
    let announce = AdminAction::Announce {
        text: "maintenance at five".into(),
    };
    let mut guest = Client::hello(&addr, "gus").await;
    let (kind, words) = guest.administer(announce.clone()).await.unwrap_err();
    assert_eq!(kind, ErrorKind::Unauthorized);
    assert!(words.contains("a guest is never an admin"), "{words}");
    let mut bob = Client::person(&addr, "bob", &key(2)).await;
    let ban = AdminAction::Ban {
        name: "gus".into(),
        reason: None,
    };
    let (kind, words) = bob.administer(ban).await.unwrap_err();
    assert_eq!(kind, ErrorKind::Unauthorized);
    assert!(
        words.contains(&fingerprint_of(2)) && words.contains("not one of this server's admins"),
        "{words}"
    );
    bob.send(ClientMessage::AdminLog).await;
    let (kind, _) = bob.error().await;
    assert_eq!(kind, ErrorKind::Unauthorized);
    // Nothing was done or logged, and the refused stay connected.
    let mut root = Client::person(&addr, "root", &key(1)).await;
    assert!(root.admin_log().await.is_empty());
    // The admin's announcement reaches every connection, the admin's own too.
    let done = root.administer(announce).await.unwrap();
    assert!(done.contains("announced to 3 connections"), "{done}");
    for client in [&mut guest, &mut bob, &mut root] {
        let (from, text) = client.announcement().await;
        assert_eq!(
            (from.as_str(), text.as_str()),
            ("root", "maintenance at five")
        );
    }
    let log = root.admin_log().await;
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].admin.as_str(), &log[0].fingerprint),
        ("root", &fingerprint_of(1))
    );
    server.kill().await.unwrap();
}

#[tokio::test]
async fn a_ban_and_a_mute_are_kept_over_a_restart_until_lifted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kingme.db");
    let (mut server, addr) = start(&db).await;
    let mut root = Client::person(&addr, "root", &key(1)).await;
    let mut bob = Client::person(&addr, "bob", &key(2)).await;
    let mut mallory = Client::person(&addr, "mallory", &key(3)).await;
    let mut eve = Client::person(&addr, "eve", &key(4)).await;

    // mallory plays bob, and has a game of her own waiting for an opponent.
    let game = open_game(&mut mallory).await;
    bob.send(ClientMessage::Join { game }).await;
    bob.state_of(game).await;
    mallory.play(game, "5").await;
    let waiting = open_game(&mut mallory).await;

    // The ban: mallory is told why and closed, bob wins, her open game closes.
    let ban = AdminAction::Ban {
        name: "mallory".into(),
        reason: Some("spam in chat".into()),
    };
    let done = root.administer(ban).await.unwrap();
    assert!(
        done.contains("banned mallory") && done.contains("2 games"),
        "{done}"
    );
    mallory.expect_banned("spam in chat").await;
    bob.expect_won_by_abandonment(game, Side::Second).await;
    tokio::time::timeout(patience::REPLY, async {
        loop {
            bob.send(ClientMessage::ListGames).await;
            let games = bob
                .until(|message| match message {
                    ServerMessage::GameList { games } => Some(games),
                    _ => None,
                })
                .await;
            if games
                .iter()
                .find(|listed| listed.id == waiting)
                .is_none_or(|listed| matches!(listed.status, GameStatus::Over(_)))
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("mallory's open game closed");

    // The mute: eve's chat is refused, with the reason.
    let eve_game = open_game(&mut eve).await;
    chat(&mut eve, eve_game, "hello").await.unwrap();
    let done = root
        .administer(AdminAction::Mute { name: "eve".into() })
        .await
        .unwrap();
    assert!(done.contains("muted eve"), "{done}");
    let (kind, words) = chat(&mut eve, eve_game, "hello again").await.unwrap_err();
    assert_eq!(kind, ErrorKind::NotAllowed);
    assert!(words.contains("muted"), "{words}");

    // A guest's name is banned too: the guest is closed, and a new guest of that name is
    // refused.
    let mut gus = Client::hello(&addr, "gus").await;
    let done = root
        .administer(AdminAction::Ban {
            name: "gus".into(),
            reason: Some("flooding".into()),
        })
        .await
        .unwrap();
    assert!(done.contains("banned gus"), "{done}");
    gus.expect_banned("flooding").await;

    // Killed and started again on its database: all hold.
    server.kill().await.unwrap();
    let (mut server, addr) = start(&db).await;
    let words = Client::refused(&addr, "mallory", &key(3)).await;
    assert!(
        words.contains("banned") && words.contains("spam in chat"),
        "{words}"
    );
    let mut gus = Client::connect(&addr).await;
    gus.send(hello_message("gus", None, None)).await;
    gus.expect_banned("flooding").await;
    let mut eve = Client::person(&addr, "eve", &key(4)).await;
    let eve_game = open_game(&mut eve).await;
    let (_, words) = chat(&mut eve, eve_game, "after").await.unwrap_err();
    assert!(words.contains("muted"), "{words}");
    let mut root = Client::person(&addr, "root", &key(1)).await;
    let log: Vec<String> = root
        .admin_log()
        .await
        .iter()
        .map(|entry| format!("{} {}", entry.admin, entry.action))
        .collect();
    assert_eq!(
        log,
        [
            "root ban gus (flooding)",
            "root mute eve",
            "root ban mallory (spam in chat)"
        ]
    );

    // Lifted: mallory signs in, eve chats.
    let done = root
        .administer(AdminAction::Unban {
            name: "mallory".into(),
        })
        .await
        .unwrap();
    assert_eq!(done, "unbanned mallory");
    Client::person(&addr, "mallory", &key(3)).await;
    root.administer(AdminAction::Unmute { name: "eve".into() })
        .await
        .unwrap();
    chat(&mut eve, eve_game, "free again").await.unwrap();
    // Closing a game an admin names ends it without a result.
    let done = root
        .administer(AdminAction::Close { game: eve_game })
        .await
        .unwrap();
    assert!(done.contains(&format!("closed game {eve_game}")), "{done}");
    let result = eve.game_over(eve_game).await;
    assert_eq!((result.winner, result.reason), (None, EndReason::Aborted));
    server.kill().await.unwrap();
}

#[tokio::test]
async fn a_refused_sign_in_under_a_banned_free_name_does_not_take_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = start(&dir.path().join("kingme.db")).await;
    let mut root = Client::person(&addr, "root", &key(1)).await;
    let done = root
        .administer(AdminAction::Ban {
            name: "zed".into(),
            reason: Some("reserved".into()),
        })
        .await
        .unwrap();
    assert!(done.contains("banned zed"), "{done}");
    let words = Client::refused(&addr, "zed", &key(5)).await;
    assert!(
        words.contains("banned") && words.contains("reserved"),
        "{words}"
    );
    root.administer(AdminAction::Unban { name: "zed".into() })
        .await
        .unwrap();
    // The key refused while the name was banned did not take it: another key may.
    Client::person(&addr, "zed", &key(6)).await;
    let words = Client::refused(&addr, "zed", &key(5)).await;
    assert!(words.contains("belongs to another key"), "{words}");
    server.kill().await.unwrap();
}

#[tokio::test]
async fn sighup_reads_the_admins_of_the_configuration_file_again() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("kingme.toml");
    let write = |admin: &str| {
        let text = format!(
            "listen = \"127.0.0.1:0\"\ndb = {:?}\nadmins = [\"{admin}\"]\n",
            dir.path().join("kingme.db").display().to_string()
        );
        std::fs::write(&config, text).unwrap();
    };
    write(&fingerprint_of(1));
    let (mut server, mut log, addr) = crate::config_file::start_from(&config).await;
    let pid = server.id().unwrap();
    let announce = |text: &str| AdminAction::Announce { text: text.into() };
    let mut bob = Client::person(&addr, "bob", &key(2)).await;
    let (kind, _) = bob.administer(announce("not yet")).await.unwrap_err();
    assert_eq!(kind, ErrorKind::Unauthorized);

    // The host makes bob the admin: from the next message on, on the same connection.
    write(&fingerprint_of(2));
    crate::certificate_reload::hangup(pid);
    line_containing(&mut log, "admins replaced").await;
    bob.administer(announce("now")).await.unwrap();
    let mut root = Client::person(&addr, "root", &key(1)).await;
    let (kind, _) = root.administer(announce("no more")).await.unwrap_err();
    assert_eq!(kind, ErrorKind::Unauthorized);

    // A broken file is said, and the admins in force stay.
    std::fs::write(&config, "admins = [\"3f2a\"]\n").unwrap();
    crate::certificate_reload::hangup(pid);
    line_containing(&mut log, "configuration not re-read").await;
    bob.administer(announce("still")).await.unwrap();
    server.kill().await.unwrap();
}

#[tokio::test]
async fn admins_are_shown_by_print_config_and_a_bad_one_is_refused() {
    let admin = fingerprint_of(1).to_ascii_uppercase();
    let output = Command::new(SERVER)
        .args(["--db", ":memory:", "--admin", &admin, "--print-config"])
        .output()
        .await
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains(&format!("admins = [\"{}\"]", fingerprint_of(1))),
        "{text}"
    );
    let output = Command::new(SERVER)
        .args(["--db", ":memory:", "--admin", "3f2a", "--print-config"])
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let errors = String::from_utf8(output.stderr).unwrap();
    assert!(
        errors.contains("\"3f2a\" is not a key fingerprint")
            && errors.contains("kingme identity show"),
        "{errors}"
    );
}

#[tokio::test]
async fn a_version_6_client_is_sent_no_announcement() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = start(&dir.path().join("kingme.db")).await;
    let mut old = Client::connect(&addr)
        .await
        .guest_of_version("olga", 6)
        .await;
    old.send(ClientMessage::Ping { nonce: 1 }).await;
    old.until(|message| matches!(message, ServerMessage::Pong { nonce: 1 }).then_some(()))
        .await;
    let mut root = Client::person(&addr, "root", &key(1)).await;
    root.administer(AdminAction::Announce {
        text: "hello".into(),
    })
    .await
    .unwrap();
    // What follows comes, and the announcement a version-6 client cannot read never does.
    old.send(ClientMessage::Ping { nonce: 2 }).await;
    old.until(|message| match message {
        ServerMessage::Pong { nonce: 2 } => Some(()),
        ServerMessage::Announcement { .. } => panic!("an announcement sent to a version-6 client"),
        _ => None,
    })
    .await;
    server.kill().await.unwrap();
}
