//! Every player's session, found by what the handshake proved: a person's by name, a guest's by
//! the SHA-256 of its resume token (the hash the database keeps, so a session rebuilt after a
//! restart is found by the token the guest still holds).

use super::session::Session;
use crate::storage::identity::hash_secret;
use kingme_shared::protocol::PlayerId;
use parking_lot::{Mutex, MutexGuard};
use rand::Rng;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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
        self.by_token.lock()
    }

    fn by_name(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.by_name.lock()
    }

    /// The session of the person `name` (whose key the handshake proved): the one that holds
    /// their seats if there is one, else a new one.
    pub fn person(&self, name: &str) -> Arc<Session> {
        let mut by_name = self.by_name();
        if let Some(session) = by_name.get(name) {
            return Arc::clone(session);
        }
        let session = self.new_session(name.to_owned(), false, None);
        by_name.insert(name.to_owned(), Arc::clone(&session));
        session
    }

    fn new_session(&self, name: String, guest: bool, key: Option<Vec<u8>>) -> Arc<Session> {
        let id = PlayerId(self.last_player.fetch_add(1, Ordering::Relaxed) + 1);
        Arc::new(Session::new(id, name, guest, key))
    }

    /// The session of the person `name`, if there is one (nothing is made).
    #[must_use]
    pub fn find_person(&self, name: &str) -> Option<Arc<Session>> {
        self.by_name().get(name).cloned()
    }

    /// A session for a client let in to watch only (the database failed at its hello): no
    /// seats, no token, kept by nobody here, so it ends with its connection.
    pub fn watcher(&self, name: String) -> Arc<Session> {
        self.new_session(name, true, None)
    }

    /// A new guest's unguessable token (128 random bits from the operating system's seeded
    /// CSPRNG): it goes to the guest, and only its hash is kept.
    #[must_use]
    pub fn new_guest_token() -> String {
        format!("{:032x}", rand::rng().random::<u128>())
    }

    /// A new guest session with a fresh id, found by `token` (from [`Sessions::new_guest_token`]).
    pub fn create_guest(&self, name: String, token: &str) -> Arc<Session> {
        let hash = hash_secret(token);
        let session = self.new_session(name, true, Some(hash.clone()));
        self.by_token().insert(hash, Arc::clone(&session));
        session
    }

    /// A guest's session for a game resumed after a restart or taken over from another node,
    /// found by any of the stored token hashes: the session one of them already names here (the
    /// guest came back, or another of its games was resumed, first), else a new one, which
    /// starts disconnected.
    pub fn restore_guest(&self, name: String, token_hashes: Vec<Vec<u8>>) -> Arc<Session> {
        let mut by_token = self.by_token();
        let known = token_hashes
            .iter()
            .find_map(|hash| by_token.get(hash).filter(|held| held.name == name).cloned());
        let session =
            known.unwrap_or_else(|| self.new_session(name, true, token_hashes.first().cloned()));
        for hash in token_hashes {
            by_token.insert(hash, Arc::clone(&session));
        }
        session
    }

    /// The guest session a token's hash names (a guest's [`Session::key`]), if there is one.
    #[must_use]
    pub fn find_guest(&self, key: &[u8]) -> Option<Arc<Session>> {
        self.by_token().get(key).cloned()
    }

    /// The session of a guest known to hold the token whose hash is `key`: connected at another
    /// node of the cluster, which vouches for it, or here with a token the cluster's shared
    /// database keeps (another node issued it). The one holding its seats here (made at a
    /// restart or a takeover from the stored hashes, or earlier by this), else a new one.
    pub fn vouched_guest(&self, name: &str, key: &[u8]) -> Arc<Session> {
        let mut by_token = self.by_token();
        if let Some(session) = by_token.get(key) {
            return Arc::clone(session);
        }
        let session = self.new_session(name.to_owned(), true, Some(key.to_vec()));
        by_token.insert(key.to_vec(), Arc::clone(&session));
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guest_is_one_session_however_its_node_came_to_know_it() {
        let sessions = Sessions::default();
        let token = Sessions::new_guest_token();
        let guest = sessions.create_guest("gus".into(), &token);
        let key = hash_secret(&token);
        // Vouched for by another node, or found in the shared database: the same session.
        assert_eq!(sessions.vouched_guest("gus", &key).id, guest.id);
        // A game resumed or taken over here seats the session its tokens already name, and
        // every token it was issued finds that session.
        let older = hash_secret("an older token of gus");
        let restored = sessions.restore_guest("gus".into(), vec![older.clone(), key.clone()]);
        assert_eq!(restored.id, guest.id);
        assert_eq!(
            sessions.find_guest(&older).map(|found| found.id),
            Some(guest.id)
        );
        // Two games of the guest taken over one after the other: still one session.
        let again = sessions.restore_guest("gus".into(), vec![older, key]);
        assert_eq!(again.id, guest.id);
        assert_eq!(
            sessions.resume(&token).map(|found| found.id),
            Some(guest.id)
        );
    }

    #[test]
    fn a_guest_nobody_here_knew_is_restored_into_a_new_session() {
        let sessions = Sessions::default();
        let key = hash_secret("a token issued elsewhere");
        let restored = sessions.restore_guest("kit".into(), vec![key.clone()]);
        assert!(!restored.is_connected());
        assert_eq!(restored.key.as_deref(), Some(key.as_slice()));
        assert_eq!(sessions.vouched_guest("kit", &key).id, restored.id);
    }
}
