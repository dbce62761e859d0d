//! What a table is given, and nothing more: the database, the bots' search slots, the registry
//! it enters and leaves, its timings, the shutdown signal and the tracker that waits for it, and
//! on a cluster node where its lease comes from, where its messages for members at other nodes
//! go and who seats its members at another node when the game moves there.
//! Built once by the server and shared by every table.

use super::bot::SearchPool;
use super::handover::Handover;
use super::ownership::Ownership;
use super::registry::TableRegistry;
use super::remote::RemoteMembers;
use crate::config::Config;
use crate::storage::Storage;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The timings a table runs on (from the server's [`Config`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableTiming {
    /// How long an absent player keeps its seat.
    pub grace: Duration,
    /// How long a finished game stays open for a rematch.
    pub finished_linger: Duration,
    /// A bot's time per move in a game without clocks.
    pub bot_think_time: Duration,
    /// The pause before each move of a game between bots that a person may watch.
    pub bot_move_delay: Duration,
}

impl TableTiming {
    /// The timings `config` sets.
    #[must_use]
    pub fn of(config: &Config) -> TableTiming {
        TableTiming {
            grace: config.grace,
            finished_linger: config.finished_linger,
            bot_think_time: config.bot_think_time,
            bot_move_delay: config.bot_move_delay,
        }
    }
}

/// Everything a table uses from the server.
#[derive(Debug)]
pub struct TableContext {
    pub storage: Storage,
    pub bots: SearchPool,
    pub registry: Arc<TableRegistry>,
    pub timing: TableTiming,
    /// Cancelled at shutdown: tables stop without ending their games.
    pub games: CancellationToken,
    /// Every table task, so the shutdown can wait for them.
    pub tasks: TaskTracker,
    /// A cluster node's leases: each new table takes one before its first write. `None` for a
    /// lone server.
    pub ownership: Option<Arc<dyn Ownership>>,
    /// A cluster node's fan-out to members connected at other nodes. `None` for a lone server.
    pub remote: Option<Arc<dyn RemoteMembers>>,
    /// A cluster node's relay, which seats the members of a game whose lease this node lost
    /// again at the game's new node. `None` for a lone server.
    pub handover: Option<Arc<dyn Handover>>,
}
