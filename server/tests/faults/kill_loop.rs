//! The kill loop: the real `kingme-server` binary on a temporary SQLite file, stopped again and
//! again in the middle of a game (SIGKILL, and every third round SIGTERM), with a person playing
//! a bot and a spectator auditing. Every move either of them heard announced must be in the
//! game the next start resumes, in order; a game that ends is checked against its export; at the
//! end the test says what it survived (kills, moves audited, games resumed, lost), the numbers
//! `docs/faults.md` records.

use super::SERVER;
use super::audit::{Heard, exported, heard, legal_move, note, stop};
use kingme_shared::GameKind;
use kingme_shared::Side;
use kingme_shared::ai::Level;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::{ClientMessage, GameId};
use kingme_testkit::server_process::start_server_process;
use kingme_testkit::{Client, against_bot};
use std::collections::BTreeMap;

/// How many times the server is stopped.
const ROUNDS: usize = 60;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopped_again_and_again_mid_game_no_announced_move_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let ada_key = SigningKey::from_bytes(&[1; 32]);
    let cy_key = SigningKey::from_bytes(&[3; 32]);
    let mut game: Option<GameId> = None;
    let mut announced: BTreeMap<GameId, Vec<String>> = BTreeMap::new();
    let (mut kills, mut terms, mut resumed, mut finished) = (0, 0, 0, 0);
    for round in 0..ROUNDS {
        let (mut server, addr) = start_server_process(SERVER, db.as_os_str(), &[]).await;
        let mut ada = Client::person(&addr, "ada", &ada_key).await;
        let games = ada.games.clone();
        let mut cy = Client::person(&addr, "cy", &cy_key).await;
        // A game that ended just before the stop (ada's last move, or the bot's answer, ended
        // it unheard) is not resumed: it is stored finished, with every announced move.
        if let Some(id) = game.filter(|id| !games.contains(id)) {
            let record = exported(&mut ada, id).await;
            assert!(
                record.result.is_some(),
                "game {id} neither resumed nor finished"
            );
            assert!(record.moves.starts_with(&announced[&id]), "{record:?}");
            finished += 1;
            game = None;
        }
        // ada's own state of the game in play: the one resumed, or a new one.
        let mine = match game {
            Some(id) => {
                assert_eq!(games, [id], "the game in play is resumed");
                resumed += 1;
                ada.state_of(id).await
            }
            None => {
                // A checkers game against the bot, ada playing first.
                ada.create(against_bot(GameKind::Checkers, Level::Random))
                    .await
            }
        };
        let id = mine.id;
        game = Some(id);
        cy.send(ClientMessage::Watch { game: id }).await;
        let state = cy.state_of(id).await;
        let stored: Vec<String> = state.moves.into_iter().map(|m| m.text).collect();
        let heard_before = announced.entry(id).or_default();
        assert!(
            stored.starts_with(heard_before),
            "round {round}: announced {heard_before:?}, resumed {stored:?}"
        );
        let heard_count = stored.len();
        *heard_before = stored;

        // A few of ada's moves, each answered by the bot; the spectator hears every one.
        let moves = 2 + round % 4;
        let mut played = 0;
        let mut over = false;
        if mine.side_to_move == Side::First
            && let Some(text) = legal_move(&mine.position, round)
        {
            ada.send(ClientMessage::Move { game: id, text }).await;
            played += 1;
        }
        while played < moves && !over {
            match heard(&mut ada, id).await {
                Heard::Move {
                    ply,
                    text,
                    position,
                    to_move,
                } => {
                    note(announced.get_mut(&id).unwrap(), ply, text);
                    if to_move == Side::First
                        && let Some(text) = legal_move(&position, round + played)
                    {
                        ada.send(ClientMessage::Move { game: id, text }).await;
                        played += 1;
                    }
                }
                Heard::Over => over = true,
            }
        }
        // The spectator hears what ada heard, the same moves.
        let expected = announced[&id].len();
        let mut cy_heard = heard_count;
        while !over && cy_heard < expected {
            match heard(&mut cy, id).await {
                Heard::Move { ply, text, .. } => {
                    note(announced.get_mut(&id).unwrap(), ply, text);
                    cy_heard = usize::try_from(ply).unwrap();
                }
                Heard::Over => break,
            }
        }
        if over {
            // The game ended: its export is every move announced.
            let record = exported(&mut ada, id).await;
            assert!(record.moves.starts_with(&announced[&id]), "{record:?}");
            finished += 1;
            game = None;
        }
        // Stopped with ada's last move (and the bot's answer) perhaps still being stored.
        let graceful = round % 3 == 2;
        stop(&mut server, graceful).await;
        if graceful {
            terms += 1;
        } else {
            kills += 1;
        }
    }
    let audited: usize = announced.values().map(Vec::len).sum();
    eprintln!(
        "fault suite, kill loop: {kills} SIGKILLs and {terms} SIGTERMs mid-game, {audited} \
         announced moves audited over {} games ({finished} finished), {resumed} games resumed, \
         lost = 0",
        announced.len()
    );
    assert!(resumed > 0 && audited > ROUNDS);
}
