//! A node's side of the games other nodes run: the games it follows (subscribed to the game's
//! channel while some of its own connections are members of it, or just asked something of it),
//! which of its connections are members of each, and each game message handed to them. So a
//! game's message reaches this node once, whatever the number of its members here.
//!
//! Membership here follows what the running node says: a message for one player carries whether
//! it is a member of the game once it has it (a `State` makes it one, `Left` ends it), in the
//! game's own order; a player that leaves this node is nobody's member here any more. A player
//! here that asked to join or watch a game is owed its answer (the game's state, which makes it
//! a member, or a refusal) until a message of the game for it arrives. When some of a game's
//! messages may have been lost on the way, the players owed them here are known, its members
//! and those still owed an answer, so they can be sent its state again (`super::relay`).

use super::envelope::Who;
use super::keys;
use super::link::REDIS_TIMEOUT;
use crate::players::{Session, Sessions};
use kingme_shared::protocol::{GameId, ServerMessage};
use parking_lot::Mutex;
use redis::aio::PubSubSink;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OnceCell;
use tokio::time::Instant;

/// One followed game.
#[derive(Debug)]
struct Followed {
    /// The players connected here that are members of it.
    members: HashSet<Who>,
    /// The players connected here that asked to join or watch it and have had no answer yet.
    asking: HashSet<Who>,
    /// When a player here last asked something of it.
    asked: Instant,
    /// Set once its channel is subscribed on the present connection.
    subscribed: Arc<OnceCell<()>>,
}

impl Followed {
    /// Whether some player here is a member of the game or owed an answer by it.
    fn owes(&self) -> bool {
        !self.members.is_empty() || !self.asking.is_empty()
    }
}

/// The games this node follows and its members of them.
pub struct Following {
    games: Mutex<HashMap<GameId, Followed>>,
    /// The listening connection's subscribing side, while it is up.
    sink: Mutex<Option<PubSubSink>>,
    sessions: Arc<Sessions>,
}

impl std::fmt::Debug for Following {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Following")
            .field("games", &self.games.lock().len())
            .finish_non_exhaustive()
    }
}

impl Following {
    /// Follows nothing yet; members are found among `sessions`.
    #[must_use]
    pub fn new(sessions: Arc<Sessions>) -> Following {
        Following {
            games: Mutex::default(),
            sink: Mutex::default(),
            sessions,
        }
    }

    /// Follows `game` before a request for it goes out, so no answer is missed: its channel is
    /// subscribed (once; the call waits until Redis confirmed it).
    pub async fn follow(&self, game: GameId) -> redis::RedisResult<()> {
        let subscribed = {
            let mut games = self.games.lock();
            let followed = games.entry(game).or_insert_with(|| Followed {
                members: HashSet::new(),
                asking: HashSet::new(),
                asked: Instant::now(),
                subscribed: Arc::default(),
            });
            followed.asked = Instant::now();
            Arc::clone(&followed.subscribed)
        };
        subscribed
            .get_or_try_init(|| async {
                let sink = self.sink.lock().clone();
                let Some(mut sink) = sink else {
                    return Err(redis::RedisError::from((
                        redis::ErrorKind::IoError,
                        "not subscribed to Redis",
                    )));
                };
                tokio::time::timeout(REDIS_TIMEOUT, sink.subscribe(keys::game(game)))
                    .await
                    .map_err(|_| {
                        redis::RedisError::from((
                            redis::ErrorKind::IoError,
                            "subscribing timed out",
                        ))
                    })?
            })
            .await
            .map(|_| ())
    }

    /// `who`, connected here, asked to join or watch `game` (followed): it is owed the answer,
    /// and is sent the game's state again if the game's messages may have been lost before it
    /// came.
    pub fn asking(&self, game: GameId, who: Who) {
        if let Some(followed) = self.games.lock().get_mut(&game) {
            followed.asking.insert(who);
        }
    }

    /// `who`'s request for `game` did not go out: no answer is owed.
    pub fn not_asked(&self, game: GameId, who: &Who) {
        if let Some(followed) = self.games.lock().get_mut(&game) {
            followed.asking.remove(who);
        }
    }

