//! A stored game read back: its setup (the one reading a resumed table starts from too), and a
//! finished game as a spectator sees it, for whoever asks to watch it after its table closed.
//! The moves are replayed through the rules (as a resumed game's are), so the spectator gets
//! every move with its path and captures, the final position and the result, and a client opens
//! it as a finished game it can step through, instead of hearing there is no such game.

use super::judge::{Judge, ReplayError};
use crate::options::GameSetup;
use crate::storage::{Participant, StoredGame};
use kingme_shared::protocol::{GameState, GameStatus, SeatHolder};
use kingme_shared::record::RecordError;
use tokio::time::Instant;

/// Why a stored game could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadBackError {
    #[error("its start position does not read: {0}")]
    Start(RecordError),
    #[error(transparent)]
    Replay(ReplayError),
}

/// The setup a stored game was created with.
pub fn setup_of(stored: &StoredGame) -> Result<GameSetup, ReadBackError> {
    let game = &stored.game;
    Ok(GameSetup {
        spec: game.spec,
        start: stored
            .to_record()
            .start_game()
            .map_err(ReadBackError::Start)?,
        time_control: game.time_control,
        rated: game.rated,
    })
}

/// A finished stored game as a spectator sees it at its end; `None` for a game not finished.
/// Its people are shown as present: a finished game waits for nobody.
pub fn finished_state(stored: &StoredGame) -> Result<Option<GameState>, ReadBackError> {
    let Some(result) = stored.result else {
        return Ok(None);
    };
    let setup = setup_of(stored)?;
    let now = Instant::now();
    let mut judge = Judge::resume(&setup, &stored.moves, now).map_err(ReadBackError::Replay)?;
    if !matches!(judge.status(), GameStatus::Over(_)) {
        judge.finish(result, now);
    }
    let game = judge.game();
    Ok(Some(GameState {
        id: stored.game.id,
        spec: setup.spec,
        seats: stored.game.seats.clone().map(holder),
        your_side: None,
        time_control: setup.time_control,
        rated: setup.rated,
        start_position: judge.start().position_text(),
        moves: judge.moves().to_vec(),
        position: game.position_text(),
        side_to_move: game.side_to_move(),
        clocks: judge.clocks(now),
        status: GameStatus::Over(result),
    }))
}

/// How a stored seat looks to a spectator.
fn holder(participant: Participant) -> SeatHolder {
    match participant {
        Participant::Empty => SeatHolder::Empty,
        Participant::Person(name) | Participant::Guest(name) => SeatHolder::Human {
            name,
            connected: true,
            grace_left_ms: None,
        },
        Participant::Bot(level) => SeatHolder::Bot { level },
    }
}
