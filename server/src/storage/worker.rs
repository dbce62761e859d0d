//! The storage worker and its handle. The store is used only by one blocking task at a time, on
//! tokio's blocking pool, never on the reactor: async code holds a [`Storage`] (a cheap clone of
//! an `Arc`), queues a request and awaits its answer.
//!
//! Requests that queue up while the worker is busy are taken together as one batch: one
//! transaction and one commit for all of them, each request inside its own savepoint so a
//! failing one does not undo the others (a request alone in its batch needs none). Answers are
//! sent only after the batch is committed: when `record_move` returns `Ok`, the move is stored
//! as durably as the store promises ([`super::Durability`]). The queue needs no bound of its own:
//! every request has a caller awaiting its answer, so it never holds more requests than there
//! are tasks waiting on the database (tables, connections).
//!
//! Under load the worker gathers: after a busy batch ([`BUSY_BATCH`] requests or more: they are
//! arriving faster than a commit takes) it waits [`GATHER`] before taking the next batch, unless
//! a batch's worth is already queued, so that a commit holds many moves rather than two or
//! three. A commit costs about the same whatever it holds (SQLite's locks, the log's frames, the
//! file's check), so on boardgame.io's workload this cuts the commits several times over
//! (docs/measurements/floor.md, "Gathering the storage worker's batches"). A request that
//! arrives at an idle worker, or after a smaller batch, is served at once: a moderately loaded
//! server pays no wait (a wait after every batch of two cost CPU at 1,000 paced games).
//!
//! The blocking pool rather than a thread of its own because tokio knows about the pool: under a
//! paused test clock, time does not jump ahead while the database is working.

use super::fence::Fence;
use super::identity::{self, Claim, IdentityError};
use super::moderation;
use super::rating_update;
use super::ratings::RatingChange;
use super::records::{NewGame, Participant, StoredGame, StoredMove};
use super::sanctions::Sanctions;
use super::store::{HistoryQuery, Store, StoreError};
use kingme_shared::domain::{
    AdminLogEntry, GameId, GameResult, HistoryEntry, LeaderboardEntry, MAX_ADMIN_LOG_ENTRIES,
    MAX_HISTORY_ENTRIES, MAX_LEADERBOARD_ENTRIES,
};
use kingme_shared::{GameKind, Side};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;

/// Most requests committed together.
const MAX_BATCH: usize = 256;

/// How long the worker waits, after a busy batch, for more to queue.
const GATHER: Duration = Duration::from_millis(1);

/// A batch of this many requests or more is busy: requests arrive faster than commits end.
const BUSY_BATCH: usize = 4;

/// Queued requests from which the worker takes its next batch without waiting.
const GATHERED_ENOUGH: usize = 32;

/// One request: run against the store, then answered once the batch's fate is known.
trait Request: Send {
    fn run(&mut self, store: &mut dyn Store) -> bool;
    fn answer(self: Box<Self>, committed: Result<(), StoreError>);
}

/// A request computing a `T`, and where its answer goes.
struct Pending<F, T> {
    work: Option<F>,
    outcome: Option<Result<T, StoreError>>,
    reply: oneshot::Sender<Result<T, StoreError>>,
}

impl<F, T> Request for Pending<F, T>
where
    F: FnOnce(&mut dyn Store) -> Result<T, StoreError> + Send,
    T: Send,
{
    fn run(&mut self, store: &mut dyn Store) -> bool {
        let Some(work) = self.work.take() else {
            return false;
        };
        let outcome = work(store);
        let succeeded = outcome.is_ok();
        self.outcome = Some(outcome);
        succeeded
    }

    fn answer(self: Box<Self>, committed: Result<(), StoreError>) {
        let answer = match (committed, self.outcome) {
            (Err(err), _) => Err(err),
            (Ok(()), Some(outcome)) => outcome,
            (Ok(()), None) => Err(StoreError::Stopped),
        };
        // The caller may have gone away; then nobody needs the answer.
        let _ = self.reply.send(answer);
    }
}

