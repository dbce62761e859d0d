//! A player's comings and goings: when it leaves its node, the nodes running its relayed games
//! hear of it and start its grace period there; when it comes back, its games are followed
//! again and their nodes send it their state.

use super::{Envelope, Relay, Who};
use crate::game::TableCommand;
use crate::players::Session;
use std::sync::Arc;

impl Relay {
    /// `session`'s player left this node: it is nobody's member here any more, and the nodes
    /// running its relayed games hear of it.
    pub fn departed(self: &Arc<Self>, session: &Session) {
        let Some(who) = Who::of(session) else { return };
        self.following.departed(&who);
        let Some(nodes) = self
            .remote
            .lock()
            .get(&who)
            .map(|asked| asked.nodes.clone())
        else {
            return;
        };
        let relay = Arc::clone(self);
        tokio::spawn(async move {
            let envelope = Envelope::Departed {
                from: relay.node.clone(),
                player: who,
            };
            for node in nodes {
                // A failure is logged by the link (once per outage).
                let _ = relay.publish(&node, &envelope).await;
            }
        });
    }

    /// `session`'s player came back to this node: its relayed games are followed again and
    /// their nodes send it their state.
    pub fn returned(self: &Arc<Self>, session: &Session) {
        let Some(who) = Who::of(session) else { return };
        let Some((nodes, games)) = self
            .remote
            .lock()
            .get(&who)
            .map(|asked| (asked.nodes.clone(), asked.games.clone()))
        else {
            return;
        };
        let relay = Arc::clone(self);
        tokio::spawn(async move {
            for game in games {
                // Not followed (Redis away): the player asks again once it is back.
                let _ = relay.following.follow(game).await;
            }
            let envelope = Envelope::Returned {
                from: relay.node.clone(),
                player: who,
            };
            for node in nodes {
                let _ = relay.publish(&node, &envelope).await;
            }
        });
    }

    /// `player`, reached here through node `from`, left that node: its relay attachment ends and
    /// its games here start its grace period, as a connection's closing would.
    pub(super) fn left(&self, player: &Who, from: &str) {
        let mut routes = self.routes.lock();
        let Some((node, connection)) = routes.get(player).cloned() else {
            return;
        };
        if node != from {
            return;
        }
        routes.remove(player);
        drop(routes);
        let Some(session) = self.find(player) else {
            return;
        };
        if session.detach(connection).is_some() {
            for game in session.games() {
                if let Ok(table) = self.registry.table(game) {
                    table.notify(TableCommand::Disconnected { player: session.id });
                }
            }
        }
    }
}
