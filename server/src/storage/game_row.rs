//! A `games` row as both stores read it: the columns in one order ([`GAME_COLUMNS`]) and their
//! decoding into a game, so that SQLite and PostgreSQL understand a stored game the same way.

use super::records::{FinishedGame, NewGame, Participant, parse_time_control_code, side_from_code};
use super::store::StoreError;
use kingme_shared::domain::{GameId, GameResult, HistoryEntry};
use kingme_shared::record::parse_end_reason_code;
use kingme_shared::{GameKind, GameSpec, Variant};

/// The columns of `games` that [`GameColumns`] holds, in its order.
pub const GAME_COLUMNS: &str = "id, kind, time_control, rated, variant, start_position, \
                                first_seat, second_seat, created_at_ms, winner, end_reason, \
                                finished_at_ms";

/// How many columns [`GAME_COLUMNS`] names: the index of a column read after them.
pub const GAME_COLUMN_COUNT: usize = columns_in(GAME_COLUMNS);

/// The columns a comma-separated list names.
const fn columns_in(list: &str) -> usize {
    let bytes = list.as_bytes();
    let (mut index, mut columns) = (0, 1);
    while index < bytes.len() {
        if bytes[index] == b',' {
            columns += 1;
        }
        index += 1;
    }
    columns
}

/// The number of moves stored for the game of a `games` row, as a column to read with it
/// (finishing a game returns it, for the game's rating).
pub const PLIES_STORED: &str = "(SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)";

/// A game just finished, from its row and the count of its moves read with it ([`PLIES_STORED`]).
pub fn finished_game(row: GameRow, plies: i64) -> Result<FinishedGame, StoreError> {
    let plies = usize::try_from(plies)
        .map_err(|_| StoreError::Corrupt(format!("{plies} moves stored for a game")))?;
    Ok(FinishedGame { game: row.0, plies })
}

/// A game read back without its moves, with the result and its time if it has one.
pub type GameRow = (NewGame, Option<GameResult>, Option<i64>);

/// A `games` row as every store reads it ([`GAME_COLUMNS`]), before its codes are understood.
#[derive(Debug, Clone)]
pub struct GameColumns {
    pub id: i64,
    pub kind: String,
    pub time_control: String,
    pub rated: bool,
    pub variant: String,
    pub start_position: Option<String>,
    pub seats: [Option<String>; 2],
    pub created_at_ms: i64,
    pub winner: Option<String>,
    pub end_reason: Option<String>,
    pub finished_at_ms: Option<i64>,
}

impl GameColumns {
    /// The game these columns hold, or what in them this build does not understand.
    pub fn decode(self) -> Result<GameRow, StoreError> {
        let id = self.id;
        let context =
            |problem: &dyn std::fmt::Display| StoreError::Corrupt(format!("game {id}: {problem}"));
        let result = match self.end_reason {
            None => None,
            Some(code) => Some(GameResult {
                winner: side_from_code(self.winner.as_deref()).map_err(|err| context(&err))?,
                reason: parse_end_reason_code(&code).map_err(|err| context(&err))?,
            }),
        };
        let kind = self.kind.parse::<GameKind>().map_err(|err| context(&err))?;
        let spec = Variant::from_code(&self.variant)
            .and_then(|variant| GameSpec::new(kind, variant))
            .map_err(|err| context(&err))?;
        let [first, second] = self.seats;
        let game = NewGame {
            id: GameId(u64::try_from(id).map_err(|_| context(&"negative id"))?),
            spec,
            time_control: parse_time_control_code(&self.time_control)
                .map_err(|err| context(&err))?,
            rated: self.rated,
            start_position: self.start_position,
            seats: [
                Participant::from_code(first.as_deref()).map_err(|err| context(&err))?,
                Participant::from_code(second.as_deref()).map_err(|err| context(&err))?,
            ],
            created_at_ms: self.created_at_ms,
        };
        Ok((game, result, self.finished_at_ms))
    }
}

/// A history entry of a game read back with its move count; `None` for an unfinished game.
#[must_use]
pub fn history_entry((game, result, finished_at_ms): GameRow, moves: u32) -> Option<HistoryEntry> {
    Some(HistoryEntry {
        id: game.id,
        kind: game.spec.kind(),
        players: [game.seats[0].display_name(), game.seats[1].display_name()],
        moves,
        result: result?,
        rated: game.rated,
        finished_at_ms: finished_at_ms?,
    })
}
