//! Nodes sharing Redis and a PostgreSQL database as one service (`--cluster`). Without it the
//! server runs alone and nothing here runs.
//!
//! Files: [`link`] (the connection to Redis, its outages logged once), [`keys`] (every Redis
//! key's name), [`membership`] (each node's heartbeat and address; the live nodes for
//! clients), [`lease`] (a game is run by the holder of its lease, fenced in the database) and
//! [`failover`] (taking over the games whose lease lapsed).
//!
//! Invariants: a game is run by one node, the holder of its lease, and only that node's table
//! writes it (the database refuses a write with an older fencing token: `storage/fence.rs`);
//! a game whose node dies is resumed by another from what the database committed, so no
//! acknowledged move is lost.

pub mod failover;
pub mod keys;
pub mod lease;
pub mod link;
pub mod membership;

use crate::config::ClusterSettings;
use crate::game::TableContext;
use crate::game::ownership::Ownership;
use crate::players::Sessions;
use crate::storage::{Storage, StoreError};
use failover::Watcher;
use lease::Leases;
use link::Link;
use membership::Membership;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Why a node could not join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cannot reach Redis at {url}: {err}")]
    Redis { url: String, err: redis::RedisError },
    #[error("could not read the games to look after: {0}")]
    Store(#[from] StoreError),
}

/// A node's place in its cluster.
#[derive(Debug)]
pub struct Cluster {
    pub membership: Arc<Membership>,
    pub leases: Leases,
}

impl Cluster {
    /// Connects to the cluster's Redis and registers this node (a fresh id each start).
    /// `games` is the server's shutdown token for tables, `keepers` tracks lease renewals.
    pub async fn join(
        settings: &ClusterSettings,
        storage: Storage,
        games: CancellationToken,
        keepers: TaskTracker,
    ) -> Result<Cluster, ClusterError> {
        let link = Link::connect(&settings.redis_url)
            .await
            .map_err(|err| ClusterError::Redis {
                url: settings.redis_url.clone(),
                err,
            })?;
        let node = format!("{:016x}", rand::random::<u64>());
        let membership = Arc::new(Membership::new(
            node.clone(),
            settings.advertise.clone(),
            link.clone(),
            settings.lease,
        ));
        membership.beat().await.map_err(|err| ClusterError::Redis {
            url: settings.redis_url.clone(),
            err,
        })?;
        tracing::info!(node = %node, advertise = %settings.advertise, "joined the cluster");
        let leases = Leases::new(node, link, storage, settings.lease, games, keepers);
        Ok(Cluster { membership, leases })
    }

    /// What the tables take their leases from.
    #[must_use]
    pub fn ownership(&self) -> Arc<dyn Ownership> {
        lease::ownership(&self.leases)
    }

    /// Starts the heartbeat and the failover watcher (until `stop`). Every unfinished game in
    /// the database is listed first, so games survive a Redis that restarted empty while no
    /// node was running them; the watcher then takes over those nobody holds.
    pub async fn start(
        &self,
        tables: &Arc<TableContext>,
        sessions: &Arc<Sessions>,
        stop: &CancellationToken,
        timers: &TaskTracker,
    ) -> Result<(), ClusterError> {
        for stored in tables.storage.unfinished_games().await? {
            // A Redis failure here is logged; the watchers list games again as nodes renew.
            let _ = self.leases.list_game(stored.game.id).await;
        }
        timers.spawn(Arc::clone(&self.membership).keep_beating(stop.clone()));
        let watcher = Watcher {
            leases: self.leases.clone(),
            tables: Arc::clone(tables),
            sessions: Arc::clone(sessions),
        };
        timers.spawn(watcher.watch(self.leases.ttl() / 3, stop.clone()));
        Ok(())
    }
}
