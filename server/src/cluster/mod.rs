//! Nodes sharing Redis and a PostgreSQL database as one service (`--cluster`). Without it the
//! server runs alone and nothing here runs.
//!
//! Files: [`link`] (the connection to Redis, its outages logged once), [`keys`] (every Redis
//! key's name), [`membership`] (each node's heartbeat and address; the live nodes for
//! clients), [`lease`] (a game is run by the holder of its lease, fenced in the database),
//! [`failover`] (taking over the games whose lease lapsed), [`relay`] (requests for games run
//! elsewhere over pub/sub, players' comings and goings; the lobby of every node) with
//! [`envelope`] (what travels between nodes) and [`wire`] (every message on Redis encoded and
//! decoded, with its size limit both ways), [`fanout`] (a game's messages for members at
//! other nodes, published once on the game's channel) and [`following`] (the games other nodes
//! run that this node's players are in, their messages handed to those players).
//!
//! Invariants: a game is run by one node, the holder of its lease, and only that node's table
//! writes it (the database refuses a write with an older fencing token: `storage/fence.rs`);
//! a game whose node dies is resumed by another from what the database committed, so no
//! acknowledged move is lost; a game's message reaches each node with members of it once, in
//! the order its table sent it.

pub mod envelope;
pub mod failover;
pub mod fanout;
pub mod following;
pub mod keys;
pub mod lease;
pub mod link;
pub mod membership;
pub mod relay;
pub mod wire;

use crate::config::ClusterSettings;
use crate::game::ownership::Ownership;
use crate::game::remote::RemoteMembers;
use crate::game::{TableContext, TableRegistry};
use crate::players::Sessions;
use crate::storage::Storage;
use failover::Watcher;
use fanout::Fanout;
use lease::Leases;
use link::Link;
use membership::Membership;
use relay::Relay;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Why a node could not join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cannot reach Redis at {url}: {err}")]
    Redis { url: String, err: redis::RedisError },
}

/// A node's place in its cluster.
#[derive(Debug)]
pub struct Cluster {
    pub membership: Arc<Membership>,
    pub leases: Leases,
    link: Link,
    fanout: Arc<Fanout>,
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
        let fanout = Fanout::start(link.clone(), games.clone());
        let leases = Leases::new(node, link.clone(), storage, settings.lease, games, keepers);
        Ok(Cluster {
            membership,
            leases,
            link,
            fanout,
        })
    }

    /// What the tables take their leases from.
    #[must_use]
    pub fn ownership(&self) -> Arc<dyn Ownership> {
        lease::ownership(&self.leases)
    }

    /// Where tables send their messages for members at other nodes.
    #[must_use]
    pub fn fanout(&self) -> Arc<dyn RemoteMembers> {
        Arc::clone(&self.fanout) as Arc<dyn RemoteMembers>
    }

    /// The relay of requests and messages between nodes (started by [`Cluster::start`]).
    #[must_use]
    pub fn relay(
        &self,
        registry: &Arc<TableRegistry>,
        sessions: &Arc<Sessions>,
        outbox_capacity: usize,
        stop: &CancellationToken,
    ) -> Arc<Relay> {
        Arc::new(Relay::new(
            self.membership.node.clone(),
            self.link.clone(),
            Arc::clone(sessions),
            Arc::clone(registry),
            outbox_capacity,
            self.leases.ttl(),
            stop.clone(),
        ))
    }

    /// Starts the heartbeat, the relay and the failover watcher (until `stop`). Until some node
    /// has listed every unfinished game of the database since Redis started, watchers do, so games
    /// survive a Redis that restarted empty while their node died; the watcher then takes over
    /// those nobody holds.
    pub fn start(
        &self,
        tables: &Arc<TableContext>,
        sessions: &Arc<Sessions>,
        relay: &Arc<Relay>,
        stop: &CancellationToken,
        timers: &TaskTracker,
    ) {
        timers.spawn(Arc::clone(relay).listen());
        timers.spawn(Arc::clone(relay).share_lobby());
        timers.spawn(Arc::clone(&self.membership).keep_beating(stop.clone()));
        let watcher = Watcher {
            leases: self.leases.clone(),
            tables: Arc::clone(tables),
            sessions: Arc::clone(sessions),
        };
        timers.spawn(watcher.watch(self.leases.ttl() / 3, stop.clone()));
    }
}
