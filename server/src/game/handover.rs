//! A game this node stopped running because another node of the cluster took its lease: the
//! seam between the table and the cluster's relay (`crate::cluster::relay`). The table hands its
//! members to the server's [`Handover`] as it stops, and each is seated again, on the same
//! connection, at the node that runs the game now, as if it had asked for the game itself
//! (`Watch`: a seated player's is its return, a spectator's watches on). A lone server has
//! none: it never loses a game.

use crate::players::Session;
use kingme_shared::protocol::GameId;
use std::sync::Arc;

/// Where the members of a game that moved to another node go.
pub trait Handover: Send + Sync + std::fmt::Debug {
    /// `game` runs at another node now: seats each of `members` (connected here, or at other
    /// nodes and reached through the relay) there again. Never waits; a member who cannot be
    /// seated there is told why and what to do.
    fn hand_over(&self, game: GameId, members: Vec<Arc<Session>>);
}
