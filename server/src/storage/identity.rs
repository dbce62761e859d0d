//! Who may use a name. The first time a name connects, the server issues it a secret (the client
//! keeps it in its config directory); later connections with that name must present it, so nobody
//! can play, or be rated, as someone else. Guests play under a name nobody registered, unrated.
//!
//! Only a SHA-256 hash of each secret is stored: a copy of the database does not let anyone log
//! in. Secrets are 32 random bytes, so an unsalted hash is enough to make them unguessable.

use super::store::{Store, StoreError};
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// Random bytes in a secret (written as twice as many hex digits).
pub const SECRET_BYTES: usize = 32;
/// The longest secret text looked at; anything longer cannot be one of ours.
pub const MAX_SECRET_TEXT: usize = 128;

/// What a connecting client claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// Play without an identity: unrated, and only under a name nobody registered.
    Guest,
    /// Play as this name: with its secret, or without one to register a new name.
    Named { secret: Option<String> },
}

/// How a client was let in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// As the registered owner of the name; `issued_secret` is set when the name was registered
    /// just now, and must be handed to the client to keep.
    Person {
        issued_secret: Option<String>,
    },
    Guest,
}

/// Why a client was refused a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    #[error(
        "the name {0:?} is registered to someone: connect with its secret (kingme keeps it in \
         its config directory) or choose another name"
    )]
    SecretRequired(String),
    #[error(
        "the secret presented for {0:?} is not the one issued for it: use the secret kingme \
         saved when the name was first used, or choose another name"
    )]
    WrongSecret(String),
    #[error("a secret is at most {MAX_SECRET_TEXT} characters")]
    SecretTooLong,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A fresh secret: [`SECRET_BYTES`] random bytes as lowercase hex.
#[must_use]
pub fn new_secret() -> String {
    let mut bytes = [0u8; SECRET_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    let mut text = String::with_capacity(SECRET_BYTES * 2);
    for byte in bytes {
        // Writing into a String cannot fail.
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// The stored form of a secret (or of a resume token): its SHA-256.
#[must_use]
pub fn hash_secret(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Compares two hashes in time independent of where they differ.
fn same_hash(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Decides whether `name` may connect with `claim`, registering the name on its first use.
pub fn admit(
    store: &mut dyn Store,
    name: &str,
    claim: &Claim,
    now_ms: i64,
) -> Result<Admission, IdentityError> {
    let registered = store.identity(name)?;
    match (claim, registered) {
        (Claim::Guest, None) => Ok(Admission::Guest),
        (Claim::Guest, Some(_)) | (Claim::Named { secret: None }, Some(_)) => {
            Err(IdentityError::SecretRequired(name.to_owned()))
        }
        (
            Claim::Named {
                secret: Some(secret),
            },
            _,
        ) if secret.len() > MAX_SECRET_TEXT => Err(IdentityError::SecretTooLong),
        (
            Claim::Named {
                secret: Some(secret),
            },
            Some(stored),
        ) => {
            if same_hash(&hash_secret(secret), &stored) {
                Ok(Admission::Person {
                    issued_secret: None,
                })
            } else {
                Err(IdentityError::WrongSecret(name.to_owned()))
            }
        }
        // A new name, or a secret for a name this server never issued (another server's, or a
        // database that was replaced): the name is free, so it is registered afresh.
        (Claim::Named { .. }, None) => {
            let secret = new_secret();
            if store.register_identity(name, &hash_secret(&secret), now_ms)? {
                Ok(Admission::Person {
                    issued_secret: Some(secret),
                })
            } else {
                Err(IdentityError::SecretRequired(name.to_owned()))
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::storage::SqliteStore;
    use std::path::Path;

    fn store() -> SqliteStore {
        SqliteStore::open(Path::new(":memory:"), 0).unwrap()
    }

    #[test]
    fn a_name_is_registered_once_and_then_needs_its_secret() {
        let mut store = store();
        let named = |secret: Option<&str>| Claim::Named {
            secret: secret.map(str::to_owned),
        };
        let Admission::Person {
            issued_secret: Some(secret),
        } = admit(&mut store, "alice", &named(None), 1).unwrap()
        else {
            panic!("the first connection registers the name");
        };
        assert_eq!(secret.len(), SECRET_BYTES * 2);
        assert_eq!(
            admit(&mut store, "alice", &named(Some(&secret)), 2),
            Ok(Admission::Person {
                issued_secret: None
            })
        );
        // Impersonation: no secret, a wrong secret, or posing as a guest under the name.
        assert_eq!(
            admit(&mut store, "alice", &named(None), 3),
            Err(IdentityError::SecretRequired("alice".into()))
        );
        let wrong = new_secret();
        assert_eq!(
            admit(&mut store, "alice", &named(Some(&wrong)), 3),
            Err(IdentityError::WrongSecret("alice".into()))
        );
        assert_eq!(
            admit(&mut store, "alice", &Claim::Guest, 3),
            Err(IdentityError::SecretRequired("alice".into()))
        );
        assert_eq!(
            admit(&mut store, "alice", &named(Some(&"f".repeat(500))), 3),
            Err(IdentityError::SecretTooLong)
        );
        // The database holds only the hash.
        let stored = store.identity("alice").unwrap().unwrap();
        assert_eq!(stored, hash_secret(&secret));
        assert_ne!(stored, secret.as_bytes());
    }

    #[test]
    fn guests_play_under_free_names_and_stay_unregistered() {
        let mut store = store();
        assert_eq!(
            admit(&mut store, "visitor", &Claim::Guest, 1),
            Ok(Admission::Guest)
        );
        assert_eq!(store.identity("visitor").unwrap(), None);
    }

    #[test]
    fn secrets_differ() {
        assert_ne!(new_secret(), new_secret());
    }
}
