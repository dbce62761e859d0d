//! A player's identity across connections: its id, name, whether it is a guest, the connection
//! it is currently reached through (if any) and the games it is in. A person's session is found
//! by name (the handshake has proved the name's key), so whichever connection, address or
//! server process a person comes back from, their seats follow them. A guest's session is found
//! by the SHA-256 of its resume token, the same hash the database keeps, so a session rebuilt
//! after a restart is found by the token the guest still holds.
//!
//! A session outlives its connection by the grace period, so a player who comes back gets its
//! seats back. The small lock here guards who the player is reached through,
//! never a game: games live in their table tasks.

use crate::outbox::Outbox;
use crate::storage::Participant;
use crate::storage::identity::hash_secret;
use crate::table::TableHandle;
use kingme_shared::protocol::{GameId, GameStatus, PlayerId, ServerMessage};
use rand::Rng;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio_util::sync::CancellationToken;

/// The connection a session is currently reached through.
#[derive(Debug, Clone)]
pub struct Attachment {
    /// The connection's id (unique for the server's lifetime).
    pub connection: u64,
    pub outbox: Outbox,
    /// Cancelled when another connection resumes this session.
    pub replaced: CancellationToken,
}

#[derive(Debug, Default)]
struct Reach {
    attachment: Option<Attachment>,
    /// Bumped on every detach, so a timer started for one absence ignores later ones.
    absences: u64,
    games: BTreeMap<GameId, TableHandle>,
}

/// One player.
#[derive(Debug)]
pub struct Session {
    pub id: PlayerId,
    pub name: String,
    /// A guest has no stored identity and is never rated.
    pub guest: bool,
    reach: Mutex<Reach>,
}

impl Session {
    fn reach(&self) -> MutexGuard<'_, Reach> {
        // A panic elsewhere while holding this lock leaves plain data behind; keep going.
        self.reach.lock().unwrap_or_else(PoisonError::into_inner)
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
        let outbox = self.reach().attachment.as_ref().map(|a| a.outbox.clone());
        if let Some(outbox) = outbox {
            outbox.send(message);
        }
    }

    /// Whether a connection currently reaches the player.
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.reach().attachment.is_some()
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

    /// Records that the player is in a game (seated or watching).
    pub fn add_game(&self, table: TableHandle) {
        self.reach().games.insert(table.id, table);
    }

    /// Records that the player left a game.
    pub fn remove_game(&self, game: GameId) {
        self.reach().games.remove(&game);
    }

    /// Every game the player is in.
    #[must_use]
    pub fn games(&self) -> Vec<TableHandle> {
        self.reach().games.values().cloned().collect()
    }

    /// How many of the player's games are open or running.
    #[must_use]
    pub fn active_games(&self) -> usize {
        self.reach()
            .games
            .values()
            .filter(|table| !matches!(table.summary().status, GameStatus::Over(_)))
            .count()
    }
}

/// Gives back most of a map's room when it is less than a quarter full.
fn shrink_when_sparse<K: std::hash::Hash + Eq, V>(map: &mut HashMap<K, V>) {
    if map.capacity() > 64 && map.len() * 4 < map.capacity() {
        map.shrink_to(map.len() * 2);
    }
}

/// Every session: persons' by name, guests' by the hash of their resume token (a guest's
/// session rebuilt after a restart may answer to several tokens it was issued).
#[derive(Debug, Default)]
pub struct Sessions {
    by_token: Mutex<HashMap<Vec<u8>, Arc<Session>>>,
    by_name: Mutex<HashMap<String, Arc<Session>>>,
    last_player: AtomicU64,
}

impl Sessions {
    fn by_token(&self) -> MutexGuard<'_, HashMap<Vec<u8>, Arc<Session>>> {
        self.by_token.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn by_name(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.by_name.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The session of the person `name` (whose key the handshake proved): the one that holds
    /// their seats if there is one, else a new one.
    pub fn person(&self, name: &str) -> Arc<Session> {
        let mut by_name = self.by_name();
        if let Some(session) = by_name.get(name) {
            return Arc::clone(session);
        }
        let session = self.new_session(name.to_owned(), false);
        by_name.insert(name.to_owned(), Arc::clone(&session));
        session
    }

    fn new_session(&self, name: String, guest: bool) -> Arc<Session> {
        let id = PlayerId(self.last_player.fetch_add(1, Ordering::Relaxed) + 1);
        Arc::new(Session {
            id,
            name,
            guest,
            reach: Mutex::new(Reach::default()),
        })
    }

    /// A session for a client let in to watch only (the database failed at its hello): no
    /// seats, no token, kept by nobody here, so it ends with its connection.
    pub fn watcher(&self, name: String) -> Arc<Session> {
        self.new_session(name, true)
    }

    /// A new guest session with a fresh id and an unguessable token (128 random bits from the
    /// operating system's seeded CSPRNG); the token goes to the guest and is not kept here.
    pub fn create_guest(&self, name: String) -> (Arc<Session>, String) {
        let session = self.new_session(name, true);
        let token = format!("{:032x}", rand::rng().random::<u128>());
        self.by_token()
            .insert(hash_secret(&token), Arc::clone(&session));
        (session, token)
    }

    /// A guest's session rebuilt after a restart for a resumed game, found by any of the
    /// stored token hashes; it starts disconnected.
    pub fn restore_guest(&self, name: String, token_hashes: Vec<Vec<u8>>) -> Arc<Session> {
        let session = self.new_session(name, true);
        let mut by_token = self.by_token();
        for hash in token_hashes {
            by_token.insert(hash, Arc::clone(&session));
        }
        session
    }

    /// The guest session a token resumes.
    #[must_use]
    pub fn resume(&self, token: &str) -> Option<Arc<Session>> {
        self.by_token().get(&hash_secret(token)).cloned()
    }

    /// Forgets a session whose player stayed away since absence number `absence`: a guest's
    /// tokens stop working, and a person's next hello starts a new session.
    pub fn expire(&self, session: &Session, absence: u64) {
        // Lock order: by_name, then by_token, then the session's own lock.
        let mut by_name = self.by_name();
        let mut by_token = self.by_token();
        if session.absent_since(absence) {
            by_token.retain(|_, held| held.id != session.id);
            if by_name
                .get(&session.name)
                .is_some_and(|held| held.id == session.id)
            {
                by_name.remove(&session.name);
            }
            // A map keeps the room of its busiest moment; give most of it back once the
            // players have left (halving at a quarter full keeps this rare).
            shrink_when_sparse(&mut by_token);
            shrink_when_sparse(&mut by_name);
        }
    }

    /// How many sessions exist.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_token().len() + self.by_name().len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
