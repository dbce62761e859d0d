//! Who may use a name. A person's name belongs to an Ed25519 public key: the first key that
//! proves itself for a name gets it (trust on first use, as SSH does with host keys), and from
//! then on only a proof by that key admits the name, from any address, port or server process
//! sharing the database. The server stores public keys only: nothing secret.
//!
//! Names registered by a version-2 server were bound to a secret whose SHA-256 is stored; the
//! first version-3 connection that presents that secret binds its key to the name, and the old
//! secret stops mattering. Guests play under a name nobody registered, unrated, with no key.

use super::store::{Store, StoreError, StoredIdentity};
use kingme_shared::identity::fingerprint;
use sha2::{Digest, Sha256};

/// The longest version-2 secret text looked at; anything longer cannot be one of ours.
pub const MAX_SECRET_TEXT: usize = 128;

/// What a connecting client claims, after the handshake checked any proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// Play without an identity: unrated, and only under a name nobody registered.
    Guest,
    /// Play as this name with this public key, whose proof the handshake verified;
    /// `legacy_secret` is a version-2 secret for the name, if the client still holds one.
    Person {
        public_key: [u8; 32],
        legacy_secret: Option<String>,
    },
}

/// How a client was let in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// As the owner of the name; `newly_bound` when the key was bound to it just now.
    Person {
        newly_bound: bool,
    },
    Guest,
}

/// Why a client was refused a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    #[error(
        "the name {name:?} belongs to another key (fingerprint {fingerprint}); use --name to \
         choose another, or import {name}'s key"
    )]
    OtherKey { name: String, fingerprint: String },
    #[error(
        "the name {0:?} was registered by an older kingme whose secret this client does not hold; \
         connect once from the kingme that registered it (that binds its key to the name), or \
         use --name to choose another"
    )]
    LegacySecretRequired(String),
    #[error(
        "the name {0:?} belongs to a registered person; a guest must choose another name \
         (use --name)"
    )]
    Registered(String),
    #[error("a secret is at most {MAX_SECRET_TEXT} characters")]
    SecretTooLong,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The stored form of a version-2 secret or of a resume token: its SHA-256.
