//! A full disk, for real: the server binary's SQLite database on a small tmpfs of its own, the
//! rest of which a file fills while a person plays the server's bot. Then moves stop fitting:
//! a move that cannot be stored is refused (or, the bot's, pauses the game) and is never
//! announced; a new game that cannot be stored is refused with nothing of it announced; a
//! newcomer is let in to watch; the server stays up and says the disk is full. Once the file is gone the game goes on by itself,
//! and after a restart every announced move is in the database.
//!
//! Mounting needs root (`.ci/run` runs as root); elsewhere the test fails saying so. The mount
//! is undone by a guard, also when the test fails.

use super::SERVER;
use super::audit::{exported, legal_move, stop};
use kingme_shared::GameKind;
use kingme_shared::Side;
use kingme_shared::ai::Level;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::{ClientMessage, ErrorKind, GameId, GameState, ServerMessage};
use kingme_testkit::server_process::start_server_process;
use kingme_testkit::{Client, against_bot};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The small filesystem's size: the database and the server's certificate fit many times over.
const SIZE: &str = "size=2m";

/// Room left when the file has filled the rest: some moves fit, then none.
const HEADROOM: u64 = 96 * 1024;

/// Most moves (the person's and the bot's) played before the disk must have filled.
const MOST_PLIES: u32 = 3_000;

/// A tmpfs mounted at a folder, unmounted when dropped.
struct Mount {
    at: PathBuf,
}

impl Mount {
    /// Mounts a tmpfs of [`SIZE`] at `at`; fails the test when this is not root.
    fn tmpfs(at: &Path) -> Mount {
        let uid = Command::new("id").arg("-u").output().unwrap();
        assert!(
            String::from_utf8_lossy(&uid.stdout).trim() == "0",
            "this test mounts a small tmpfs, which needs root: run it as root (`sudo -E cargo \
             test -p kingme-server --features fault-tests --test faults`), or through .ci/run, \
             which CI runs as root"
        );
        std::fs::create_dir_all(at).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", SIZE, "tmpfs"])
            .arg(at)
            .status()
            .unwrap();
        assert!(status.success(), "cannot mount a tmpfs at {}", at.display());
        Mount { at: at.to_owned() }
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        // Lazily: a server process being killed may still hold its files open.
        let _ = Command::new("umount").arg("-l").arg(&self.at).status();
    }
}

/// Fills the filesystem of `path` with the file `path`; returns the bytes written.
fn fill(path: &Path) -> u64 {
    let mut file = std::fs::File::create(path).unwrap();
    let mut written = 0;
    for chunk in [1 << 16, 1 << 12, 1] {
        let bytes = vec![0_u8; chunk];
        loop {
            match file.write(&bytes) {
                Ok(0) => break,
                Ok(n) => written += u64::try_from(n).unwrap(),
                Err(err) => {
                    assert_eq!(err.kind(), std::io::ErrorKind::StorageFull, "{err}");
                    break;
                }
            }
        }
    }
    written
}

/// What became of a request while the disk fills.
enum Outcome {
    /// A move was announced: its number, its text, the position after it, the side to move.
    Moved {
        ply: u32,
        text: String,
        position: String,
        to_move: Side,
    },
    /// The game ended.
    Over,
    /// The storage failed: the refusal or the pause notice, which says why.
    NotStored(String),
}

/// The next thing `ada` hears of `game`: a move, its end, or that something was not stored.
async fn outcome(ada: &mut Client, game: GameId) -> Outcome {
    ada.until(|message| match message {
        ServerMessage::MovePlayed {
            game: g,
            ply,
            record,
            position,
            side_to_move,
            ..
        } if g == game => Some(Outcome::Moved {
            ply,
            text: record.text,
            position,
            to_move: side_to_move,
        }),
        ServerMessage::GameOver { game: g, .. } if g == game => Some(Outcome::Over),
        ServerMessage::MoveRejected {
            kind: ErrorKind::NotStored,
            reason,
            ..
        } => Some(Outcome::NotStored(reason)),
        ServerMessage::Error {
            kind: ErrorKind::NotStored,
            message,
            ..
        } => Some(Outcome::NotStored(message)),
        _ => None,
    })
    .await
}

