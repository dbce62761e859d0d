//! One player across connections: its id, name, whether it is a guest, the connection
//! it is currently reached through (if any) and the games it is in. A person's session is found
//! by name (the handshake has proved the name's key), so whichever connection, address or
//! server process a person comes back from, their seats follow them. A guest's session is found
//! by the SHA-256 of its resume token, the same hash the database keeps, so a session rebuilt
//! after a restart is found by the token the guest still holds.
//!
//! A session outlives its connection by the grace period, so a player who comes back gets its
//! seats back. The small lock here guards who the player is reached through,
//! never a game: games live in their table tasks.

use super::outbox::Outbox;
use crate::storage::Participant;
use kingme_shared::protocol::{GameId, PlayerId, ServerMessage};
use parking_lot::{Mutex, MutexGuard};
use std::collections::BTreeSet;
use tokio_util::sync::CancellationToken;

/// The connection a session is currently reached through.
#[derive(Debug, Clone)]
pub struct Attachment {
    /// The connection's id (unique for the server's lifetime).
    pub connection: u64,
    pub outbox: Outbox,
    /// Cancelled when another connection resumes this session.
    pub replaced: CancellationToken,
    /// Whether the player is connected at another node of the cluster and reached through its
    /// relay: tables send its game messages on the game's channel instead.
    pub relayed: bool,
}

#[derive(Debug, Default)]
struct Reach {
    attachment: Option<Attachment>,
    /// Bumped on every detach, so a timer started for one absence ignores later ones.
    absences: u64,
    games: BTreeSet<GameId>,
}

/// One player.
#[derive(Debug)]
pub struct Session {
    pub id: PlayerId,
    pub name: String,
    /// A guest has no stored identity and is never rated.
    pub guest: bool,
    /// A guest's key: the SHA-256 of one of its resume tokens, as the database keeps it. Other
    /// nodes of a cluster know the guest by it (its node vouches that the guest holds the
    /// token). `None` for persons and watch-only sessions.
    pub key: Option<Vec<u8>>,
    reach: Mutex<Reach>,
}

impl Session {
    fn reach(&self) -> MutexGuard<'_, Reach> {
        self.reach.lock()
    }

    /// Who this player is for the database.
    #[must_use]
    pub fn participant(&self) -> Participant {
        if self.guest {
            Participant::Guest(self.name.clone())
        } else {
            Participant::Person(self.name.clone())
        }
    }

    /// Sends a message to the player if it is connected; an absent player catches up with the
    /// full state when it comes back.
    pub fn send(&self, message: ServerMessage) {
        // Queuing never waits, so the lock is held only for a moment.
        if let Some(attachment) = &self.reach().attachment {
            attachment.outbox.send(message);
        }
    }

    /// Whether a connection currently reaches the player.
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.reach().attachment.is_some()
    }

    /// Whether the player is reached through the cluster's relay (connected at another node).
    #[must_use]
    pub fn is_relayed(&self) -> bool {
        self.reach()
            .attachment
            .as_ref()
            .is_some_and(|attachment| attachment.relayed)
    }

    /// Makes `attachment` the way to reach the player; returns the one it replaces.
    pub fn attach(&self, attachment: Attachment) -> Option<Attachment> {
        self.reach().attachment.replace(attachment)
    }

    /// Forgets `connection` if it is still the current one; returns the absence number to check
    /// later with [`Session::absent_since`], or `None` if another connection took over.
    pub fn detach(&self, connection: u64) -> Option<u64> {
        let mut reach = self.reach();
        if reach.attachment.as_ref().map(|a| a.connection) != Some(connection) {
            return None;
        }
        reach.attachment = None;
        reach.absences += 1;
        Some(reach.absences)
    }

    /// Whether the player is still away since absence number `absence`.
    #[must_use]
    pub fn absent_since(&self, absence: u64) -> bool {
        let reach = self.reach();
        reach.attachment.is_none() && reach.absences == absence
    }

    /// A new session: nobody reaches it yet and it is in no game. `key` is a guest's (see
    /// [`Session::key`]).
    #[must_use]
    pub fn new(id: PlayerId, name: String, guest: bool, key: Option<Vec<u8>>) -> Session {
        Session {
            id,
            name,
            guest,
            key,
            reach: Mutex::new(Reach::default()),
        }
    }

    /// Records that the player is in a game (seated or watching).
    pub fn add_game(&self, game: GameId) {
        self.reach().games.insert(game);
    }

    /// Records that the player left a game.
    pub fn remove_game(&self, game: GameId) {
        self.reach().games.remove(&game);
    }

    /// Every game the player is in.
    #[must_use]
    pub fn games(&self) -> Vec<GameId> {
        self.reach().games.iter().copied().collect()
    }
}
