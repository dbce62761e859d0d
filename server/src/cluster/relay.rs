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
//! A game whose lease this node lost (another node took it over) is handed over ([`handover`]):
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

use super::envelope::{Envelope, Who};
use super::following::Following;
use super::keys;
use super::link::Link;
use super::wire::{self, LobbyList, WireError};
use crate::game::handover::Handover;
use crate::game::registry::OPENING_WAIT;
use crate::game::{TableCommand, TableHandle, TableRegistry};
use crate::players::{Attachment, Outbox, Session, Sessions};
use crate::refusal::Refusal;
use futures::StreamExt;
use kingme_shared::protocol::{ClientMessage, GameId, GameSummary};
use parking_lot::Mutex;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Relay attachments' connection ids, far above any real connection's.
const RELAY_IDS: u64 = 1 << 62;

/// Why a message could not be relayed.
#[derive(Debug, thiserror::Error)]
enum RelayError {
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
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
        Relay {
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

    /// Listens on this node's inbox and its followed games' channels until the node stops,
    /// subscribing again after an outage.
    pub async fn listen(self: Arc<Self>) {
        loop {
            if let Ok(subscriber) = self.link.subscriber().await {
                let (mut sink, mut messages) = subscriber.split();
                let mut channels = self.following.channels();
                channels.push(keys::inbox(&self.node));
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
            Envelope::Departed { from, player } => {
                let mut routes = self.routes.lock();
                let Some((node, connection)) = routes.get(&player).cloned() else {
                    return;
                };
                if node != from {
                    return;
                }
                routes.remove(&player);
                drop(routes);
                let Some(session) = self.find(&player) else {
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
    }

    /// Hands the request `message` of `player`, connected at node `from`, to its game's table,
    /// or the refusal (there is no such game here) to the player.
    async fn request(
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

    /// Seats the members of `game`, which this node stopped running (another node took its
    /// lease), again at the node that runs it now: each player connected here as its own
    /// `Watch` would, and each player reached through the relay by its own node (told on its
    /// inbox). Absent players are left alone: they ask for the game when they come back.
    async fn hand_over(self: Arc<Self>, game: GameId, members: Vec<Arc<Session>>) {
        let mut here = Vec::new();
        for session in members {
            if !session.is_relayed() {
                if session.is_connected() {
                    here.push(session);
                }
                continue;
            }
            let Some(player) = Who::of(&session) else {
                continue;
            };
            let route = self.routes.lock().get(&player).cloned();
            if let Some((node, _)) = route {
                // A failure is logged by the link (Redis, and so the player, is out of reach
                // then); nobody listening means the player's node is gone, and its client
                // reconnects elsewhere by itself.
                let _ = self.publish(&node, &Envelope::Moved { game, player }).await;
            }
        }
        futures::future::join_all(
            here.iter()
                .map(|session| self.ask_again(session, game, Again::Moved)),
        )
        .await;
    }

    /// Sends the members here of each of `games` (run at other nodes), and the players here owed
    /// the answer to a join or watch of one, the game's state again, as their own `Watch` would
    /// ask for it: some of its messages may have been lost on the way (this node's subscription
    /// was lost, or the game's node could not publish them).
    async fn catch_up(self: Arc<Self>, games: Vec<GameId>) {
        let asking: Vec<(GameId, Arc<Session>)> = games
            .into_iter()
            .flat_map(|game| {
                self.following
                    .owed(game)
                    .into_iter()
                    .map(move |session| (game, session))
            })
            .collect();
        futures::future::join_all(
            asking
                .iter()
                .map(|(game, session)| self.ask_again(session, *game, Again::Lost)),
        )
        .await;
    }

    /// Asks for `game` again for `session`, connected here (see [`Relay::watch_again`]); if it
    /// cannot be done, the player is told why and what to do.
    async fn ask_again(self: &Arc<Self>, session: &Arc<Session>, game: GameId, why: Again) {
        let refusal = match self.watch_again(session, game, why).await {
            Ok(()) => return,
            // Its own words say what to do.
            Err(refusal @ Refusal::GuestElsewhere(_)) => {
                session.send(refusal.to_message(false));
                return;
            }
            Err(refusal) => refusal,
        };
        let reason = match refusal {
            Refusal::NoSuchGame(_) => "no node of the service runs it right now".to_owned(),
            Refusal::ClusterUnavailable(err) => format!("Redis does not answer: {err}"),
            other => other.to_string(),
        };
        tracing::warn!(game = %game, player = %session.name, %reason, "{}", why.failed());
        session.send(why.notice(game, reason).to_message(false));
    }

    /// Asks for `game` for `session`, connected here, as its own `Watch` would: at the table
    /// here if this node runs the game now, else through the relay at the node that does (a
    /// seated player's `Watch` is its return, and brings the game's state). While no other node
    /// is seen running it (it is still being taken over, or its node is putting back a lease a
    /// restarted Redis lost), and while Redis does not answer when messages were lost (it is
    /// coming back), this is tried again (see [`Again::tries`]), a third of a lease apart. Done
    /// if the player left or the node stops meanwhile.
    async fn watch_again(
        self: &Arc<Self>,
        session: &Arc<Session>,
        game: GameId,
        why: Again,
    ) -> Result<(), Refusal> {
        let mut tries = 1;
        loop {
            let watch = ClientMessage::Watch { game };
            let asked = match self.registry.table(game) {
                Ok(table) => table.request(Arc::clone(session), watch).await,
                Err(_) => self.forward(session, watch).await,
            };
            match asked {
                Err(refusal) if tries < why.tries() && why.waits_out(&refusal) => {}
                asked => return asked,
            }
            tries += 1;
            tokio::select! {
                () = self.stop.cancelled() => return Ok(()),
                () = tokio::time::sleep(self.ttl / 3) => {}
            }
            if !session.is_connected() {
                return Ok(());
            }
        }
    }

    /// The session of `player`, reached through node `from` from now on (attached to the relay
    /// if no connection reaches it). When it comes back, or is reached again after it was away
    /// (a player of this node's games that went to another node), its games send it their
    /// state and seat it again, as a hello here would; so its node learns which games it is in.
    async fn reach(self: &Arc<Self>, player: &Who, from: String, back: bool) -> Arc<Session> {
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

/// Why a member's game is asked for again.
#[derive(Debug, Clone, Copy)]
enum Again {
    /// The game moved to another node (this one lost its lease): the member is seated there.
    Moved,
    /// Some of the game's messages for this node may have been lost.
    Lost,
}

impl Again {
    /// How many times the game is asked for while no other node is seen running it, a third of
    /// a lease apart: a game that moved is still being taken over for a lease at most; after an
    /// outage the game's node also has to reconnect, put its lease back and subscribe again
    /// (each up to a third of a lease after Redis answers, and a restarted Redis may be slow to
    /// take them all), so it is given longer, to spare its player a false alarm.
    fn tries(self) -> u32 {
        match self {
            Again::Moved => 4,
            Again::Lost => 12,
        }
    }

    /// Whether asking again may go otherwise after `refusal`: not while nobody runs the game
    /// yet; after lost messages, not while Redis does not answer either (it is what lost them,
    /// and is coming back).
    fn waits_out(self, refusal: &Refusal) -> bool {
        match refusal {
            Refusal::NoSuchGame(_) => true,
            Refusal::ClusterUnavailable(_) => matches!(self, Again::Lost),
            _ => false,
        }
    }

    /// What could not be done, for the log.
    fn failed(self) -> &'static str {
        match self {
            Again::Moved => "could not seat a player at the game's new node",
            Again::Lost => {
                "could not send a player at this node a game's state again after its messages \
                 were lost"
            }
        }
    }

    /// What the player is told when it could not be done, and why.
    fn notice(self, game: GameId, reason: String) -> Refusal {
        match self {
            Again::Moved => Refusal::MovedAway { game, reason },
            Again::Lost => Refusal::OutOfTouch { game, reason },
        }
    }
}

/// The relay as the tables' [`Handover`]: a table whose lease was lost hands it its members.
#[must_use]
pub fn handover(relay: &Arc<Relay>) -> Arc<dyn Handover> {
    Arc::new(HandingOver(Arc::clone(relay)))
}

#[derive(Debug)]
struct HandingOver(Arc<Relay>);

impl Handover for HandingOver {
    fn hand_over(&self, game: GameId, members: Vec<Arc<Session>>) {
        // A table never waits on another node.
        tokio::spawn(Arc::clone(&self.0).hand_over(game, members));
    }
}
