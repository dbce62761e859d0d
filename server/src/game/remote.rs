//! Members of a game connected at other nodes of a cluster: the seam between a table and the
//! cluster's fan-out (`crate::cluster::fanout`). A table hands each message for such members to
//! the server's [`RemoteMembers`] once, not once per member: a message for every member goes out
//! once on the game's channel and each node with members there hands it to its own connections;
//! a message for one member goes on the same channel, in the same order, named for that member.
//! A lone server has none, and every member is reached through its own connection.

use crate::players::Session;
use kingme_shared::protocol::{GameId, ServerMessage};

/// One message of a game for members at other nodes.
#[derive(Debug)]
pub enum RemoteMail<'a> {
    /// For every member at another node.
    Everyone(ServerMessage),
    /// For one player at another node; `member` says whether it is (still) a member of the game
    /// once it has this message, so its node knows whom to hand the game's messages to.
    One {
        to: &'a Session,
        member: bool,
        message: ServerMessage,
    },
}

/// Where a table's messages for members at other nodes go (a cluster node's fan-out).
pub trait RemoteMembers: Send + Sync + std::fmt::Debug {
    /// Queues `mail` about `game` without waiting: a table never waits on another node. The
    /// messages of one game go out in the order they were queued.
    fn send(&self, game: GameId, mail: RemoteMail<'_>);
}
