//! The one interface between the judge and its database. SQLite ([`super::SqliteStore`]) is the
//! embedded default; PostgreSQL ([`super::PgStore`]) lets several servers share their games.
//! Both pass one conformance suite ([`super::conformance`]): nothing above this trait can tell
//! them apart.
//!
//! The methods are blocking: a store is used by one storage worker at a time ([`super::Storage`]), never
//! touched from the async reactor. They are data access only; the rules built on them (ratings,
//! identities) are written once, against this trait, in their own modules.

use super::ratings::{Rated, Rating};
use super::records::{FinishedGame, NewGame, Participant, StoredGame, StoredMove};
use super::sanctions::{SanctionKind, Sanctions, UnknownSanction};
use kingme_shared::domain::{AdminLogEntry, GameId, GameResult, HistoryEntry, LeaderboardEntry};
use kingme_shared::{GameKind, Side};

/// A database failure, as text: the storage worker hands it to every waiting caller, so it is
/// cloneable rather than carrying the driver's own error type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened, read or written.
    #[error("database error: {0}")]
    Database(String),
    /// The database holds something this build cannot read (a newer schema, a bad value).
    #[error("database content not understood: {0}")]
    Corrupt(String),
    /// The request names a game that is not stored (or no longer in the needed state).
    #[error("{0}")]
    NotFound(String),
    /// A move arrived with another number than the one due next: a bug in the caller, never
    /// stored.
    #[error("game {game}: move {ply} arrived where move {expected} was due")]
    OutOfSequence {
        /// The game.
        game: GameId,
        /// The number the move arrived with.
        ply: u32,
        /// The number due next.
        expected: u32,
    },
    /// The storage worker went away before answering.
    #[error("the storage worker stopped before answering")]
    Stopped,
    /// A write for a game by a node whose lease on it is no longer the latest: another node
    /// runs the game now (see [`super::fence`]), so nothing was written.
    #[error("game {game}: lease {token} was superseded by another node's; nothing written")]
    Fenced {
        /// The game.
        game: GameId,
        /// The superseded lease's fencing token.
        token: u64,
    },
}

/// A registered name: the public key it belongs to, or, for a name registered by a version-2
/// server and not yet claimed by a key, the hash of its old secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredIdentity {
    pub public_key: Option<[u8; 32]>,
    pub legacy_secret_hash: Option<Vec<u8>>,
}

impl StoreError {
    /// `Ok` when a change to game `game` touched a row, else the error that no unfinished game
    /// of that id is stored (it never was, or it is over): `what` says what could not be done.
    pub fn unless_changed(changed: u64, game: GameId, what: &str) -> Result<(), StoreError> {
        if changed == 0 {
            return Err(StoreError::no_unfinished_game(game, what));
        }
        Ok(())
    }

    /// The refusal of `what` for a game that is not stored or already finished.
    #[must_use]
    pub fn no_unfinished_game(game: GameId, what: &str) -> StoreError {
        StoreError::NotFound(format!(
            "cannot {what}: no unfinished game {game} is stored"
        ))
    }
}

impl From<UnknownSanction> for StoreError {
    fn from(err: UnknownSanction) -> StoreError {
        StoreError::Corrupt(err.to_string())
    }
}

impl StoredIdentity {
    /// An identity from its stored columns: a public key must be 32 bytes.
    pub fn from_columns(
        name: &str,
        public_key: Option<Vec<u8>>,
        legacy_secret_hash: Option<Vec<u8>>,
    ) -> Result<StoredIdentity, StoreError> {
        let public_key = match public_key {
            None => None,
            Some(bytes) => Some(<[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| {
                StoreError::Corrupt(format!(
                    "the public key of {name:?} is {} bytes, not 32",
                    bytes.len()
                ))
            })?),
        };
        Ok(StoredIdentity {
            public_key,
            legacy_secret_hash,
        })
    }
}

/// Which finished games a history request wants.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HistoryQuery {
    /// Only games this person (or guest of this name) played.
    pub player: Option<String>,
    pub kind: Option<GameKind>,
    /// At most this many, newest first.
    pub limit: usize,
}

