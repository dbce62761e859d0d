//! A request for a game another node runs: sent by the player's node to the node holding the
//! game's lease (following the game first, so that the answer is not missed), and handed there
//! to the game's table, or refused back to the player when no table there runs it.

use super::{Envelope, Relay, Who};
use crate::cluster::keys;
use crate::game::TableHandle;
use crate::game::registry::OPENING_WAIT;
use crate::players::Session;
use crate::refusal::Refusal;
use kingme_shared::protocol::ClientMessage;
use std::sync::Arc;

impl Relay {
    /// Sends a request for a game this node does not run to the node that does (following the
    /// game first, so its answer is not missed); a refusal if no node runs it.
    pub async fn forward(
        &self,
        session: &Arc<Session>,
        message: ClientMessage,
    ) -> Result<(), Refusal> {
        let Some(game) = message.game() else {
            return Ok(());
        };
        let mut redis = self.link.connection();
        let holder: Option<String> = self
            .link
            .noted(
                redis::cmd("GET")
                    .arg(keys::owner(game))
                    .query_async(&mut redis)
                    .await,
            )
            .map_err(|err| Refusal::ClusterUnavailable(err.to_string()))?;
        let Some(node) = holder.and_then(|holder| holder.split(':').next().map(str::to_owned))
        else {
            return Err(Refusal::NoSuchGame(game));
        };
        if node == self.node {
            // Its lease is ours: its table is opening (this node is taking it over; the request
            // waits for it) or closing.
            let table = self.registry.opened(game, OPENING_WAIT).await?;
            return table.request(Arc::clone(session), message).await;
        }
        // A guest let in to watch only has no identity to vouch for.
        let Some(player) = Who::of(session) else {
            return Err(Refusal::GuestElsewhere(game));
        };
        self.following
            .follow(game)
            .await
            .map_err(|err| Refusal::ClusterUnavailable(err.to_string()))?;
        // An answer that would make the player a member is owed until it comes: if the game's
        // messages are lost before it does, it is sent again with them (see `catch_up`).
        let owed = matches!(
            message,
            ClientMessage::Join { .. } | ClientMessage::Watch { .. }
        );
        if owed {
            self.following.asking(game, player.clone());
        }
        let envelope = Envelope::Request {
            from: self.node.clone(),
            player: player.clone(),
            message,
        };
        let published = self.publish(&node, &envelope).await;
        if owed && !matches!(published, Ok(1..)) {
            self.following.not_asked(game, &player);
        }
        match published {
            Ok(0) => Err(Refusal::NoSuchGame(game)),
            Ok(_) => {
                let mut remote = self.remote.lock();
                let asked = remote.entry(player).or_default();
                asked.nodes.insert(node);
                asked.games.insert(game);
                Ok(())
            }
            Err(err) => Err(Refusal::ClusterUnavailable(err.to_string())),
        }
    }

    /// Hands the request `message` of `player`, connected at node `from`, to its game's table,
    /// or the refusal (there is no such game here) to the player.
    pub(super) async fn request(
        self: &Arc<Self>,
        table: Result<TableHandle, Refusal>,
        from: String,
        player: Who,
        message: ClientMessage,
    ) {
        match table {
            Ok(table) => {
                let session = self.reach(&player, from, false).await;
                if table.request(session, message).await.is_err() {
                    tracing::debug!(game = %table.id, "a relayed request for a closed table");
                }
            }
            Err(refusal) => {
                let message = refusal.to_message(false);
                let _ = self
                    .publish(&from, &Envelope::Deliver { player, message })
                    .await;
            }
        }
    }
}
