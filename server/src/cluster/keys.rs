//! The names of everything a cluster keeps in Redis, in one place, all under `kingme:`.

use kingme_shared::domain::GameId;

/// The set of node ids that have registered (some may be dead: their heartbeat key is gone).
pub const NODES: &str = "kingme:nodes";

/// The set of game ids some node runs or ran unfinished: what the failover watchers look at.
pub const GAMES: &str = "kingme:games";

/// Set once some node has listed every unfinished game of the database in [`GAMES`] since
/// Redis started (empty): so a Redis restart does not forget games whose node died meanwhile.
pub const LISTED: &str = "kingme:listed";

/// The channel every node listens on for admins' actions to carry out at every node (a ban's
/// disconnect and forfeits, `close`, announcements: `cluster/relay/moderation.rs`).
pub const MODERATION: &str = "kingme:moderation";

/// A node's heartbeat: its advertised address, expiring unless renewed.
#[must_use]
pub fn node(id: &str) -> String {
    format!("kingme:node:{id}")
}

/// A game's lease: `NODE:NONCE` of the holder, expiring unless renewed.
#[must_use]
pub fn owner(game: GameId) -> String {
    format!("kingme:game:{}:owner", game.0)
}

/// A node's inbox channel: requests for the games it runs, and messages for the players
/// connected to it.
#[must_use]
pub fn inbox(node: &str) -> String {
    format!("kingme:to:{node}")
}

/// A game's channel: its messages for members connected at other nodes than the one running
/// it, published once for all of them (`cluster/fanout.rs`).
#[must_use]
pub fn game(game: GameId) -> String {
    format!("kingme:game:{}", game.0)
}

/// A node's game summaries for the other nodes' lobbies, expiring with its heartbeat.
#[must_use]
pub fn lobby(node: &str) -> String {
    format!("kingme:lobby:{node}")
}
