//! What arrives on this node's channels (its inbox, its followed games' channels and the
//! moderation channel, on one subscription, so a game's answers and messages keep their order):
//! each envelope decoded by [`crate::cluster::wire`] and handed to the part of the relay it is
//! for.

use super::handover::Again;
use super::{Envelope, Relay};
use crate::cluster::{keys, wire};
use crate::game::registry::OPENING_WAIT;
use futures::StreamExt;
use std::sync::Arc;

impl Relay {
    /// Listens on this node's inbox and its followed games' channels until the node stops,
    /// subscribing again after an outage.
    pub async fn listen(self: Arc<Self>) {
        loop {
            if let Ok(subscriber) = self.link.subscriber().await {
                let (mut sink, mut messages) = subscriber.split();
                let mut channels = self.following.channels();
                channels.push(keys::inbox(&self.node));
                channels.push(keys::MODERATION.to_owned());
                if self.link.noted(sink.subscribe(channels).await).is_ok() {
                    self.following.connected(sink);
                    // Whatever was published while this node was not subscribed is lost to
                    // its members of followed games: they are sent their games' state again
                    // (not waited for here: the answers come through this listener).
                    let games = self.following.owing();
                    if !games.is_empty() {
                        tokio::spawn(Arc::clone(&self).catch_up(games));
                    }
                    loop {
                        let message = tokio::select! {
                            () = self.stop.cancelled() => return,
                            message = messages.next() => message,
                        };
                        // The stream ends when the connection is lost.
                        let Some(message) = message else { break };
                        match wire::decode::<Envelope>(message.get_payload_bytes()) {
                            Ok(envelope) => self.receive(envelope).await,
                            Err(err) => tracing::warn!(%err, "an unreadable relay message"),
                        }
                    }
                    tracing::warn!(
                        "lost the subscription to this node's inbox and games' channels; \
                         subscribing again"
                    );
                    self.following.disconnected();
                }
            }
            tokio::select! {
                () = self.stop.cancelled() => return,
                () = tokio::time::sleep(self.ttl / 3) => {}
            }
        }
    }

    async fn receive(self: &Arc<Self>, envelope: Envelope) {
        match envelope {
            // A game this node runs now (it took the game over from the node that published
            // this) reaches its members here through its table.
            Envelope::Event { game, .. } if self.registry.table(game).is_ok() => {}
            Envelope::Event {
                game,
                to,
                member,
                message,
            } => self.following.event(game, to, member, message),
            // Also when this node runs the game now (it took the game over meanwhile): its
            // members here may have missed what the old node sent before, and ask its table.
            Envelope::Resync { game } => {
                // Not waited for here: the answers come through this listener.
                tokio::spawn(Arc::clone(self).catch_up(vec![game]));
            }
            Envelope::Deliver { player, message } => {
                if let Some(session) = self.following.here(&player) {
                    session.send(message);
                }
            }
            Envelope::Request {
                from,
                player,
                message,
            } => {
                let Some(game) = message.game() else { return };
                match self.registry.table(game) {
                    Ok(table) => self.request(Ok(table), from, player, message).await,
                    // Its table may be opening (this node is taking the game over: a player of
                    // the node that lost it, handed over at once): the request waits for it,
                    // without holding up this listener, else is refused.
                    Err(_) => {
                        let relay = Arc::clone(self);
                        tokio::spawn(async move {
                            let table = relay.registry.opened(game, OPENING_WAIT).await;
                            relay.request(table, from, player, message).await;
                        });
                    }
                }
            }
            Envelope::Returned { from, player } => {
                self.reach(&player, from, true).await;
            }
            Envelope::Moved { game, player } => {
                if let Some(session) = self.following.here(&player) {
                    // Not waited for here: seating it follows the game through this listener.
                    let relay = Arc::clone(self);
                    tokio::spawn(
                        async move { relay.ask_again(&session, game, Again::Moved).await },
                    );
                }
            }
            Envelope::Departed { from, player } => self.left(&player, &from),
            Envelope::Moderation {
                from,
                admin,
                action,
            } => self.moderated(&from, super::Moderation { admin, action }),
        }
    }
}
