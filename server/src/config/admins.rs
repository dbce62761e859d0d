//! The server's admins, named by the fingerprints of their identity keys (`admins = [...]` in
//! the configuration file, `--admin FINGERPRINT` on the command line): the SHA-256 fingerprint
//! `kingme identity show` prints, 32 hexadecimal digits. The list is shared by every connection
//! and replaced whole when SIGHUP re-reads the configuration file, so a change holds for the
//! next admin message without a restart.

use parking_lot::RwLock;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// Hexadecimal digits in a key's fingerprint (`kingme_shared::identity::fingerprint`).
pub const FINGERPRINT_DIGITS: usize = 32;

/// A key's fingerprint as an admin is named by: 32 hexadecimal digits, kept in lower case.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Fingerprint(String);

/// A text that is no fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a key fingerprint: an admin is named by the {FINGERPRINT_DIGITS} hexadecimal \
     digits `kingme identity show` prints after \"fingerprint:\""
)]
pub struct BadFingerprint(pub String);

impl std::str::FromStr for Fingerprint {
    type Err = BadFingerprint;

    fn from_str(text: &str) -> Result<Fingerprint, BadFingerprint> {
        let digits = text.trim();
        if digits.len() != FINGERPRINT_DIGITS || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            // Quoted back short: the text may be anything.
            let quoted: String = text.chars().take(2 * FINGERPRINT_DIGITS).collect();
            return Err(BadFingerprint(quoted));
        }
        Ok(Fingerprint(digits.to_ascii_lowercase()))
    }
}

impl TryFrom<String> for Fingerprint {
    type Error = BadFingerprint;

    fn try_from(text: String) -> Result<Fingerprint, BadFingerprint> {
        text.parse()
    }
}

impl From<Fingerprint> for String {
    fn from(fingerprint: Fingerprint) -> String {
        fingerprint.0
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The admins in force: shared by the server's parts, replaced whole on SIGHUP.
#[derive(Debug, Default)]
pub struct Admins {
    fingerprints: RwLock<BTreeSet<Fingerprint>>,
}

impl Admins {
    /// The admins named by `fingerprints`.
    #[must_use]
    pub fn new(fingerprints: impl IntoIterator<Item = Fingerprint>) -> Admins {
        Admins {
            fingerprints: RwLock::new(fingerprints.into_iter().collect()),
        }
    }

    /// Makes `fingerprints` the admins from now on; returns how many there are.
    pub fn replace(&self, fingerprints: impl IntoIterator<Item = Fingerprint>) -> usize {
        let mut held = self.fingerprints.write();
        *held = fingerprints.into_iter().collect();
        held.len()
    }

    /// Whether the key of this fingerprint (`kingme_shared::identity::fingerprint`'s text) is
    /// an admin's.
    #[must_use]
    pub fn contains(&self, fingerprint: &str) -> bool {
        self.fingerprints
            .read()
            .iter()
            .any(|admin| admin.0 == fingerprint)
    }

    /// The admins' fingerprints, in order.
    #[must_use]
    pub fn list(&self) -> Vec<Fingerprint> {
        self.fingerprints.read().iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_is_32_hex_digits_kept_in_lower_case() {
        let upper = "3F2A0000000000000000000000000000";
        let read: Fingerprint = upper.parse().unwrap();
        assert_eq!(read.to_string(), upper.to_ascii_lowercase());
        for bad in [
            "",
            "3f2a",
            &"g".repeat(32),
            &"a".repeat(33),
            &"é".repeat(16),
        ] {
            let err = bad.parse::<Fingerprint>().unwrap_err().to_string();
            assert!(err.contains("not a key fingerprint"), "{err}");
            assert!(err.contains("kingme identity show"), "{err}");
        }
        // A long text is quoted back short.
        let long = "x".repeat(10_000);
        let err = long.parse::<Fingerprint>().unwrap_err().to_string();
        assert!(err.len() < 300, "{err}");
    }

    #[test]
    fn admins_are_found_by_fingerprint_and_replaced_whole() {
        let a: Fingerprint = "a".repeat(32).parse().unwrap();
        let b: Fingerprint = "b".repeat(32).parse().unwrap();
        let admins = Admins::new([a.clone()]);
        assert!(admins.contains(&"a".repeat(32)));
        assert!(!admins.contains(&"b".repeat(32)));
        assert_eq!(admins.replace([b.clone()]), 1);
        assert!(!admins.contains(&"a".repeat(32)));
        assert_eq!(admins.list(), vec![b]);
    }
}
