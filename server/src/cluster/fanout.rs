//! The running node's side of a game's messages for members at other nodes: each goes out once
//! on the game's channel (`kingme:game:ID`), whatever the number of members elsewhere, and every
//! node following the game hands it to its own members ([`super::following`]).
//!
//! Tables queue their messages here without waiting (a bounded queue; when Redis is too slow to
//! keep up, messages are dropped and the drop is logged once, and a player elsewhere catches up
//! with the full state when it asks again: a table never waits on another node). One task
//! publishes them in queue order, each batch in one pipeline, so a game's messages arrive in the
//! order its table sent them, on one channel.

use super::envelope::{Envelope, Who};
use super::keys;
use super::link::Link;
use crate::game::remote::{RemoteMail, RemoteMembers};
use kingme_shared::protocol::GameId;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

/// Messages waiting to be published (a burst of many games' moves fits).
const QUEUE: usize = 16_384;

/// The most messages published in one pipeline.
const BATCH: usize = 256;

/// The queue of game messages for other nodes, and its publishing task.
#[derive(Debug)]
pub struct Fanout {
    queue: mpsc::Sender<(GameId, Envelope)>,
    /// Whether a message was dropped since the last one got through (logged once).
    dropping: AtomicBool,
}

impl Fanout {
    /// Starts publishing through `link` until `stop`.
    #[must_use]
    pub fn start(link: Link, stop: CancellationToken) -> Arc<Fanout> {
        let (queue, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(publish(link, receiver, stop));
        Arc::new(Fanout {
            queue,
            dropping: AtomicBool::new(false),
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
                if !self.dropping.swap(true, Ordering::Relaxed) {
                    tracing::error!(
                        "Redis does not keep up with the games' messages for other nodes; \
                         dropping them (players there catch up when they ask again)"
                    );
                }
            }
            Err(TrySendError::Closed(_)) => {}
        }
    }
}

/// Publishes the queued messages in order, a pipeline per batch, until `stop`.
async fn publish(
    link: Link,
    mut queue: mpsc::Receiver<(GameId, Envelope)>,
    stop: CancellationToken,
) {
    let mut redis = link.connection();
    loop {
        let first = tokio::select! {
            () = stop.cancelled() => return,
            first = queue.recv() => first,
        };
        let Some(first) = first else { return };
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let mut pipe = redis::pipe();
        for (game, envelope) in &batch {
            match serde_json::to_string(envelope) {
                Ok(payload) => {
                    pipe.cmd("PUBLISH")
                        .arg(keys::game(*game))
                        .arg(payload)
                        .ignore();
                }
                Err(err) => tracing::error!(%err, game = %game, "a game message does not encode"),
            }
        }
        // A failure is logged by the link (once per outage); those messages are lost to the
        // players elsewhere, who catch up with the full state when they ask again.
        let _ = link.noted(pipe.query_async::<()>(&mut redis).await);
    }
}
