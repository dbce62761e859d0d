//! The checkpointer: copies a database file's write-ahead log back into the file on a thread of
//! its own, through a connection of its own, so the storage worker never does it.
//!
//! In WAL mode SQLite checkpoints by default inside the commit that takes the log past 1,000
//! pages: that commit then copies the pages and fsyncs the file, a few milliseconds during which
//! every move queued behind it waits (it was most of the relay's p99 with a database file). Here
//! the writer's automatic checkpoint only backs this thread up (at [`WRITER_BACKSTOP_PAGES`],
//! should the thread fall behind), and the thread runs a `PASSIVE` checkpoint every
//! [`EVERY`]: it copies what no reader needs and never waits for, or blocks, the writer. SQLite
//! itself then starts the log again from its beginning at the next commit once all of it is
//! copied, so the log file stays small while the writer has pauses. Under a steady stream of
//! commits (thousands of moves a second) a passive checkpoint never catches up, since frames
//! come while it copies: the log then grows to the backstop and the writer checkpoints in its
//! own commit after all (docs/measurements/floor.md, "The storing floor"). Durability is
//! unchanged: a commit is in the log (synced or not, per [`super::Durability`]) before it
//! returns, whoever checkpoints it later.

use super::store::StoreError;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the log is checkpointed.
pub const EVERY: Duration = Duration::from_millis(250);

/// The writer's own automatic checkpoint, kept as a backstop (pages; about 40 MB of log).
pub const WRITER_BACKSTOP_PAGES: i64 = 10_000;

/// What one checkpoint did (SQLite's `wal_checkpoint` answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checkpoint {
    /// Pages in the log.
    pub log_pages: i64,
    /// Pages of the log now copied into the database file.
    pub copied_pages: i64,
}

enum Order {
    /// Checkpoint now and answer (for tests).
    #[cfg(test)]
    Now(SyncSender<Result<Checkpoint, StoreError>>),
    Stop,
}

/// The checkpointing thread of one database file; stopped (and joined) when dropped.
#[derive(Debug)]
pub struct Checkpointer {
    orders: SyncSender<Order>,
    thread: Option<JoinHandle<()>>,
}

fn database(err: rusqlite::Error) -> StoreError {
    StoreError::Database(err.to_string())
}

/// Runs one passive checkpoint on `connection`.
fn checkpoint(connection: &Connection) -> Result<Checkpoint, StoreError> {
    connection
        .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
            Ok(Checkpoint {
                log_pages: row.get(1)?,
                copied_pages: row.get(2)?,
            })
        })
        .map_err(database)
}

impl Checkpointer {
    /// Starts checkpointing the database file at `path`, which the store has opened in WAL
    /// mode (the file must exist: this never creates one).
    pub fn start(path: &Path) -> Result<Checkpointer, StoreError> {
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|err| {
            StoreError::Database(format!(
                "cannot open {} to checkpoint it: {err}",
                path.display()
            ))
        })?;
        let (orders, inbox) = mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("kingme-checkpoint".to_owned())
            .spawn(move || {
                let mut failing = false;
                loop {
                    let done = match inbox.recv_timeout(EVERY) {
                        #[cfg(test)]
                        Ok(Order::Now(reply)) => {
                            let _ = reply.send(checkpoint(&connection));
                            continue;
                        }
                        Ok(Order::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                        Err(RecvTimeoutError::Timeout) => checkpoint(&connection),
                    };
                    match done {
                        Ok(_) => failing = false,
                        Err(err) if !failing => {
                            // The writer's backstop still checkpoints; said once per outage.
                            tracing::warn!(%err, "cannot checkpoint the database; retrying");
                            failing = true;
                        }
                        Err(_) => {}
                    }
                }
            })
            .map_err(|err| {
                StoreError::Database(format!("cannot start the checkpointing thread: {err}"))
            })?;
        Ok(Checkpointer {
            orders,
            thread: Some(thread),
        })
    }

    /// Checkpoints now, on the thread, and says what it did.
    #[cfg(test)]
    pub fn now(&self) -> Result<Checkpoint, StoreError> {
        let (reply, answer) = mpsc::sync_channel(1);
        let stopped = || StoreError::Database("the checkpointing thread has stopped".to_owned());
        self.orders.send(Order::Now(reply)).map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        let _ = self.orders.send(Order::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
