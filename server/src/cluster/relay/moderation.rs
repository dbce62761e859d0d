//! An admin's action carried out at every node, not only the admin's: after the admin's node
//! has stored and carried out a ban, a `close` or an announcement, it publishes the action on
//! the moderation channel ([`keys::MODERATION`]), which every node's relay listens on. Each other
//! node hands it, through a bounded queue, to the server's assembly, which applies it to that
//! node's own connections and to the games that node runs (so a banned person's game ends as a
//! forfeit by the one node that writes it). A node that misses an action while Redis is away
//! still refuses the banned person's next sign-in: bans are read from the shared database.

use super::{Envelope, Relay, RelayError};
use crate::cluster::{keys, wire};
use kingme_shared::protocol::AdminAction;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

/// Actions from other nodes waiting to be carried out here (admins act far less often).
pub const MODERATION_QUEUE: usize = 64;

/// An admin's action made at another node, to be carried out here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moderation {
    /// The admin's name (shown with an announcement).
    pub admin: String,
    /// What the admin did (checked and stored by the admin's node).
    pub action: AdminAction,
}

/// The queue between the relay and what carries the actions out at this node.
#[must_use]
pub fn channel() -> (mpsc::Sender<Moderation>, mpsc::Receiver<Moderation>) {
    mpsc::channel(MODERATION_QUEUE)
}

impl Relay {
    /// Publishes `admin`'s `action` (already carried out here) to every other node; how many
    /// other nodes heard it.
    ///
    /// # Errors
    /// Redis did not take it (the action holds here, and the stored bans at every sign-in).
    pub async fn moderate(&self, admin: &str, action: &AdminAction) -> Result<u64, RelayError> {
        let envelope = Envelope::Moderation {
            from: self.node.clone(),
            admin: admin.to_owned(),
            action: action.clone(),
        };
        let heard = self.broadcast(&envelope).await?;
        // This node hears its own publication too.
        Ok(heard.saturating_sub(1))
    }

    /// Publishes `envelope` on the moderation channel; how many nodes heard it.
    async fn broadcast(&self, envelope: &Envelope) -> Result<u64, RelayError> {
        let payload = wire::encode(envelope)?;
        let mut redis = self.link.connection();
        Ok(self.link.noted(
            redis::cmd("PUBLISH")
                .arg(keys::MODERATION)
                .arg(payload)
                .query_async(&mut redis)
                .await,
        )?)
    }

    /// An action published by node `from`: queued for this node's assembly to carry out, unless
    /// this node made it (it was carried out here first).
    pub(super) fn moderated(&self, from: &str, moderation: Moderation) {
        if from == self.node {
            return;
        }
        match self.moderation.try_send(moderation) {
            Ok(()) | Err(TrySendError::Closed(_)) => {}
            Err(TrySendError::Full(moderation)) => tracing::error!(
                action = %moderation.action,
                "too many admin actions from other nodes at once; this one is not carried out \
                 here (a ban still refuses the next sign-in)"
            ),
        }
    }
}
