//! What travels between nodes over Redis pub/sub (encoded and decoded by [`super::wire`]): requests for a game another node
//! runs, the game's messages for members at other nodes (and word that some were lost), players'
//! comings and goings, a game's move to another node, and an admin's action for every node. A player is named by what its own node
//! proved: a person's name (its key was checked there) or a guest's name with its key (the hash
//! of the resume token it holds).

use crate::players::Session;
use kingme_shared::protocol::{AdminAction, ClientMessage, GameId, ServerMessage};
use serde::{Deserialize, Serialize};

/// A player as another node names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Who {
    /// A person: its node checked the name's key.
    Person(String),
    /// A guest: its node vouches that it holds the resume token whose SHA-256 is `key` (as
    /// the database keeps it), so every node finds the same guest by it.
    Guest { name: String, key: Vec<u8> },
}

impl Who {
    /// How other nodes name `session`; `None` for a session without a proven identity (a
    /// watch-only guest let in while the database failed).
    #[must_use]
    pub fn of(session: &Session) -> Option<Who> {
        match (&session.key, session.guest) {
            (_, false) => Some(Who::Person(session.name.clone())),
            (Some(key), true) => Some(Who::Guest {
                name: session.name.clone(),
                key: key.clone(),
            }),
            (None, true) => None,
        }
    }
}

/// One message between nodes.
#[derive(Debug, Serialize, Deserialize)]
pub enum Envelope {
    /// A request of `player`, connected at node `from`, for a game this node runs (on the
    /// running node's inbox).
    Request {
        from: String,
        player: Who,
        message: ClientMessage,
    },
    /// A message for `player`, connected at this node (on its inbox; the running node's
    /// refusal when it has no such game).
    Deliver { player: Who, message: ServerMessage },
    /// A message of `game` for its members at other nodes (on the game's channel): for every
    /// member (`to` is `None`) or for the one player `to`, with whether it is a member of the
    /// game once it has it.
    Event {
        game: GameId,
        to: Option<Who>,
        member: bool,
        message: ServerMessage,
    },
    /// Some of `game`'s messages for members at other nodes were lost (its node dropped them,
    /// or could not publish them while Redis was away): each node following it asks for it
    /// again for its members there, as their own `Watch` would (on the game's channel, from
    /// the node running it, once publishing works again).
    Resync { game: GameId },
    /// `player` left node `from` (its games here start its grace period).
    Departed { from: String, player: Who },
    /// `player` came back at node `from` (its games here send it their state).
    Returned { from: String, player: Who },
    /// `game`, which `player` (connected at this node) was in, moved to another node: this node
    /// seats it there again (on the inbox of the player's node, from the node that lost the
    /// game's lease).
    Moved { game: GameId, player: Who },
    /// Admin `admin` at node `from` did `action` (stored and carried out there): every other
    /// node carries it out for its own connections and games (on the moderation channel).
    Moderation {
        from: String,
        admin: String,
        action: AdminAction,
    },
}