/// The requests waiting, and whether a worker is draining them.
#[derive(Default)]
struct Queue {
    requests: VecDeque<Box<dyn Request>>,
    draining: bool,
}

struct Inner {
    queue: Mutex<Queue>,
    /// The wait after a busy batch ([`GATHER`]; longer in a test).
    gather: Duration,
    /// Batches served so far (shown by `Debug`, read by the tests).
    batches: AtomicUsize,
    /// `None` once closed: requests then fail as [`StoreError::Stopped`].
    store: Mutex<Option<Box<dyn Store>>>,
}

/// The handle to the storage worker. Cloning it is cheap.
#[derive(Clone)]
pub struct Storage {
    inner: Arc<Inner>,
    /// Set on a cluster node's table's handle: every request first checks the game's lease.
    fence: Option<Fence>,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("queued", &self.inner.queue.lock().requests.len())
            .field("batches", &self.inner.batches.load(Ordering::Relaxed))
            .field("fence", &self.fence)
            .finish()
    }
}

/// Answers the requests of one batch with `committed`.
fn answer_all(batch: Vec<Box<dyn Request>>, committed: &Result<(), StoreError>) {
    for request in batch {
        request.answer(committed.clone());
    }
}

/// Runs one batch in one transaction and answers its requests.
fn serve_batch(store: &mut dyn Store, mut batch: Vec<Box<dyn Request>>) {
    let began = std::time::Instant::now();
    if let Err(err) = store.begin_batch() {
        answer_all(batch, &Err(err));
        return;
    }
    let committed = match batch.as_mut_slice() {
        // Alone in its batch, a request needs no savepoint: if it fails, the batch is its own
        // and is rolled back whole (its answer is its own error).
        [request] => {
            if request.run(store) {
                store.commit_batch()
            } else {
                store.rollback_batch();
                answer_all(batch, &Ok(()));
                return;
            }
        }
        requests => run_each_in_a_savepoint(store, requests).and_then(|()| store.commit_batch()),
    };
    if committed.is_err() {
        store.rollback_batch();
    }
    crate::telemetry::batch_committed(began);
    answer_all(batch, &committed);
}

/// Runs several requests, each in its own savepoint so a failing one leaves the others.
fn run_each_in_a_savepoint(
    store: &mut dyn Store,
    requests: &mut [Box<dyn Request>],
) -> Result<(), StoreError> {
    for request in requests {
        store.begin_request()?;
        let keep = request.run(store);
        store.end_request(keep)?;
    }
    Ok(())
}

impl Inner {
    /// Serves batches until the queue is empty (on the blocking pool).
    fn drain(&self) {
        let mut store = self.store.lock();
        loop {
            let batch: Vec<Box<dyn Request>> = {
                let mut queue = self.queue.lock();
                if queue.requests.is_empty() {
                    queue.draining = false;
                    // A burst of requests grew the queue; keep only a batch's room.
                    queue.requests.shrink_to(MAX_BATCH);
                    return;
                }
                let take = queue.requests.len().min(MAX_BATCH);
                queue.requests.drain(..take).collect()
            };
            let busy = batch.len() >= BUSY_BATCH;
            self.batches.fetch_add(1, Ordering::Relaxed);
            match store.as_mut() {
                Some(store) => serve_batch(store.as_mut(), batch),
                None => answer_all(batch, &Err(StoreError::Stopped)),
            }
            if busy && self.queue.lock().requests.len() < GATHERED_ENOUGH {
                std::thread::sleep(self.gather);
            }
        }
    }
}

impl Storage {
    /// A handle serving requests against `store`.
    #[must_use]
    pub fn start(store: impl Store + 'static) -> Storage {
        Storage::gathering_for(store, GATHER)
    }

