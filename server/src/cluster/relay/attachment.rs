//! A player of another node as a session at the node running its game: reached through the
//! relay (its messages go back to its node as [`Envelope::Deliver`]) until it connects here
//! itself or leaves its node; the node it is reached through is its route.

use super::{Envelope, Relay, Who};
use crate::game::TableCommand;
use crate::players::{Attachment, Outbox, Session};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio_util::sync::CancellationToken;

impl Relay {
    /// The session of `player`, reached through node `from` from now on (attached to the relay
    /// if no connection reaches it). When it comes back, or is reached again after it was away
    /// (a player of this node's games that went to another node), its games send it their
    /// state and seat it again, as a hello here would; so its node learns which games it is in.
    pub(super) async fn reach(
        self: &Arc<Self>,
        player: &Who,
        from: String,
        back: bool,
    ) -> Arc<Session> {
        let session = self.session_of(player);
        let away = !session.is_connected();
        let attached = if away {
            Some(self.attach(&session, player.clone()))
        } else {
            self.routes.lock().get(player).map(|(_, id)| *id)
        };
        if let Some(connection) = attached {
            self.routes
                .lock()
                .insert(player.clone(), (from, connection));
        }
        if back || away {
            for game in session.games() {
                if let Ok(table) = self.registry.table(game) {
                    let session = Arc::clone(&session);
                    table.send(TableCommand::Reconnected { session }).await;
                }
            }
        }
        session
    }

    /// Reaches `session` through the relay. Tables send its game messages through the fan-out;
    /// anything else sent to it goes to the node it is connected at. Returns the attachment's
    /// id.
    fn attach(self: &Arc<Self>, session: &Arc<Session>, player: Who) -> u64 {
        let kick = CancellationToken::new();
        let (outbox, mut queue) = Outbox::channel(self.outbox_capacity, kick.clone());
        let connection = self.last_attachment.fetch_add(1, Ordering::Relaxed) + 1;
        session.attach(Attachment {
            connection,
            outbox,
            replaced: CancellationToken::new(),
            relayed: true,
        });
        let relay = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let message = tokio::select! {
                    () = relay.stop.cancelled() => return,
                    () = kick.cancelled() => return,
                    message = queue.recv() => message,
                };
                let Some(message) = message else { return };
                let route = relay.routes.lock().get(&player).cloned();
                if let Some((node, _)) = route {
                    let envelope = Envelope::Deliver {
                        player: player.clone(),
                        message: *message,
                    };
                    // A failure is logged by the link; the player catches up with the full
                    // state when it asks again.
                    let _ = relay.publish(&node, &envelope).await;
                }
            }
        });
        connection
    }
}
