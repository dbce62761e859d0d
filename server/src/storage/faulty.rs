//! A [`Store`] that fails on demand, wrapped around a real one: the way to test what the server
//! does when its disk fills up or its database becomes read-only (the commit fails, as SQLite's
//! does then), without filling a disk.

use super::ratings::{Rated, Rating};
use super::records::{FinishedGame, NewGame, Participant, StoredGame, StoredMove};
use super::sanctions::{SanctionKind, Sanctions};
use super::store::{HistoryQuery, Store, StoreError, StoredIdentity};
use kingme_shared::domain::{AdminLogEntry, GameId, GameResult, HistoryEntry, LeaderboardEntry};
use kingme_shared::{GameKind, Side};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// The switch of a [`FaultyStore`], kept by the test. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// Commits still allowed; negative: no limit.
    commits_left: Arc<AtomicI64>,
}

impl Faults {
    /// Lets `commits` more batches commit, then fails every commit until [`Faults::repair`].
    pub fn fail_after(&self, commits: u32) {
        self.commits_left
            .store(i64::from(commits), Ordering::SeqCst);
    }

    /// Fails every commit from now on.
    pub fn fail_now(&self) {
        self.fail_after(0);
    }

    /// Lets every commit through again.
    pub fn repair(&self) {
        self.commits_left.store(-1, Ordering::SeqCst);
    }

    /// Takes one commit: `true` if it may go through.
    fn take(&self) -> bool {
        self.commits_left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| match left {
                0 => None,
                left if left < 0 => Some(left),
                left => Some(left - 1),
            })
            .is_ok()
    }
}

/// A store whose commits fail when its [`Faults`] say so; everything else is the inner store's.
pub struct FaultyStore<S> {
    inner: S,
    faults: Faults,
}

impl<S: Store> FaultyStore<S> {
    /// Wraps `inner`; returns the store and its switch (every commit goes through at first).
    pub fn new(inner: S) -> (FaultyStore<S>, Faults) {
        let faults = Faults::default();
        faults.repair();
        (
            FaultyStore {
                inner,
                faults: faults.clone(),
            },
            faults,
        )
    }
}

impl<S: Store> Store for FaultyStore<S> {
    fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.inner.begin_batch()
    }
    fn commit_batch(&mut self) -> Result<(), StoreError> {
        if self.faults.take() {
            self.inner.commit_batch()
        } else {
            Err(StoreError::Database(
                "database or disk is full (a fault injected by a test)".to_owned(),
            ))
        }
    }
    fn verify(&mut self) -> Result<(), StoreError> {
        self.inner.verify()
    }
    fn rollback_batch(&mut self) {
        self.inner.rollback_batch();
    }
    fn begin_request(&mut self) -> Result<(), StoreError> {
        self.inner.begin_request()
    }
    fn end_request(&mut self, keep: bool) -> Result<(), StoreError> {
        self.inner.end_request(keep)
    }
    fn create_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        self.inner.create_game(game)
    }
    fn set_seat(&mut self, game: GameId, side: Side, who: &Participant) -> Result<(), StoreError> {
        self.inner.set_seat(game, side, who)
    }
    fn record_move(&mut self, game: GameId, mv: &StoredMove) -> Result<(), StoreError> {
        self.inner.record_move(game, mv)
    }
    fn take_back(&mut self, game: GameId, plies_kept: u32) -> Result<(), StoreError> {
        self.inner.take_back(game, plies_kept)
    }
    fn finish_game(
        &mut self,
        game: GameId,
        result: &GameResult,
        finished_at_ms: i64,
    ) -> Result<FinishedGame, StoreError> {
        self.inner.finish_game(game, result, finished_at_ms)
    }
    fn game(&mut self, id: GameId) -> Result<Option<StoredGame>, StoreError> {
        self.inner.game(id)
    }
    fn abort_open_games(&mut self, finished_at_ms: i64) -> Result<usize, StoreError> {
        self.inner.abort_open_games(finished_at_ms)
    }
    fn unfinished_games(&mut self) -> Result<Vec<StoredGame>, StoreError> {
        self.inner.unfinished_games()
    }
    fn reserve_game_ids(&mut self, count: u32) -> Result<Vec<GameId>, StoreError> {
        self.inner.reserve_game_ids(count)
    }
    fn release_game_ids(&mut self, first: GameId, last: GameId) -> Result<bool, StoreError> {
        self.inner.release_game_ids(first, last)
    }
    fn claim_lease(&mut self, game: GameId) -> Result<u64, StoreError> {
        self.inner.claim_lease(game)
    }
    fn check_lease(&mut self, game: GameId, token: u64) -> Result<(), StoreError> {
        self.inner.check_lease(game, token)
    }
    fn history(&mut self, query: &HistoryQuery) -> Result<Vec<HistoryEntry>, StoreError> {
        self.inner.history(query)
    }
    fn lock_ratings(&mut self, kind: GameKind, who: &[Rated; 2]) -> Result<(), StoreError> {
        self.inner.lock_ratings(kind, who)
    }
    fn rating(&mut self, kind: GameKind, who: &Rated) -> Result<Option<Rating>, StoreError> {
        self.inner.rating(kind, who)
    }
    fn set_rating(
        &mut self,
        kind: GameKind,
        who: &Rated,
        rating: &Rating,
    ) -> Result<(), StoreError> {
        self.inner.set_rating(kind, who, rating)
    }
    fn leaderboard(
        &mut self,
        kind: Option<GameKind>,
        limit: usize,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        self.inner.leaderboard(kind, limit)
    }
    fn identity(&mut self, name: &str) -> Result<Option<StoredIdentity>, StoreError> {
        self.inner.identity(name)
    }
    fn bind_key(
        &mut self,
        name: &str,
        public_key: &[u8; 32],
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        self.inner.bind_key(name, public_key, at_ms)
    }
    fn server_id(&mut self) -> Result<String, StoreError> {
        self.inner.server_id()
    }
    fn save_resume_token(
        &mut self,
        token_hash: &[u8],
        name: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.inner.save_resume_token(token_hash, name, at_ms)
    }
    fn resume_token_owner(&mut self, token_hash: &[u8]) -> Result<Option<String>, StoreError> {
        self.inner.resume_token_owner(token_hash)
    }
    fn resume_tokens_of(&mut self, name: &str) -> Result<Vec<Vec<u8>>, StoreError> {
        self.inner.resume_tokens_of(name)
    }
    fn forget_resume_tokens(&mut self, saved_before_ms: i64) -> Result<u64, StoreError> {
        self.inner.forget_resume_tokens(saved_before_ms)
    }
    fn sanction(
        &mut self,
        name: &str,
        kind: SanctionKind,
        reason: Option<&str>,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.inner.sanction(name, kind, reason, at_ms)
    }
    fn lift_sanction(&mut self, name: &str, kind: SanctionKind) -> Result<bool, StoreError> {
        self.inner.lift_sanction(name, kind)
    }
    fn sanctions(&mut self, name: &str) -> Result<Sanctions, StoreError> {
        self.inner.sanctions(name)
    }
    fn log_admin_action(&mut self, entry: &AdminLogEntry) -> Result<(), StoreError> {
        self.inner.log_admin_action(entry)
    }
    fn admin_log(&mut self, limit: usize) -> Result<Vec<AdminLogEntry>, StoreError> {
        self.inner.admin_log(limit)
    }
}
