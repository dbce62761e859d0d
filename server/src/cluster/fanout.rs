//! The running node's side of a game's messages for members at other nodes: each goes out once
//! on the game's channel (`kingme:game:ID`), whatever the number of members elsewhere, and every
//! node following the game hands it to its own members ([`super::following`]).
//!
//! Tables queue their messages here without waiting (a bounded queue: a table never waits on
//! another node). One task publishes them in queue order, each batch in one pipeline, so a
//! game's messages arrive in the order its table sent them, on one channel. A message that is
//! lost here (the queue was full because Redis did not keep up, or its pipeline failed because
//! Redis was away) marks its game: once publishing works again (tried every [`RETRY`] while a
//! game is marked, even if no other message comes), a [`Envelope::Resync`] goes out on the
//! game's channel, after whatever was lost, and each following node asks for the game again for
//! its members there, so they get its whole state from its table.

use super::envelope::{Envelope, Who};
use super::keys;
use super::link::Link;
use super::wire;
use crate::game::remote::{RemoteMail, RemoteMembers};
use kingme_shared::protocol::GameId;
use parking_lot::Mutex;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

/// Messages waiting to be published (a burst of many games' moves fits).
const QUEUE: usize = 16_384;

/// The most messages published in one pipeline.
const BATCH: usize = 256;

/// How often publishing is tried again while some game's messages were lost and nothing else
/// is queued.
pub const RETRY: Duration = Duration::from_millis(500);

/// The games some of whose messages were lost since their followers were last told so.
type Lost = Arc<Mutex<HashSet<GameId>>>;

/// The queue of game messages for other nodes, and its publishing task.
#[derive(Debug)]
pub struct Fanout {
    queue: mpsc::Sender<(GameId, Envelope)>,
    /// Whether a message was dropped since the last one got through (logged once).
    dropping: AtomicBool,
    /// Shared with the publishing task, which tells these games' followers to ask again.
    lost: Lost,
}

impl Fanout {
    /// Starts publishing through `link` until `stop`.
    #[must_use]
    pub fn start(link: Link, stop: CancellationToken) -> Arc<Fanout> {
        let (queue, receiver) = mpsc::channel(QUEUE);
        let lost = Lost::default();
        tokio::spawn(publish(link, receiver, Arc::clone(&lost), stop));
        Arc::new(Fanout {
            queue,
            dropping: AtomicBool::new(false),
            lost,
        })
    }
}

impl RemoteMembers for Fanout {
    fn send(&self, game: GameId, mail: RemoteMail<'_>) {
        let envelope = match mail {
            RemoteMail::Everyone(message) => Envelope::Event {
                game,
                to: None,
                member: true,
                message,
            },
            RemoteMail::One {
                to,
                member,
                message,
            } => {
                let Some(to) = Who::of(to) else { return };
                Envelope::Event {
                    game,
                    to: Some(to),
                    member,
                    message,
                }
            }
        };
        match self.queue.try_send((game, envelope)) {
            Ok(()) => {
                if self.dropping.swap(false, Ordering::Relaxed) {
                    tracing::warn!("game messages for other nodes go out again");
                }
            }
            Err(TrySendError::Full(_)) => {
                self.lost.lock().insert(game);
                if !self.dropping.swap(true, Ordering::Relaxed) {
                    tracing::error!(
                        "Redis does not keep up with the games' messages for other nodes; \
                         dropping them (players there are sent the games' state again once \
                         it does)"
                    );
                }
            }
            Err(TrySendError::Closed(_)) => {}
        }
    }
}

/// Publishes the queued messages in order, a pipeline per batch, until `stop`; after each
/// batch, the word that the `lost` games' messages were lost (those of a failed pipeline become
/// lost games themselves).
async fn publish(
    link: Link,
    mut queue: mpsc::Receiver<(GameId, Envelope)>,
    lost: Lost,
    stop: CancellationToken,
) {
    let mut redis = link.connection();
    loop {
        let retry = !lost.lock().is_empty();
        let mut batch = Vec::new();
        tokio::select! {
            () = stop.cancelled() => return,
            first = queue.recv() => match first {
                Some(first) => batch.push(first),
                None => return,
            },
            () = tokio::time::sleep(RETRY), if retry => {}
        }
        while !batch.is_empty() && batch.len() < BATCH {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        // Taken after the batch, so the word follows whatever of these games was lost.
        let resync: Vec<GameId> = lost.lock().drain().collect();
        let mut pipe = redis::pipe();
        let told: Vec<(GameId, Envelope)> = resync
            .iter()
            .map(|game| (*game, Envelope::Resync { game: *game }))
            .collect();
        if batch.is_empty() && told.is_empty() {
            continue;
        }
        for (game, envelope) in batch.iter().chain(&told) {
            match wire::encode(envelope) {
                Ok(payload) => {
                    pipe.cmd("PUBLISH")
                        .arg(keys::game(*game))
                        .arg(payload)
                        .ignore();
                }
                // Not marked lost: its state, asked for again, would not fit either.
                Err(err) => tracing::error!(%err, game = %game, "a game message is not sent"),
            }
        }
        // A failure is logged by the link (once per outage); the players elsewhere are sent
        // these games' state again once publishing works.
        if link
            .noted(pipe.query_async::<()>(&mut redis).await)
            .is_err()
        {
            lost.lock()
                .extend(batch.iter().map(|(game, _)| *game).chain(resync));
        } else if !resync.is_empty() {
            tracing::info!(
                games = resync.len(),
                "some games' messages for other nodes were lost; told those nodes to ask for \
                 the games again"
            );
        }
    }
}