/// Asks for a new game against the bot while the disk is full: it must be refused, saying the
/// disk is full, and nothing of another game than `current` may be announced before.
async fn creation_refused(ada: &mut Client, current: GameId) -> String {
    ada.send(ClientMessage::CreateGame(against_bot(
        GameKind::Checkers,
        Level::Random,
    )))
    .await;
    loop {
        match ada.recv().await {
            ServerMessage::Error {
                kind: ErrorKind::NotStored,
                message,
                ..
            } if !message.contains("is paused") => return message,
            ServerMessage::State(GameState { id, .. })
            | ServerMessage::YourTurn { game: id, .. }
            | ServerMessage::GameOver { game: id, .. }
                if id != current =>
            {
                panic!("game {id} was announced though the disk is full");
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_what_it_cannot_store_and_announces_none_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let mount = Mount::tmpfs(&dir.path().join("disk"));
    let db = mount.at.join("g.db");
    let filler = mount.at.join("filler");
    let (mut server, addr) = start_server_process(SERVER, db.as_os_str(), &[]).await;
    let ada_key = SigningKey::from_bytes(&[5; 32]);
    let mut ada = Client::person(&addr, "ada", &ada_key).await;
    let mut announced: BTreeMap<GameId, Vec<String>> = BTreeMap::new();
    let mut game = ada
        .create(against_bot(GameKind::Checkers, Level::Random))
        .await;
    let filled = fill(&filler) - HEADROOM;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&filler)
        .unwrap()
        .set_len(filled)
        .unwrap();

    // Ada plays on (new games as games end) until a change cannot be stored.
    let mut plies = 0;
    let mut position = game.position.clone();
    let mut to_move = game.side_to_move;
    let refusal = loop {
        assert!(
            plies < MOST_PLIES,
            "{plies} moves stored on a full disk ({filled} bytes filled)"
        );
        if to_move == Side::First {
            let text = legal_move(&position, usize::try_from(plies).unwrap()).unwrap();
            ada.send(ClientMessage::Move {
                game: game.id,
                text,
            })
            .await;
        }
        match outcome(&mut ada, game.id).await {
            Outcome::Moved {
                ply,
                text,
                position: after,
                to_move: next,
            } => {
                plies += 1;
                let moves = announced.entry(game.id).or_default();
                assert_eq!(usize::try_from(ply).unwrap(), moves.len() + 1);
                moves.push(text);
                (position, to_move) = (after, next);
            }
            Outcome::Over => {
                game = ada
                    .create(against_bot(GameKind::Checkers, Level::Random))
                    .await;
                position = game.position.clone();
                to_move = game.side_to_move;
            }
            Outcome::NotStored(refusal) => break refusal,
        }
    };
    assert!(
        refusal.contains("full"),
        "the refusal does not say the disk is full: {refusal}"
    );
    let refused = creation_refused(&mut ada, game.id).await;
    assert!(refused.contains("full"), "{refused}");
    // A newcomer, whose name cannot be stored, is let in to watch and told why.
    let mut bea = Client::person(&addr, "bea", &SigningKey::from_bytes(&[6; 32])).await;
    let notice = bea
        .until(|message| match message {
            ServerMessage::Error {
                kind: ErrorKind::NotStored,
                message,
                ..
            } => Some(message),
            _ => None,
        })
        .await;
    assert!(notice.contains("full"), "{notice}");
    assert!(
        server.try_wait().unwrap().is_none(),
        "the server ended on a full disk"
    );

    // Room again: the game goes on by itself (a refused move is made again), and is stored.
    std::fs::remove_file(&filler).unwrap();
    let mut more = 0;
    while more < 4 {
        if to_move == Side::First {
            let text = legal_move(&position, more).unwrap();
            ada.send(ClientMessage::Move {
                game: game.id,
                text,
            })
            .await;
        }
        match outcome(&mut ada, game.id).await {
            Outcome::Moved {
                ply,
                text,
                position: after,
                to_move: next,
            } => {
                let moves = announced.entry(game.id).or_default();
                assert_eq!(usize::try_from(ply).unwrap(), moves.len() + 1);
                moves.push(text);
                more += 1;
                (position, to_move) = (after, next);
            }
            Outcome::Over => break,
            // Still paused: the game tries again by itself every few seconds.
            Outcome::NotStored(_) => {
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            }
        }
    }

    // Restarted: every announced move is in the database.
    stop(&mut server, true).await;
    let (_server, addr) = start_server_process(SERVER, db.as_os_str(), &[]).await;
    let mut ada = Client::person(&addr, "ada", &ada_key).await;
    for (id, moves) in &announced {
        let stored: Vec<String> = if ada.games.contains(id) {
            let state = ada.state_of(*id).await;
            state.moves.into_iter().map(|m| m.text).collect()
        } else {
            exported(&mut ada, *id).await.moves
        };
        assert!(
            stored.starts_with(moves),
            "game {id}: announced {moves:?}, stored {stored:?}"
        );
    }
    let audited: usize = announced.values().map(Vec::len).sum();
    eprintln!(
        "fault suite, full disk: a {SIZE} tmpfs filled ({filled} bytes), {audited} announced \
         moves over {} games all stored ({plies} before the disk was full), the move and the new \
         game refused, the newcomer let in to watch: {refusal:?}; {refused:?}; {notice:?}",
        announced.len()
    );
}