#[must_use]
pub fn hash_secret(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Compares two hashes in time independent of where they differ.
fn same_hash(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Decides whether `name` may connect with `claim`, binding the key to the name on its first
/// use (or on the first use of a version-2 name's secret).
pub fn admit(
    store: &mut dyn Store,
    name: &str,
    claim: &Claim,
    now_ms: i64,
) -> Result<Admission, IdentityError> {
    let registered = store.identity(name)?;
    let public_key = match (claim, registered) {
        (Claim::Guest, None) => return Ok(Admission::Guest),
        (Claim::Guest, Some(_)) => return Err(IdentityError::Registered(name.to_owned())),
        (
            Claim::Person {
                public_key,
                legacy_secret,
            },
            registered,
        ) => match registered {
            Some(StoredIdentity {
                public_key: Some(owner),
                ..
            }) => {
                return if owner == *public_key {
                    Ok(Admission::Person { newly_bound: false })
                } else {
                    Err(IdentityError::OtherKey {
                        name: name.to_owned(),
                        fingerprint: fingerprint(&owner),
                    })
                };
            }
            Some(StoredIdentity {
                public_key: None,
                legacy_secret_hash,
            }) => {
                let presented = legacy_secret
                    .as_deref()
                    .ok_or_else(|| IdentityError::LegacySecretRequired(name.to_owned()))?;
                if presented.len() > MAX_SECRET_TEXT {
                    return Err(IdentityError::SecretTooLong);
                }
                let matches = legacy_secret_hash
                    .is_some_and(|stored| same_hash(&hash_secret(presented), &stored));
                if !matches {
                    return Err(IdentityError::LegacySecretRequired(name.to_owned()));
                }
                public_key
            }
            None => public_key,
        },
    };
    if store.bind_key(name, public_key, now_ms)? {
        return Ok(Admission::Person { newly_bound: true });
    }
    // Another connection bound the name between the read and the write: judge by the winner.
    match store.identity(name)? {
        Some(StoredIdentity {
            public_key: Some(owner),
            ..
        }) if owner == *public_key => Ok(Admission::Person { newly_bound: false }),
        Some(StoredIdentity {
            public_key: Some(owner),
            ..
        }) => Err(IdentityError::OtherKey {
            name: name.to_owned(),
            fingerprint: fingerprint(&owner),
        }),
        _ => Err(IdentityError::LegacySecretRequired(name.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::SqliteStore;
    use kingme_shared::identity::SigningKey;
    use std::path::Path;

    fn store() -> SqliteStore {
        SqliteStore::open(Path::new(":memory:"), 0).unwrap()
    }

    fn public(seed: u8) -> [u8; 32] {
        SigningKey::from_bytes(&[seed; 32])
            .verifying_key()
            .to_bytes()
    }

    fn person(seed: u8, legacy_secret: Option<&str>) -> Claim {
        Claim::Person {
            public_key: public(seed),
            legacy_secret: legacy_secret.map(str::to_owned),
        }
    }

    #[test]
    fn a_name_belongs_to_the_first_key_and_only_that_key_admits_it() {
        let mut store = store();
        assert_eq!(
            admit(&mut store, "ann", &person(1, None), 1),
            Ok(Admission::Person { newly_bound: true })
        );
        assert_eq!(
            admit(&mut store, "ann", &person(1, None), 2),
            Ok(Admission::Person { newly_bound: false })
        );
        let refused = admit(&mut store, "ann", &person(2, None), 3).unwrap_err();
        assert_eq!(
            refused,
            IdentityError::OtherKey {
                name: "ann".into(),
                fingerprint: fingerprint(&public(1)),
            }
        );
        assert!(
            refused.to_string().starts_with(&format!(
                "the name \"ann\" belongs to another key (fingerprint {}); use --name to choose \
                 another, or import ann's key",
                fingerprint(&public(1))
            )),
            "{refused}"
        );
        assert_eq!(
            admit(&mut store, "ann", &Claim::Guest, 3),
            Err(IdentityError::Registered("ann".into()))
        );
        // Only the public key is stored.
        assert_eq!(
            store.identity("ann").unwrap(),
            Some(StoredIdentity {
                public_key: Some(public(1)),
                legacy_secret_hash: None
            })
        );
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
    fn a_version_2_name_is_bound_by_the_first_key_presenting_its_secret() {
        // A name as a version-2 server left it: the secret's hash, no key.
        let mut legacy = store_with_legacy_name("carol", "c0ffee");
        assert_eq!(
            admit(&mut legacy, "carol", &person(3, None), 1),
            Err(IdentityError::LegacySecretRequired("carol".into()))
        );
        assert_eq!(
            admit(&mut legacy, "carol", &person(3, Some("wrong")), 1),
            Err(IdentityError::LegacySecretRequired("carol".into()))
        );
        assert_eq!(
            admit(&mut legacy, "carol", &person(3, Some(&"f".repeat(500))), 1),
            Err(IdentityError::SecretTooLong)
        );
        assert_eq!(
            admit(&mut legacy, "carol", &person(3, Some("c0ffee")), 2),
            Ok(Admission::Person { newly_bound: true })
        );
        // From now on the key decides; the old secret no longer admits another key.
        assert_eq!(
            admit(&mut legacy, "carol", &person(3, None), 3),
            Ok(Admission::Person { newly_bound: false })
        );
        assert!(matches!(
            admit(&mut legacy, "carol", &person(4, Some("c0ffee")), 4),
            Err(IdentityError::OtherKey { .. })
        ));
    }

    fn store_with_legacy_name(name: &str, secret: &str) -> SqliteStore {
        let store = store();
        store
            .connection()
            .execute(
                "INSERT INTO identities (name, legacy_secret_hash, created_at_ms) \
                 VALUES (?1, ?2, 0)",
                rusqlite::params![name, hash_secret(secret)],
            )
            .unwrap();
        store
    }
}
