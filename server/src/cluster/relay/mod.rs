//! Play from any node: a request for a game another node runs travels to that node over Redis
//! pub/sub, with the sender's proven identity attached ([`Who`]: a person's name, or a guest's
//! name and key, vouched for by its node), and the game's messages come back on the game's
//! channel, once per node ([`super::fanout`] at the running node, [`super::following`] here).
//! Each node listens on its inbox channel (`kingme:to:NODE`) and on the channels of the games it
//! follows, on one connection, so a game's answers and messages arrive in the order they were
//! published.
//!
//! At the node running the game, a player connected elsewhere is an ordinary session (found by
//! name, or a guest's by its key, as the handshake would) attached through the relay, so the
//! table checks seats and moves as always; it sends that player's messages through the fan-out
//! instead of a connection. The lobby: each node keeps its game summaries in Redis (expiring
//! with its heartbeat) and lists the other nodes' beside its own.
//!
//! A relay attachment lasts until the player leaves its node (its games here then start its
//! grace period, as for a local player), connects to the running node itself (which replaces
//! it) or the node stops; when the player comes back to its node, its games here send it their
//! state again.
//!
//! A game whose lease this node lost (another node took it over) is handed over ([`handover()`]):
//! each of its members connected here asks for it at its new node as its own `Watch` would, on
//! the same connection, and gets its state from there; a member connected at a third node is
//! seated again by that node, told on its inbox.
//!
//! Messages lost on the way are made good the same way: when this node subscribes again after
//! its subscription was lost (whatever was published meanwhile never reaches it), and when a
//! game's node says on the game's channel that it dropped or could not publish some of the
//! game's messages ([`Envelope::Resync`]), each member here of the games concerned (and each
//! player here still owed the answer to its join or watch of one: the answer may be what was
//! lost) asks for its game again as its own `Watch` would, and so gets the game's whole state
//! from the one node that runs it, without asking. A member for whom it cannot be done is told its board may miss
//! moves, and what to do.
//!
//! Files, by job: [`forward`] (a request sent to the game's node, and handed to the table
//! there), [`attachment`] (a player of another node as a session here), [`departures`] (a
//! player leaving its node or coming back), [`inbox`] (what arrives on this node's channels),
//! [`mod@handover`] (a game's members seated again after it moved, or after its messages were lost,
//! with the retry policy), [`lobby`] (every node's games in every lobby) and [`mod@moderation`] (an
//! admin's ban, `close` and announcement carried out at every node).

mod attachment;
mod departures;
mod forward;
mod handover;
mod inbox;
mod lobby;
mod moderation;

pub use handover::handover;
pub use moderation::Moderation;

use super::envelope::{Envelope, Who};
use super::following::Following;
use super::keys;
use super::link::Link;
use super::wire::{self, WireError};
use crate::game::TableRegistry;
use crate::players::{Session, Sessions};
use kingme_shared::protocol::GameId;
use parking_lot::Mutex;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Relay attachments' connection ids, far above any real connection's.
const RELAY_IDS: u64 = 1 << 62;

/// Why a message could not be relayed.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    /// Redis did not take it.
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// It does not encode, or is too large.
    #[error(transparent)]
    Encode(#[from] WireError),
}

/// Where a player of this node had requests relayed to.
#[derive(Debug, Default)]
struct Asked {
    nodes: HashSet<String>,
    games: HashSet<GameId>,
}

/// This node's side of the relay.
#[derive(Debug)]
pub struct Relay {
    node: String,
    link: Link,
    sessions: Arc<Sessions>,
    registry: Arc<TableRegistry>,
    outbox_capacity: usize,
    ttl: Duration,
    /// The node each relayed player is connected at now, and its relay attachment's id.
    routes: Mutex<HashMap<Who, (String, u64)>>,
    /// The nodes and games this node's players had requests relayed to (the nodes are told
    /// when they leave or return; the games are followed again when they return).
    remote: Mutex<HashMap<Who, Asked>>,
    /// The games other nodes run that this node's players are in.
    following: Following,
    last_attachment: AtomicU64,
    /// Admins' actions from other nodes, for this node's assembly to carry out.
    moderation: mpsc::Sender<Moderation>,
    /// The receiving end, until the assembly takes it ([`Relay::moderation`]).
    moderated: Mutex<Option<mpsc::Receiver<Moderation>>>,
    stop: CancellationToken,
}
impl Relay {
    /// The relay of node `node`; `ttl` is the heartbeat's life (lobby entries expire with it).
    #[must_use]
    pub fn new(
        node: String,
        link: Link,
        sessions: Arc<Sessions>,
        registry: Arc<TableRegistry>,
        outbox_capacity: usize,
        ttl: Duration,
        stop: CancellationToken,
    ) -> Relay {
        let (moderation, moderated) = moderation::channel();
        Relay {
            moderation,
            moderated: Mutex::new(Some(moderated)),
            following: Following::new(Arc::clone(&sessions)),
            node,
            link,
            sessions,
            registry,
            outbox_capacity,
            ttl,
            routes: Mutex::default(),
            remote: Mutex::default(),
            last_attachment: AtomicU64::new(RELAY_IDS),
            stop,
        }
    }

    /// The admins' actions made at other nodes, to carry out here: given once, to the server's
    /// assembly (`None` after).
    pub fn moderation(&self) -> Option<mpsc::Receiver<Moderation>> {
        self.moderated.lock().take()
    }

    /// Publishes `envelope` to `node`'s inbox; how many nodes heard it (0: the node is gone).
    async fn publish(&self, node: &str, envelope: &Envelope) -> Result<u64, RelayError> {
        let payload = wire::encode(envelope)?;
        let mut redis = self.link.connection();
        Ok(self.link.noted(
            redis::cmd("PUBLISH")
                .arg(keys::inbox(node))
                .arg(payload)
                .query_async(&mut redis)
                .await,
        )?)
    }

    /// The session `who` names here, made if there is none (as a hello would).
    fn session_of(&self, who: &Who) -> Arc<Session> {
        match who {
            Who::Person(name) => self.sessions.person(name),
            Who::Guest { name, key } => self.sessions.vouched_guest(name, key),
        }
    }

    /// The session `who` names here, if there is one.
    fn find(&self, who: &Who) -> Option<Arc<Session>> {
        match who {
            Who::Person(name) => self.sessions.find_person(name),
            Who::Guest { key, .. } => self.sessions.find_guest(key),
        }
    }
}
