//! What the fault suite's tests share: what a client heard of a game (a move announced, or its
//! end), a legal checkers move to play, a game's stored record through the archive, the ledger
//! of announced moves each announcement is noted in, and stopping the server (SIGTERM or
//! SIGKILL).

use kingme_shared::GameKind;
use kingme_shared::Side;
use kingme_shared::protocol::{ClientMessage, GameId, ServerMessage};
use kingme_testkit::Client;
use tokio::process::Child;

/// What a client heard of its game: a move announced (with the position after it and the side
/// to move), or that the game ended.
pub enum Heard {
    Move {
        ply: u32,
        text: String,
        position: String,
        to_move: Side,
    },
    Over,
}

/// The next announcement of `game` to `client`.
pub async fn heard(client: &mut Client, game: GameId) -> Heard {
    client
        .until(|message| match message {
            ServerMessage::MovePlayed {
                game: g,
                ply,
                record,
                position,
                side_to_move,
                ..
            } if g == game => Some(Heard::Move {
                ply,
                text: record.text,
                position,
                to_move: side_to_move,
            }),
            ServerMessage::GameOver { game: g, .. } if g == game => Some(Heard::Over),
            _ => None,
        })
        .await
}

/// A legal move in `position` of a checkers game, chosen by `pick`; `None` when there is none
/// (the game is over).
pub fn legal_move(position: &str, pick: usize) -> Option<String> {
    let spec: kingme_shared::GameSpec = GameKind::Checkers.into();
    let legal = spec.start(Some(position)).unwrap().legal_move_texts();
    (!legal.is_empty()).then(|| legal[pick % legal.len()].clone())
}

/// The stored record of `game`, through the archive.
pub async fn exported(client: &mut Client, game: GameId) -> kingme_shared::record::GameRecord {
    client.send(ClientMessage::Export { game }).await;
    client
        .until(|message| match message {
            ServerMessage::Record { game: g, record } if g == game => Some(record),
            _ => None,
        })
        .await
}

/// Notes move `ply` as announced, checking it follows what was announced before.
pub fn note(announced: &mut Vec<String>, ply: u32, text: String) {
    let at = usize::try_from(ply).unwrap() - 1;
    assert!(at <= announced.len(), "ply {ply} after {announced:?}");
    if at == announced.len() {
        announced.push(text);
    } else {
        assert_eq!(
            announced[at], text,
            "ply {ply} announced twice, differently"
        );
    }
}

/// Stops the server: SIGTERM (a graceful shutdown) or SIGKILL (nothing saved but what was).
pub async fn stop(server: &mut Child, graceful: bool) {
    if graceful {
        let pid = server.id().unwrap().to_string();
        let status = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        assert!(status.success());
    } else {
        server.start_kill().unwrap();
    }
    server.wait().await.unwrap();
}
