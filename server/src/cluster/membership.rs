//! Who is in the cluster: each node registers its id and the address clients use (its
//! heartbeat key, `SET ... PX`, renewed every third of the lease so it lapses only when the
//! node is gone or cut off), and reads the live nodes' addresses back for clients (`Nodes`
//! after `Welcome`, and again whenever the list changes), so a client whose node died knows
//! where else to connect.

use super::keys;
use super::link::Link;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// This node's membership: its id, address, and the live nodes last seen.
#[derive(Debug)]
pub struct Membership {
    pub node: String,
    pub advertise: String,
    link: Link,
    ttl: Duration,
    /// The live nodes' addresses, as of the last heartbeat (this node's first).
    /// The live nodes' addresses, this node's first; connections watch it to tell their
    /// clients when it changes.
    live: watch::Sender<Vec<String>>,
    /// When a heartbeat last reached Redis: the node holds its place while that is within the
    /// heartbeat's life.
    last_beat: parking_lot::Mutex<Option<Instant>>,
}

impl Membership {
    /// A membership for node `node` reachable at `advertise`, its heartbeat lasting `ttl`.
    #[must_use]
    pub fn new(node: String, advertise: String, link: Link, ttl: Duration) -> Membership {
        let (live, _) = watch::channel(vec![advertise.clone()]);
        Membership {
            node,
            advertise,
            link,
            ttl,
            live,
            last_beat: parking_lot::Mutex::new(None),
        }
    }

    /// The live nodes, marked changed whenever a beat finds a node come or gone.
    #[must_use]
    pub fn watch_nodes(&self) -> watch::Receiver<Vec<String>> {
        self.live.subscribe()
    }

    /// Whether this node holds its place in the cluster: its last heartbeat reached Redis less
    /// than a heartbeat's life ago (older, its key has lapsed and other nodes count it gone).
    #[must_use]
    pub fn joined(&self) -> bool {
        self.last_beat
            .lock()
            .is_some_and(|beat| beat.elapsed() < self.ttl)
    }

    /// Renews the heartbeat and reads the live nodes; an error when Redis does not answer.
    pub async fn beat(&self) -> redis::RedisResult<()> {
        let mut redis = self.link.connection();
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let beat: redis::RedisResult<()> = redis::pipe()
            .cmd("SET")
            .arg(keys::node(&self.node))
            .arg(&self.advertise)
            .arg("PX")
            .arg(ttl)
            .ignore()
            .cmd("SADD")
            .arg(keys::NODES)
            .arg(&self.node)
            .ignore()
            .query_async(&mut redis)
            .await;
        self.link.noted(beat)?;
        *self.last_beat.lock() = Some(Instant::now());
        let ids: Vec<String> = self.link.noted(
            redis::cmd("SMEMBERS")
                .arg(keys::NODES)
                .query_async(&mut redis)
                .await,
        )?;
        let addresses: Vec<Option<String>> = if ids.is_empty() {
            Vec::new()
        } else {
            let keys: Vec<String> = ids.iter().map(|id| keys::node(id)).collect();
            self.link
                .noted(redis::cmd("MGET").arg(keys).query_async(&mut redis).await)?
        };
        let mut live = vec![self.advertise.clone()];
        for (id, address) in ids.iter().zip(addresses) {
            match address {
                Some(address) if *id != self.node => live.push(address),
                Some(_) => {}
                // Its heartbeat lapsed: forget it (it registers again if it comes back).
                None => {
                    let forgot: redis::RedisResult<()> = redis::cmd("SREM")
                        .arg(keys::NODES)
                        .arg(id)
                        .query_async(&mut redis)
                        .await;
                    self.link.noted(forgot)?;
                }
            }
        }
        live[1..].sort();
        self.live.send_if_modified(|known| {
            let changed = *known != live;
            if changed {
                *known = live;
            }
            changed
        });
        Ok(())
    }

    /// Beats every third of the heartbeat's life until `stop`; a beat that fails is logged by
    /// the link (once per outage) and tried again at the next.
    pub async fn keep_beating(self: Arc<Self>, stop: CancellationToken) {
        let mut every = tokio::time::interval(self.ttl / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = stop.cancelled() => break,
                _ = every.tick() => {}
            }
            let _ = self.beat().await;
        }
        // A clean stop: other nodes need not wait for the heartbeat to lapse.
        let mut redis = self.link.connection();
        let gone: redis::RedisResult<()> = redis::pipe()
            .cmd("DEL")
            .arg(keys::node(&self.node))
            .cmd("SREM")
            .arg(keys::NODES)
            .arg(&self.node)
            .query_async(&mut redis)
            .await;
        let _ = self.link.noted(gone);
    }
}