/// A database of games, identities, resume tokens, ratings, and moderation (sanctions and the
/// admin log).
pub trait Store: Send {
    /// Starts a batch: everything until [`Store::commit_batch`] becomes durable together.
    fn begin_batch(&mut self) -> Result<(), StoreError>;
    /// Makes the batch durable; only after this returns may a caller be told its work is stored.
    fn commit_batch(&mut self) -> Result<(), StoreError>;
    /// Checks that the database is still the one opened (its file not removed or replaced).
    fn verify(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
    /// Drops the batch.
    fn rollback_batch(&mut self);
    /// Marks the start of one request inside a batch, so that a failing request can be undone
    /// without losing the others.
    fn begin_request(&mut self) -> Result<(), StoreError>;
    /// Ends the request begun last, keeping its changes or undoing them.
    fn end_request(&mut self, keep: bool) -> Result<(), StoreError>;

    /// Stores a new game. Its id must not be stored yet.
    fn create_game(&mut self, game: &NewGame) -> Result<(), StoreError>;
    /// Changes who sits on a side of a stored game.
    fn set_seat(&mut self, game: GameId, side: Side, who: &Participant) -> Result<(), StoreError>;
    /// Appends an accepted move; its ply must follow the last stored one.
    fn record_move(&mut self, game: GameId, mv: &StoredMove) -> Result<(), StoreError>;
    /// Forgets the moves after the first `plies_kept` (a takeback).
    fn take_back(&mut self, game: GameId, plies_kept: u32) -> Result<(), StoreError>;
    /// Records how a game ended, and returns the game with the number of its stored moves (to
    /// rate it without reading its moves back).
    fn finish_game(
        &mut self,
        game: GameId,
        result: &GameResult,
        finished_at_ms: i64,
    ) -> Result<FinishedGame, StoreError>;
    /// One stored game with its moves.
    fn game(&mut self, id: GameId) -> Result<Option<StoredGame>, StoreError>;
    /// Closes, as aborted at `finished_at_ms`, every unfinished game with a seat still open (a
    /// game that never started), in one statement; returns how many.
    fn abort_open_games(&mut self, finished_at_ms: i64) -> Result<usize, StoreError>;
    /// Every game without a result, oldest first: what a restarted server resumes.
    fn unfinished_games(&mut self) -> Result<Vec<StoredGame>, StoreError>;
    /// Hands out `count` fresh game ids, each above every id stored or handed out before, and
    /// never the same twice, also to other servers on the same database (once the batch is
    /// committed: an id from a batch that failed may be handed out again).
    fn reserve_game_ids(&mut self, count: u32) -> Result<Vec<GameId>, StoreError>;
    /// Gives back the ids `first..=last`, reserved and never used, if nothing was reserved
    /// after them: the next reservation then hands them out again, so a server's ids run on
    /// without a gap after a restart. Returns whether they were taken back. The default keeps
    /// the gap: a database that other servers share may have handed out more meanwhile (a
    /// PostgreSQL sequence cannot be wound back safely).
    fn release_game_ids(&mut self, first: GameId, last: GameId) -> Result<bool, StoreError> {
        let _ = (first, last);
        Ok(false)
    }
    /// Takes the lease on a game for a new owner: the game's fencing token, one above the last
    /// handed out for it (1 for the first), committed with the batch. From then on only writes
    /// carrying this token pass [`Store::check_lease`].
    fn claim_lease(&mut self, game: GameId) -> Result<u64, StoreError>;
    /// Checks, inside the batch and holding the game's lease row until the batch ends, that
    /// `token` is the game's latest fencing token; else [`StoreError::Fenced`].
    fn check_lease(&mut self, game: GameId, token: u64) -> Result<(), StoreError>;
    /// Finished games, newest first.
    fn history(&mut self, query: &HistoryQuery) -> Result<Vec<HistoryEntry>, StoreError>;

    /// Keeps other writers (other servers on the same database) from changing these ratings
    /// until the batch ends, so that reading and then replacing them loses no update. A store
    /// whose batches already exclude every other writer does nothing here.
    fn lock_ratings(&mut self, kind: GameKind, who: &[Rated; 2]) -> Result<(), StoreError>;
    /// A rating, `None` before the first rated game.
    fn rating(&mut self, kind: GameKind, who: &Rated) -> Result<Option<Rating>, StoreError>;
    /// Replaces a rating.
    fn set_rating(
        &mut self,
        kind: GameKind,
        who: &Rated,
        rating: &Rating,
    ) -> Result<(), StoreError>;
    /// The best ratings, highest first, of one game or of every game.
    fn leaderboard(
        &mut self,
        kind: Option<GameKind>,
        limit: usize,
    ) -> Result<Vec<LeaderboardEntry>, StoreError>;

    /// Who a name belongs to, `None` for a name never registered.
    fn identity(&mut self, name: &str) -> Result<Option<StoredIdentity>, StoreError>;
    /// Binds `public_key` to `name`: registers a new name, or gives a name registered with a
    /// version-2 secret (and no key yet) its key. `false` (and no change) if the name already
    /// has a key.
    fn bind_key(
        &mut self,
        name: &str,
        public_key: &[u8; 32],
        at_ms: i64,
    ) -> Result<bool, StoreError>;
    /// The server's id, stable for the database's life (the identity challenge carries it).
    fn server_id(&mut self) -> Result<String, StoreError>;

    /// Remembers a resume token (by its hash) and the name it resumes.
    fn save_resume_token(
        &mut self,
        token_hash: &[u8],
        name: &str,
        at_ms: i64,
    ) -> Result<(), StoreError>;
    /// The name a resume token (by its hash) belongs to.
    fn resume_token_owner(&mut self, token_hash: &[u8]) -> Result<Option<String>, StoreError>;
    /// The hashes of every resume token issued to a name.
    fn resume_tokens_of(&mut self, name: &str) -> Result<Vec<Vec<u8>>, StoreError>;
    /// Forgets the resume tokens saved before `saved_before_ms`, except those of guests seated
    /// in a game without a result (a restarted server resumes those guests by their tokens).
    /// Returns how many were forgotten.
    fn forget_resume_tokens(&mut self, saved_before_ms: i64) -> Result<u64, StoreError>;

    /// Puts a sanction on a name (replacing one of the same kind, and its reason).
    fn sanction(
        &mut self,
        name: &str,
        kind: SanctionKind,
        reason: Option<&str>,
        at_ms: i64,
    ) -> Result<(), StoreError>;
    /// Lifts a sanction; `false` if the name had none of that kind.
    fn lift_sanction(&mut self, name: &str, kind: SanctionKind) -> Result<bool, StoreError>;
    /// The sanctions on a name.
    fn sanctions(&mut self, name: &str) -> Result<Sanctions, StoreError>;
    /// Appends an entry to the admin log.
    fn log_admin_action(&mut self, entry: &AdminLogEntry) -> Result<(), StoreError>;
    /// The admin log's latest entries, newest first, at most `limit`.
    fn admin_log(&mut self, limit: usize) -> Result<Vec<AdminLogEntry>, StoreError>;
}
