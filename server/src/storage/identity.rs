//! Who may use a name. A person's name belongs to an Ed25519 public key: the first key that
//! proves itself for a name gets it (trust on first use, as SSH does with host keys), and from
//! then on only a proof by that key admits the name, from any address, port or server process
//! sharing the database. The server stores public keys only: nothing secret.
//!
//! Names registered by a version-2 server were bound to a secret whose SHA-256 is stored; the
//! first version-3 connection that presents that secret binds its key to the name, and the old
//! secret stops mattering. Guests play under a name nobody registered, unrated, with no key.
//! The name's ban is read in the same breath: a banned name is refused, and never bound.

use super::sanctions::Sanctions;
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

/// What the stored identities say of a claim, before anything is written.
enum Verdict<'a> {
    /// A guest under a name nobody registered.
    Guest,
    /// The person whose key already holds the name.
    Owner,
    /// The person whose key the name takes on this first use (or first use of its secret).
    FirstUse(&'a [u8; 32]),
}

/// Decides whether `name` may connect with `claim`, binding the key to the name on its first
/// use (or on the first use of a version-2 name's secret), and reads the name's sanctions in the
/// same breath. The claim is judged first (a wrong key is told whose the name is before any
/// ban); a banned name is not bound, so a sign-in refused for the ban leaves a free name free.
/// The name's sanctions come back: the caller refuses a banned name.
pub fn admit(
    store: &mut dyn Store,
    name: &str,
    claim: &Claim,
    now_ms: i64,
) -> Result<Sanctions, IdentityError> {
    let verdict = judge(store, name, claim)?;
    let sanctions = store.sanctions(name)?;
    if sanctions.ban.is_none()
        && let Verdict::FirstUse(public_key) = verdict
    {
        bind(store, name, public_key, now_ms)?;
    }
    Ok(sanctions)
}

/// Judges `claim` to `name` against the stored identities, writing nothing.
fn judge<'a>(
    store: &mut dyn Store,
    name: &str,
    claim: &'a Claim,
) -> Result<Verdict<'a>, IdentityError> {
    let registered = store.identity(name)?;
    match (claim, registered) {
        (Claim::Guest, None) => Ok(Verdict::Guest),
        (Claim::Guest, Some(_)) => Err(IdentityError::Registered(name.to_owned())),
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
                if owner == *public_key {
                    Ok(Verdict::Owner)
                } else {
                    Err(IdentityError::OtherKey {
                        name: name.to_owned(),
                        fingerprint: fingerprint(&owner),
                    })
                }
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
                Ok(Verdict::FirstUse(public_key))
            }
            None => Ok(Verdict::FirstUse(public_key)),
        },
    }
}

/// Binds `public_key` to `name` on its first use; if another connection bound the name between
/// the read and the write, the winner decides.
fn bind(
    store: &mut dyn Store,
    name: &str,
    public_key: &[u8; 32],
    now_ms: i64,
) -> Result<(), IdentityError> {
    if store.bind_key(name, public_key, now_ms)? {
        return Ok(());
    }
    // Another connection bound the name between the read and the write: judge by the winner.
    match store.identity(name)? {
        Some(StoredIdentity {
            public_key: Some(owner),
            ..
        }) if owner == *public_key => Ok(()),
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
    use crate::storage::sanctions::SanctionKind;
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
            Ok(Sanctions::default())
        );
        assert_eq!(
            admit(&mut store, "ann", &person(1, None), 2),
            Ok(Sanctions::default())
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
            Ok(Sanctions::default())
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
            Ok(Sanctions::default())
        );
        // From now on the key decides; the old secret no longer admits another key.
        assert_eq!(
            admit(&mut legacy, "carol", &person(3, None), 3),
            Ok(Sanctions::default())
        );
        assert!(matches!(
            admit(&mut legacy, "carol", &person(4, Some("c0ffee")), 4),
            Err(IdentityError::OtherKey { .. })
        ));
    }

    #[test]
    fn a_banned_name_is_judged_but_never_bound() {
        let mut store = store();
        admit(&mut store, "ann", &person(1, None), 1).unwrap();
        for name in ["ann", "nobody"] {
            store
                .sanction(name, SanctionKind::Ban, Some("spam"), 2)
                .unwrap();
        }
        let banned = Sanctions {
            ban: Some(Some("spam".into())),
            muted: false,
        };
        // The owner's key is told of the ban; another key is told whose the name is, first.
        assert_eq!(
            admit(&mut store, "ann", &person(1, None), 3),
            Ok(banned.clone())
        );
        assert!(matches!(
            admit(&mut store, "ann", &person(2, None), 3),
            Err(IdentityError::OtherKey { .. })
        ));
        // A banned name nobody holds stays free: the refused key is not bound to it, and a guest
        // is told of the ban.
        assert_eq!(
            admit(&mut store, "nobody", &person(3, None), 4),
            Ok(banned.clone())
        );
        assert_eq!(store.identity("nobody").unwrap(), None);
        assert_eq!(admit(&mut store, "nobody", &Claim::Guest, 4), Ok(banned));
        // Once the ban is lifted, the first key to come takes the name.
        assert!(store.lift_sanction("nobody", SanctionKind::Ban).unwrap());
        assert_eq!(
            admit(&mut store, "nobody", &person(4, None), 5),
            Ok(Sanctions::default())
        );
        assert_eq!(
            store
                .identity("nobody")
                .unwrap()
                .and_then(|held| held.public_key),
            Some(public(4))
        );
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