    /// The channels of every followed game (to subscribe again on a new connection).
    #[must_use]
    pub fn channels(&self) -> Vec<String> {
        self.games
            .lock()
            .keys()
            .map(|game| keys::game(*game))
            .collect()
    }

    /// The listening connection is up, with every followed game's channel subscribed.
    pub fn connected(&self, sink: PubSubSink) {
        *self.sink.lock() = Some(sink);
    }

    /// The listening connection is lost: followed games are subscribed again on the next one.
    pub fn disconnected(&self) {
        *self.sink.lock() = None;
        for followed in self.games.lock().values_mut() {
            followed.subscribed = Arc::default();
        }
    }

    /// The player connected at this node that `who` names (not one reached through the relay).
    #[must_use]
    pub fn here(&self, who: &Who) -> Option<Arc<Session>> {
        let session = match who {
            Who::Person(name) => self.sessions.find_person(name),
            Who::Guest { key, .. } => self.sessions.find_guest(key),
        }?;
        (session.is_connected() && !session.is_relayed()).then_some(session)
    }

    /// A message of `game`: for its one player `to` (if connected here; `member` says whether
    /// it is a member once it has it, and it is owed no answer any more), or for each of its
    /// members here.
    pub fn event(&self, game: GameId, to: Option<Who>, member: bool, message: ServerMessage) {
        match to {
            Some(who) => {
                if let Some(followed) = self.games.lock().get_mut(&game) {
                    followed.asking.remove(&who);
                }
                let Some(session) = self.here(&who) else {
                    return;
                };
                if let Some(followed) = self.games.lock().get_mut(&game) {
                    if member {
                        followed.members.insert(who);
                    } else {
                        followed.members.remove(&who);
                    }
                }
                session.send(message);
            }
            None => {
                let games = self.games.lock();
                let Some(followed) = games.get(&game) else {
                    return;
                };
                for who in &followed.members {
                    if let Some(session) = self.here(who) {
                        session.send(message.clone());
                    }
                }
            }
        }
    }

    /// The followed games that owe some player connected here their messages (a member, or
    /// one owed an answer).
    #[must_use]
    pub fn owing(&self) -> Vec<GameId> {
        self.games
            .lock()
            .iter()
            .filter(|(_, followed)| followed.owes())
            .map(|(game, _)| *game)
            .collect()
    }

    /// The players connected here now that `game` owes its messages: its members, and those
    /// owed an answer.
    #[must_use]
    pub fn owed(&self, game: GameId) -> Vec<Arc<Session>> {
        let owed: HashSet<Who> = self
            .games
            .lock()
            .get(&game)
            .map(|followed| followed.members.union(&followed.asking).cloned().collect())
            .unwrap_or_default();
        owed.iter().filter_map(|who| self.here(who)).collect()
    }

    /// `who` left this node: it is nobody's member here any more, and owed nothing.
    pub fn departed(&self, who: &Who) {
        for followed in self.games.lock().values_mut() {
            followed.members.remove(who);
            followed.asking.remove(who);
        }
    }

    /// Stops following the games with no member here and nothing asked of them for `idle`.
    pub async fn forget_idle(&self, idle: Duration) {
        let idle: Vec<String> = {
            let mut games = self.games.lock();
            let gone: Vec<GameId> = games
                .iter()
                .filter(|(_, followed)| !followed.owes() && followed.asked.elapsed() >= idle)
                .map(|(game, _)| *game)
                .collect();
            for game in &gone {
                games.remove(game);
            }
            gone.into_iter().map(keys::game).collect()
        };
        let sink = self.sink.lock().clone();
        if let (false, Some(mut sink)) = (idle.is_empty(), sink) {
            // A failure leaves a channel subscribed until the connection is next lost: its
            // messages are then handed to nobody.
            let _ = tokio::time::timeout(REDIS_TIMEOUT, sink.unsubscribe(idle)).await;
        }
    }
}
