//! Who may run a game. A lone server runs every game it opens; a cluster node (`--cluster`) runs
//! a game only while it holds the game's lease, which the cluster layer ([`crate::cluster`])
//! takes in Redis and fences in the database. This file is the seam between the two: a table
//! asks the server's [`Ownership`] (if any) for its new game's [`Lease`], writes only through
//! storage fenced with the lease's token, and stops (its game stays stored, unfinished, for the
//! next owner) when the lease is lost.

use crate::refusal::Refusal;
use crate::storage::Fence;
use futures::future::BoxFuture;
use kingme_shared::domain::GameId;
use tokio_util::sync::{CancellationToken, DropGuard};

/// A node's hold on one game, for as long as its table runs it.
#[derive(Debug)]
pub struct Lease {
    /// The game and its fencing token: every write of the game carries it.
    pub fence: Fence,
    /// Cancelled when the lease is lost (another node took the game, or it could not be
    /// renewed in time) and at shutdown: the table stops without ending the game.
    pub lost: CancellationToken,
    /// Dropped with the table: its keeper stops renewing and gives the lease back.
    pub _kept: DropGuard,
}

/// Hands out leases on new games (the cluster's; a lone server has none).
pub trait Ownership: Send + Sync + std::fmt::Debug {
    /// Takes the lease on a game this node just opened; a refusal when it cannot (Redis or the
    /// database unreachable), and then the game is not played.
    fn acquire(&self, game: GameId) -> BoxFuture<'static, Result<Lease, Refusal>>;
}
