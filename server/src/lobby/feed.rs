//! The lobby's feed: the game list pushed to the clients that show the lobby (they asked with
//! `WatchLobby { on: true }`), so a new game, a filled seat or a finished game appears without
//! polling. Changes are coalesced: at most one list per [`FEED_INTERVAL`], built once and
//! shared by every watcher, so a busy server does not flood its lobby or build the list per
//! client. Nobody watching, nothing is built.

use crate::game::TableRegistry;
use kingme_shared::protocol::GameSummary;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The shortest time between two lists pushed to a watcher.
pub const FEED_INTERVAL: Duration = Duration::from_millis(250);

/// Where watchers receive the latest list.
pub type GameListFeed = watch::Receiver<Arc<Vec<GameSummary>>>;

/// Starts the feed on `tasks` until `stop`; returns the receiver watchers clone.
pub fn spawn(
    registry: Arc<TableRegistry>,
    stop: CancellationToken,
    tasks: &TaskTracker,
) -> GameListFeed {
    let (lists, feed) = watch::channel(Arc::new(Vec::new()));
    let mut version = registry.watch();
    tasks.spawn(async move {
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                changed = version.changed() => if changed.is_err() { return },
            }
            // Whatever else changes in the next moment goes out with this change.
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(FEED_INTERVAL) => {}
            }
            version.borrow_and_update();
            // One receiver is the lobby's own, kept for watchers to clone.
            if lists.receiver_count() > 1 {
                lists.send_replace(Arc::new(registry.list()));
            }
        }
    });
    feed
}

/// Waits for the next list on `feed`, or forever when the client does not watch the lobby.
pub async fn next_list(feed: &mut Option<GameListFeed>) -> Option<Arc<Vec<GameSummary>>> {
    match feed {
        Some(feed) => match feed.changed().await {
            Ok(()) => Some(Arc::clone(&feed.borrow_and_update())),
            Err(_) => std::future::pending().await,
        },
        None => std::future::pending().await,
    }
}
