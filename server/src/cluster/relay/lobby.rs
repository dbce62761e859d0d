//! Every node's games in every lobby: each node keeps its game summaries in Redis (expiring
//! with its heartbeat) and lists the other nodes' beside its own; it also stops following games
//! nobody here is in.

use super::Relay;
use crate::cluster::keys;
use crate::cluster::wire::{self, LobbyList};
use kingme_shared::protocol::GameSummary;
use std::sync::Arc;

impl Relay {
    /// Keeps this node's game summaries in Redis and reads the others' into the lobby, and
    /// stops following games nobody here is in, every third of the heartbeat's life, until the
    /// node stops.
    pub async fn share_lobby(self: Arc<Self>) {
        let mut every = tokio::time::interval(self.ttl / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = self.stop.cancelled() => return,
                _ = every.tick() => {}
            }
            // Redis errors are logged by the link; the lists are read again at the next tick.
            if let Ok(games) = self.exchange_lobby().await {
                self.registry.set_elsewhere(games);
            }
            self.following.forget_idle(self.ttl * 3).await;
        }
    }

    async fn exchange_lobby(&self) -> redis::RedisResult<Vec<GameSummary>> {
        let mut redis = self.link.connection();
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let mut pipe = redis::pipe();
        match wire::encode::<LobbyList>(&self.registry.local()) {
            Ok(ours) => {
                pipe.cmd("SET")
                    .arg(keys::lobby(&self.node))
                    .arg(ours)
                    .arg("PX")
                    .arg(ttl)
                    .ignore();
            }
            // The other nodes' lobbies miss this node's games until the list fits again.
            Err(err) => tracing::warn!(%err, "this node's games are not shared with the others"),
        }
        let nodes: Vec<String> = self.link.noted(
            pipe.cmd("SMEMBERS")
                .arg(keys::NODES)
                .query_async::<(Vec<String>,)>(&mut redis)
                .await
                .map(|(nodes,)| nodes),
        )?;
        let others: Vec<String> = nodes
            .iter()
            .filter(|node| **node != self.node)
            .map(|node| keys::lobby(node))
            .collect();
        if others.is_empty() {
            return Ok(Vec::new());
        }
        let lists: Vec<Option<Vec<u8>>> = self
            .link
            .noted(redis::cmd("MGET").arg(others).query_async(&mut redis).await)?;
        let mut games: Vec<GameSummary> = lists
            .iter()
            .flatten()
            .filter_map(|list| match wire::decode::<LobbyList>(list) {
                Ok(list) => Some(list),
                Err(err) => {
                    tracing::warn!(%err, "another node's games are left out of the lobby");
                    None
                }
            })
            .flatten()
            .collect();
        games.sort_by_key(|summary| std::cmp::Reverse(summary.id));
        Ok(games)
    }
}