    /// A handle serving requests against `store` that waits `gather` after a busy batch
    /// ([`Storage::start`] waits [`GATHER`]).
    fn gathering_for(store: impl Store + 'static, gather: Duration) -> Storage {
        Storage {
            inner: Arc::new(Inner {
                queue: Mutex::new(Queue::default()),
                gather,
                batches: AtomicUsize::new(0),
                store: Mutex::new(Some(Box::new(store))),
            }),
            fence: None,
        }
    }

    /// This storage for the table of `fence.game` on a cluster node: each of its requests runs
    /// only if `fence.token` is still the game's latest lease (checked in the request's own
    /// transaction), else fails as [`StoreError::Fenced`] and writes nothing.
    #[must_use]
    pub fn fenced(&self, fence: Option<Fence>) -> Storage {
        Storage {
            inner: Arc::clone(&self.inner),
            fence,
        }
    }

    /// Takes the lease on `game` for this node: the game's next fencing token.
    pub async fn claim_lease(&self, game: GameId) -> Result<u64, StoreError> {
        self.run(move |store| store.claim_lease(game)).await
    }

    /// Runs `work` on the storage worker inside a batch, and returns its result once committed.
    /// Must be called within a tokio runtime.
    pub async fn run<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        F: FnOnce(&mut dyn Store) -> Result<T, StoreError> + Send + 'static,
        T: Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let fence = self.fence;
        let work = move |store: &mut dyn Store| {
            if let Some(fence) = fence {
                store.check_lease(fence.game, fence.token)?;
            }
            work(store)
        };
        let request = Box::new(Pending {
            work: Some(work),
            outcome: None,
            reply,
        });
        let start_worker = {
            let mut queue = self.inner.queue.lock();
            queue.requests.push_back(request);
            !std::mem::replace(&mut queue.draining, true)
        };
        if start_worker {
            let inner = Arc::clone(&self.inner);
            tokio::task::spawn_blocking(move || inner.drain());
        }
        answer.await.map_err(|_| StoreError::Stopped)?
    }

    /// Closes the database once the requests queued before are answered, and returns when it
    /// is closed (its file complete on disk): a server that has shut down leaves no write
    /// behind. Later requests fail as [`StoreError::Stopped`].
    pub async fn close(&self) {
        let inner = Arc::clone(&self.inner);
        let closing = tokio::task::spawn_blocking(move || {
            // Waits for a running batch (it holds the lock), then drops the store here.
            let store = inner.store.lock().take();
            drop(store);
        });
        if let Err(err) = closing.await {
            tracing::error!(%err, "closing the database failed");
        }
    }

    /// Checks that the database is still the one opened (see [`Store::verify`]).
    pub async fn verify(&self) -> Result<(), StoreError> {
        self.run(|store| store.verify()).await
    }

    /// Asks the database something cheap (the server's id), after checking it is still the one
    /// opened: whether it answers now (the health check `/readyz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.run(|store| {
            store.verify()?;
            store.server_id().map(drop)
        })
        .await
    }

    /// Stores a new game.
    pub async fn create_game(&self, game: NewGame) -> Result<(), StoreError> {
        self.run(move |store| store.create_game(&game)).await
    }

    /// Records who now sits on a side.
    pub async fn set_seat(
        &self,
        game: GameId,
        side: Side,
        who: Participant,
    ) -> Result<(), StoreError> {
        self.run(move |store| store.set_seat(game, side, &who))
            .await
    }

    /// Stores an accepted move; when this returns `Ok` the move is durable and may be announced.
    pub async fn record_move(&self, game: GameId, mv: StoredMove) -> Result<(), StoreError> {
        self.run(move |store| store.record_move(game, &mv)).await
    }

    /// Forgets the moves after the first `plies_kept`.
    pub async fn take_back(&self, game: GameId, plies_kept: u32) -> Result<(), StoreError> {
        self.run(move |store| store.take_back(game, plies_kept))
            .await
    }

    /// Records the end of a game and, if it was rated, updates both sides' ratings in the same
    /// transaction. Returns the rating changes of a rated game.
    pub async fn finish_game(
        &self,
        game: GameId,
        result: GameResult,
        finished_at_ms: i64,
    ) -> Result<Option<[RatingChange; 2]>, StoreError> {
        self.run(move |store| {
            let finished = store.finish_game(game, &result, finished_at_ms)?;
            rating_update::rate_game(
                store,
                finished.game.spec.kind(),
                &finished.game.seats,
                finished.game.rated,
                finished.plies,
                &result,
            )
        })
        .await
    }

    /// One stored game with its moves.
    pub async fn game(&self, id: GameId) -> Result<Option<StoredGame>, StoreError> {
        self.run(move |store| store.game(id)).await
    }

    /// Closes every game that never started as aborted, in one statement; returns how many.
    pub async fn abort_open_games(&self, finished_at_ms: i64) -> Result<usize, StoreError> {
        self.run(move |store| store.abort_open_games(finished_at_ms))
            .await
    }

    /// Every game without a result: what a restarted server resumes.
    pub async fn unfinished_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.run(|store| store.unfinished_games()).await
    }

    /// `count` fresh game ids, never handed out before (by this server or another on the same
    /// database).
    pub async fn reserve_game_ids(&self, count: u32) -> Result<Vec<GameId>, StoreError> {
        self.run(move |store| store.reserve_game_ids(count)).await
    }

    /// Gives back the unused ids `first..=last` if nothing was reserved after them
    /// ([`Store::release_game_ids`]); whether they were taken back.
    pub async fn release_game_ids(&self, first: GameId, last: GameId) -> Result<bool, StoreError> {
        self.run(move |store| store.release_game_ids(first, last))
            .await
    }

    /// Finished games, newest first, at most [`MAX_HISTORY_ENTRIES`] (also when the query's
    /// limit is 0).
    pub async fn history(&self, mut query: HistoryQuery) -> Result<Vec<HistoryEntry>, StoreError> {
        if query.limit == 0 || query.limit > MAX_HISTORY_ENTRIES {
            query.limit = MAX_HISTORY_ENTRIES;
        }
        self.run(move |store| store.history(&query)).await
    }

    /// The best ratings, at most [`MAX_LEADERBOARD_ENTRIES`].
    pub async fn leaderboard(
        &self,
        kind: Option<GameKind>,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        self.run(move |store| store.leaderboard(kind, MAX_LEADERBOARD_ENTRIES))
            .await
    }

    /// Lets the person `name` in with `claim` unless the name is banned, registering it on
    /// first use (see [`identity::admit`]): one request, so a person's hello
    /// waits for the database once. The name's sanctions come back; a banned name is not let
    /// in, and a key is not bound to it.
    pub async fn admit(
        &self,
        name: String,
        claim: Claim,
        now_ms: i64,
    ) -> Result<Sanctions, IdentityError> {
        self.run(move |store| Ok(identity::admit(store, &name, &claim, now_ms)))
            .await?
    }

    /// The server's id, stable for the database's life.
    pub async fn server_id(&self) -> Result<String, StoreError> {
        self.run(|store| store.server_id()).await
    }

    /// Lets the guest `name` in unless a person holds the name or it is banned, and, if it is
    /// let in, remembers its resume token (only its hash is stored): one request, so a new
    /// guest's hello waits for the database once. The name's sanctions come back; a banned
    /// guest is not let in, and its token is not stored.
    pub async fn admit_guest(
        &self,
        name: String,
        token: &str,
        now_ms: i64,
    ) -> Result<Sanctions, IdentityError> {
        let token_hash = identity::hash_secret(token);
        self.run(move |store| {
            let admitted = identity::admit(store, &name, &Claim::Guest, now_ms);
            if let Ok(Sanctions { ban: None, .. }) = admitted {
                store.save_resume_token(&token_hash, &name, now_ms)?;
            }
            Ok(admitted)
        })
        .await?
    }

    /// The hashes of every resume token issued to a name.
    pub async fn resume_tokens_of(&self, name: String) -> Result<Vec<Vec<u8>>, StoreError> {
        self.run(move |store| store.resume_tokens_of(&name)).await
    }

    /// Forgets the resume tokens saved before `saved_before_ms`, except those of guests in a
    /// game without a result; returns how many.
    pub async fn forget_resume_tokens(&self, saved_before_ms: i64) -> Result<u64, StoreError> {
        self.run(move |store| store.forget_resume_tokens(saved_before_ms))
            .await
    }

    /// The name a resume token belongs to.
    pub async fn resume_token_owner(&self, token: &str) -> Result<Option<String>, StoreError> {
        let hash = identity::hash_secret(token);
        self.run(move |store| store.resume_token_owner(&hash)).await
    }

    /// Carries out an admin's action on the database and logs it, in one transaction (see
    /// [`moderation::record`]): whether it changed anything.
    pub async fn record_admin_action(&self, entry: AdminLogEntry) -> Result<bool, StoreError> {
        self.run(move |store| moderation::record(store, &entry))
            .await
    }

    /// The sanctions on a name (read at its sign-in and at each chat line, so that every server
    /// on a shared database holds them at once).
    pub async fn sanctions(&self, name: String) -> Result<Sanctions, StoreError> {
        self.run(move |store| store.sanctions(&name)).await
    }

    /// The admin log's latest entries, newest first, at most [`MAX_ADMIN_LOG_ENTRIES`].
    pub async fn admin_log(&self) -> Result<Vec<AdminLogEntry>, StoreError> {
        self.run(|store| store.admin_log(MAX_ADMIN_LOG_ENTRIES))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::SqliteStore;
    use crate::storage::ratings::{Rated, Rating};
    use kingme_shared::ai::Level;
    use kingme_shared::domain::{AdminAction, EndReason, TimeControl};
    use kingme_shared::{Side, WinReason};
    use std::path::Path;

    fn start() -> Storage {
        Storage::start(SqliteStore::open(Path::new(":memory:"), 0).unwrap())
    }

    fn game(id: u64, seats: [Participant; 2]) -> NewGame {
        NewGame {
            id: GameId(id),
            spec: GameKind::TicTacToe.into(),
            time_control: TimeControl::Unlimited,
            rated: true,
            start_position: None,
            seats,
            created_at_ms: 0,
        }
    }

    fn move_at(ply: u32, text: &str) -> StoredMove {
        StoredMove {
            ply,
            text: text.to_owned(),
            clocks_ms: [None, None],
            played_at_ms: 0,
        }
    }

    /// Creates a rated game and plays one move each, so that its end counts for ratings.
    async fn started(storage: &Storage, id: u64, seats: [Participant; 2]) {
        storage.create_game(game(id, seats)).await.unwrap();
        for (ply, text) in [(1, "5"), (2, "1")] {
            storage
                .record_move(GameId(id), move_at(ply, text))
                .await
                .unwrap();
        }
    }

    #[tokio::test]
    async fn a_fenced_storage_writes_only_under_the_latest_lease() {
        let storage = start();
        let id = GameId(1);
        storage
            .create_game(game(
                1,
                [Participant::Person("ada".into()), Participant::Empty],
            ))
            .await
            .unwrap();
        let first = storage.claim_lease(id).await.unwrap();
        let old_owner = storage.fenced(Some(Fence {
            game: id,
            token: first,
        }));
        old_owner.record_move(id, move_at(1, "b2")).await.unwrap();
        let second = storage.claim_lease(id).await.unwrap();
        assert_eq!(
            old_owner.record_move(id, move_at(2, "a1")).await,
            Err(StoreError::Fenced {
                game: id,
                token: first
            })
        );
        assert!(matches!(
            old_owner
                .finish_game(
                    id,
                    GameResult {
                        winner: None,
                        reason: EndReason::Aborted
                    },
                    5
                )
                .await,
            Err(StoreError::Fenced { .. })
        ));
        let new_owner = storage.fenced(Some(Fence {
            game: id,
            token: second,
        }));
        new_owner.record_move(id, move_at(2, "a1")).await.unwrap();
        let stored = storage.game(id).await.unwrap().unwrap();
        assert_eq!(stored.moves.len(), 2);
        assert_eq!(stored.result, None);
    }

    /// Queues a request that does nothing, on a task of its own; the caller yields to let it queue.
    fn queued(storage: &Storage) -> tokio::task::JoinHandle<Result<(), StoreError>> {
        let storage = storage.clone();
        tokio::spawn(async move { storage.run(|_| Ok(())).await })
    }

    #[tokio::test]
    async fn after_a_busy_batch_the_worker_gathers_what_comes_next() {
        let gather = Duration::from_millis(200);
        let storage =
            Storage::gathering_for(SqliteStore::open(Path::new(":memory:"), 0).unwrap(), gather);
        // Hold the worker in a request, queue a busy batch's worth behind it: the next batch.
        let (started, has_started) = std::sync::mpsc::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let holding = {
            let storage = storage.clone();
            tokio::spawn(async move {
                storage
                    .run(move |_| {
                        started.send(()).unwrap();
                        released.recv().unwrap();
                        Ok(())
                    })
                    .await
            })
        };
        tokio::task::yield_now().await;
        has_started.recv().unwrap();
        let busy: Vec<_> = (0..BUSY_BATCH).map(|_| queued(&storage)).collect();
        tokio::task::yield_now().await;
        release.send(()).unwrap();
        holding.await.unwrap().unwrap();
        for request in busy {
            request.await.unwrap().unwrap();
        }
        let before = storage.inner.batches.load(Ordering::Relaxed);
        // One request now, two more a moment later: within the wait, so one batch for all.
        let first = queued(&storage);
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        let later = [queued(&storage), queued(&storage)];
        tokio::task::yield_now().await;
        first.await.unwrap().unwrap();
        for request in later {
            request.await.unwrap().unwrap();
        }
        assert_eq!(
            storage.inner.batches.load(Ordering::Relaxed),
            before + 1,
            "the three requests after a busy batch were not gathered into one"
        );
        // A request alone in its batch is not followed by a wait: the next one is served at once.
        storage.run(|_| Ok(())).await.unwrap();
        let alone = std::time::Instant::now();
        storage.run(|_| Ok(())).await.unwrap();
        assert!(alone.elapsed() < gather, "a lone request was kept waiting");
    }

    #[tokio::test]
    async fn a_closed_storage_answers_every_later_request_as_stopped() {
        let storage = start();
        storage
            .create_game(game(1, [Participant::Empty, Participant::Empty]))
            .await
            .unwrap();
        let other_handle = storage.clone();
        storage.close().await;
        assert!(matches!(
            other_handle.game(GameId(1)).await,
            Err(StoreError::Stopped)
        ));
    }

    #[tokio::test]
    async fn a_failing_request_in_a_batch_leaves_the_others_stored() {
        let storage = start();
        storage
            .create_game(game(1, [Participant::Empty, Participant::Empty]))
            .await
            .unwrap();
        // Sent together, so the storage worker takes them as one batch.
        let (good, bad, after) = tokio::join!(
            storage.record_move(GameId(1), move_at(1, "5")),
            storage.record_move(GameId(2), move_at(1, "5")),
            storage.set_seat(GameId(1), Side::First, Participant::Guest("g".into())),
        );
        good.unwrap();
        assert!(matches!(bad, Err(StoreError::NotFound(_))), "{bad:?}");
        after.unwrap();
        let stored = storage.game(GameId(1)).await.unwrap().unwrap();
        assert_eq!(stored.moves.len(), 1);
        assert_eq!(stored.game.seats[0], Participant::Guest("g".into()));
    }

    #[tokio::test]
    async fn a_failing_request_alone_is_undone_and_the_next_batch_goes_on() {
        let storage = start();
        storage
            .create_game(game(1, [Participant::Empty, Participant::Empty]))
            .await
            .unwrap();
        // A move out of sequence fails after nothing, a move for a game not stored after its
        // check: either way its batch is rolled back and the store is ready for the next one.
        let early = storage.record_move(GameId(1), move_at(2, "5")).await;
        assert!(
            matches!(early, Err(StoreError::OutOfSequence { .. })),
            "{early:?}"
        );
        storage
            .record_move(GameId(1), move_at(1, "5"))
            .await
            .unwrap();
        let twice = storage.record_move(GameId(1), move_at(1, "6")).await;
        assert!(
            matches!(twice, Err(StoreError::OutOfSequence { .. })),
            "{twice:?}"
        );
        // A request that wrote before failing leaves nothing behind.
        let half = storage
            .run(|store| {
                store.record_move(GameId(1), &move_at(2, "9"))?;
                Err::<(), _>(StoreError::NotFound("on purpose".into()))
            })
            .await;
        assert!(matches!(half, Err(StoreError::NotFound(_))), "{half:?}");
        storage
            .record_move(GameId(1), move_at(2, "1"))
            .await
            .unwrap();
        let stored = storage.game(GameId(1)).await.unwrap().unwrap();
        let texts: Vec<&str> = stored.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["5", "1"]);
    }

    #[tokio::test]
    async fn a_rated_game_moves_both_ratings_and_a_guest_game_none() {
        let storage = start();
        let alice = Participant::Person("alice".into());
        let bot = Participant::Bot(Level::Beginner);
        // The bot level has played before and stands at 1500, as alice does.
        storage
            .run(|store| {
                let even = Rating::default();
                store.set_rating(GameKind::TicTacToe, &Rated::Bot(Level::Beginner), &even)
            })
            .await
            .unwrap();
        started(&storage, 1, [alice.clone(), bot.clone()]).await;
        let win = GameResult {
            winner: Some(Side::First),
            reason: EndReason::Win(WinReason::ThreeInARow),
        };
        let changes = storage
            .finish_game(GameId(1), win, 5)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(changes[0].who, Rated::Person("alice".into()));
        assert_eq!((changes[0].before, changes[0].after), (1500.0, 1516.0));
        assert_eq!((changes[1].before, changes[1].after), (1500.0, 1484.0));
        // Alice (1516) beats the bot (1484) again: expected 1 / (1 + 10^(-32/400)) = 0.545922,
        // so she gains 32 * 0.454078 = 14.53.
        started(&storage, 2, [alice.clone(), bot.clone()]).await;
        let changes = storage
            .finish_game(GameId(2), win, 6)
            .await
            .unwrap()
            .unwrap();
        assert!((changes[0].after - 1530.53).abs() < 0.01, "{changes:?}");
        started(&storage, 3, [Participant::Guest("g".into()), bot]).await;
        assert_eq!(storage.finish_game(GameId(3), win, 7).await.unwrap(), None);
        let board = storage
            .leaderboard(Some(GameKind::TicTacToe))
            .await
            .unwrap();
        let lines: Vec<(&str, i32, u32)> = board
            .iter()
            .map(|entry| (entry.player.as_str(), entry.rating, entry.games))
            .collect();
        assert_eq!(lines, [("alice", 1531, 2), ("beginner", 1469, 2)]);
        let history = storage.history(HistoryQuery::default()).await.unwrap();
        assert_eq!(history.len(), 3);
    }

    #[tokio::test]
    async fn a_rated_game_ended_before_both_sides_moved_moves_no_rating() {
        let storage = start();
        let alice = Participant::Person("alice".into());
        let bob = Participant::Person("bob".into());
        let resigned = GameResult {
            winner: Some(Side::Second),
            reason: EndReason::Resignation,
        };
        // Resigned at once, then after alice's first move only.
        storage
            .create_game(game(1, [alice.clone(), bob.clone()]))
            .await
            .unwrap();
        assert_eq!(storage.finish_game(GameId(1), resigned, 5).await, Ok(None));
        storage
            .create_game(game(2, [alice.clone(), bob.clone()]))
            .await
            .unwrap();
        storage
            .record_move(GameId(2), move_at(1, "5"))
            .await
            .unwrap();
        assert_eq!(storage.finish_game(GameId(2), resigned, 6).await, Ok(None));
        let board = storage.leaderboard(Some(GameKind::TicTacToe)).await;
        assert_eq!(board.map(|b| b.len()), Ok(0), "nobody was rated");
        // Once both have moved, the same resignation counts.
        started(&storage, 3, [alice, bob]).await;
        let changes = storage.finish_game(GameId(3), resigned, 7).await.unwrap();
        assert!(changes.is_some(), "both moved: rated");
    }

    #[tokio::test]
    async fn a_bot_level_enters_the_pool_at_its_measured_rating() {
        let storage = start();
        let alice = Participant::Person("alice".into());
        let expert = Participant::Bot(Level::Expert);
        started(&storage, 1, [alice, expert]).await;
        let win = GameResult {
            winner: Some(Side::Second),
            reason: EndReason::Win(WinReason::ThreeInARow),
        };
        let changes = storage
            .finish_game(GameId(1), win, 5)
            .await
            .unwrap()
            .unwrap();
        let measured =
            kingme_shared::ai::ladder::measured_rating(GameKind::TicTacToe, Level::Expert)
                .expect("the expert is on the ladder");
        assert_eq!(changes[0].before, 1500.0, "a person starts at 1500");
        assert_eq!(changes[1].before, f64::from(measured));
        assert!(changes[1].after > changes[1].before, "the winner gains");
    }

    #[tokio::test]
    async fn identities_and_resume_tokens_go_through_the_thread() {
        let storage = start();
        let claim = |seed: u8| Claim::Person {
            public_key: kingme_shared::identity::SigningKey::from_bytes(&[seed; 32])
                .verifying_key()
                .to_bytes(),
            legacy_secret: None,
        };
        assert_eq!(
            storage.admit("ann".into(), claim(1), 1).await,
            Ok(Sanctions::default())
        );
        assert!(matches!(
            storage.admit("ann".into(), claim(2), 2).await,
            Err(IdentityError::OtherKey { .. })
        ));
        assert_eq!(
            storage.admit("ann".into(), claim(1), 3).await,
            Ok(Sanctions::default())
        );
        let id = storage.server_id().await.unwrap();
        assert_eq!(id.len(), 32);
        assert_eq!(storage.server_id().await.unwrap(), id);
        // A guest is let in with its token stored; a guest under a person's name is refused,
        // and its token is not stored.
        assert_eq!(
            storage.admit_guest("gus".into(), "token-1", 4).await,
            Ok(Sanctions::default())
        );
        assert!(matches!(
            storage.admit_guest("ann".into(), "token-2", 5).await,
            Err(IdentityError::Registered(_))
        ));
        assert_eq!(
            storage
                .resume_token_owner("token-1")
                .await
                .unwrap()
                .as_deref(),
            Some("gus")
        );
        assert_eq!(storage.resume_token_owner("token-2").await.unwrap(), None);
        // A banned guest name: its sanctions come back with the ban, and no token is stored.
        let ban = AdminLogEntry {
            at_ms: 6,
            admin: "root".into(),
            fingerprint: "f".into(),
            action: AdminAction::Ban {
                name: "gus".into(),
                reason: Some("flooding".into()),
            },
        };
        assert_eq!(storage.record_admin_action(ban).await, Ok(true));
        let sanctions = storage.admit_guest("gus".into(), "token-3", 7).await;
        assert_eq!(sanctions.unwrap().ban, Some(Some("flooding".to_owned())));
        assert_eq!(storage.resume_token_owner("token-3").await.unwrap(), None);
    }
}
