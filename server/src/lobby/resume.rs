//! Bringing back the games that were in progress when the server last stopped, however it
//! stopped (even killed outright): each is rebuilt from the database by replaying its moves
//! through the rules ([`crate::game::table::resume`]), bots take their seats again, every person seated
//! in one gets a session found by name (their key proves it when they connect), and every guest
//! a session that answers to the resume tokens it was issued; so clients come back and play on.
//!
//! A game that never started (a seat still open) is closed as aborted: nobody was playing it.
//! A game whose stored moves no longer replay is closed as aborted too, with the reason logged.

use crate::game::TableContext;
use crate::game::seat::Seat;
use crate::game::table;
use crate::players::{Session, Sessions};
use crate::storage::records::unix_ms;
use crate::storage::{Participant, StoreError, StoredGame};
use kingme_shared::protocol::{EndReason, GameResult};
use std::collections::HashMap;
use std::sync::Arc;

/// Resumes every unfinished stored game; returns how many are running again.
pub async fn resume_games(
    tables: &Arc<TableContext>,
    sessions: &Sessions,
) -> Result<usize, StoreError> {
    let storage = &tables.storage;
    let aborted = GameResult {
        winner: None,
        reason: EndReason::Aborted,
    };
    // Games that never started are closed in one statement, before anything is loaded: tens of
    // thousands of them must not keep the server from serving.
    let closed = storage.abort_open_games(unix_ms()).await?;
    if closed > 0 {
        tracing::info!(
            count = closed,
            "closed the games that never started as aborted"
        );
    }
    // One session per guest across all resumed games, found by any token it was issued.
    let mut guests: HashMap<String, Arc<Session>> = HashMap::new();
    let mut resumed = 0;
    for stored in storage.unfinished_games().await? {
        let id = stored.game.id;
        if stored.game.seats.contains(&Participant::Empty) {
            storage.finish_game(id, aborted, unix_ms()).await?;
            continue;
        }
        let seats = seats_of(tables, sessions, &stored, &mut guests).await?;
        match table::resume(tables, &stored, seats, None) {
            Ok(_) => resumed += 1,
            Err(err) => {
                tracing::error!(game = %id, %err, "a stored game does not replay; aborting it");
                storage.finish_game(id, aborted, unix_ms()).await?;
            }
        }
    }
    Ok(resumed)
}

/// The seats of a stored game as they are taken again: bots seated anew, each person's the
/// session found by name (their key proves it when they connect), each guest's one session
/// (kept in `guests` across games) answering to every resume token it was issued.
pub async fn seats_of(
    tables: &Arc<TableContext>,
    sessions: &Sessions,
    stored: &StoredGame,
    guests: &mut HashMap<String, Arc<Session>>,
) -> Result<[Seat; 2], StoreError> {
    let mut seats = [Seat::empty(), Seat::empty()];
    for (seat, participant) in seats.iter_mut().zip(&stored.game.seats) {
        *seat = match participant {
            Participant::Empty => Seat::empty(),
            Participant::Bot(level) => Seat::bot(*level, tables.bots.clone()),
            // A person's seats wait for whoever proves the name's key.
            Participant::Person(name) => Seat::human(sessions.person(name)),
            Participant::Guest(name) => {
                let session = match guests.get(name) {
                    Some(session) => Arc::clone(session),
                    None => {
                        let tokens = tables.storage.resume_tokens_of(name.clone()).await?;
                        let session = sessions.restore_guest(name.clone(), tokens);
                        guests.insert(name.clone(), Arc::clone(&session));
                        session
                    }
                };
                Seat::human(session)
            }
        };
    }
    Ok(seats)
}
