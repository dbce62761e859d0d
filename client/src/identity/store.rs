//! The identities on this machine: one key file a name, `identities/NAME.pem` in the config
//! directory (the name spelled safely for any file system: letters, digits, `-` and `_` as
//! they are, every other byte as `%XX`). A key is made the first time a name is used, and a
//! file that cannot be read is an error that says why, never replaced behind the person's back.

use super::key_file::{KeyFileError, MAX_KEY_FILE, encode_key_file, parse_key_file};
use crate::local::private_file::{self, PrivateFileError};
use ed25519_dalek::SigningKey;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The folder of key files inside the config directory.
pub(crate) const IDENTITIES_DIR: &str = "identities";
/// The key files' extension.
pub(crate) const KEY_EXTENSION: &str = "pem";

/// Why an identity could not be read, made or moved.
#[derive(Debug, Error)]
pub enum IdentityError {
    /// The key file could not be read or written.
    #[error(transparent)]
    File(#[from] PrivateFileError),
    /// A key file is not a key.
    #[error("{}: {source}", path.display())]
    KeyFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: KeyFileError,
    },
    /// No key for the name here.
    #[error("there is no key for the name {name:?} on this machine ({})", path.display())]
    Missing {
        /// The name.
        name: String,
        /// Where its key would be.
        path: PathBuf,
    },
    /// A different key for the name is already here.
    #[error(
        "a different key for {name:?} is already here ({}, fingerprint {fingerprint}); \
         move that file away first if you mean to replace it",
        path.display()
    )]
    Exists {
        /// The name.
        name: String,
        /// The file that holds it.
        path: PathBuf,
        /// Its key's fingerprint.
        fingerprint: String,
    },
    /// A file name that tells no name.
    #[error("cannot tell the name from the file name {0:?}: pass it with --name")]
    NoName(String),
    /// The key directory could not be listed.
    #[error("cannot list {}: {source}", path.display())]
    List {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The key files in one directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyStore {
    dir: PathBuf,
}

/// One identity found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The name.
    pub name: String,
    /// Its key file.
    pub path: PathBuf,
    /// The fingerprint, or why the file cannot be read.
    pub fingerprint: Result<String, String>,
}

impl KeyStore {
    /// The key files in `dir`.
    #[must_use]
    pub fn new(dir: PathBuf) -> KeyStore {
        KeyStore { dir }
    }

    /// The key files in the config directory, `None` without one (no home directory).
    #[must_use]
    pub(crate) fn default_store() -> Option<KeyStore> {
        crate::local::paths::config_dir().map(|dir| KeyStore::new(dir.join(IDENTITIES_DIR)))
    }

    /// The directory of the key files.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `name`'s key.
    #[must_use]
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir
            .join(format!("{}.{KEY_EXTENSION}", file_stem_of(name)))
    }

    /// The file of the names whose chat `name` blocked, beside the key file.
    #[must_use]
    pub fn blocked_path(&self, name: &str) -> PathBuf {
        self.path(name)
            .with_extension(crate::local::blocked::BLOCKED_EXTENSION)
    }

    /// `name`'s key, `None` if this machine has none.
    pub fn load(&self, name: &str) -> Result<Option<SigningKey>, IdentityError> {
        read_key(&self.path(name), true)
    }

    /// `name`'s key, made and saved first if this machine has none. The flag says it was made.
    pub(crate) fn load_or_create(
        &self,
        name: &str,
        generate: impl FnOnce() -> SigningKey,
    ) -> Result<(SigningKey, bool), IdentityError> {
        if let Some(key) = self.load(name)? {
            return Ok((key, false));
        }
        let key = generate();
        self.save(name, &key)?;
        Ok((key, true))
    }

    /// Saves `key` as `name`'s, replacing any key file it had.
    pub fn save(&self, name: &str, key: &SigningKey) -> Result<(), IdentityError> {
        let path = self.path(name);
        let text = encode_key_file(key).map_err(|source| IdentityError::KeyFile {
            path: path.clone(),
            source,
        })?;
        private_file::write(&path, text.as_bytes())?;
        Ok(())
    }

    /// The key file's text of `name`'s key, to copy to another machine.
    pub fn export(&self, name: &str) -> Result<String, IdentityError> {
        let path = self.path(name);
        let key = self.load(name)?.ok_or_else(|| IdentityError::Missing {
            name: name.to_owned(),
            path: path.clone(),
        })?;
        encode_key_file(&key).map_err(|source| IdentityError::KeyFile { path, source })
    }

    /// Takes the key in the file at `from` as `name`'s (by default the name its file is named
    /// after, as `export` suggests: `ann.pem` is ann's). Importing the same key again is fine;
    /// another key for a name that already has one is refused. Returns the name and whether
    /// the key was new here.
    pub fn import(&self, from: &Path, name: Option<&str>) -> Result<(String, bool), IdentityError> {
        let name = match name {
            Some(name) => name.to_owned(),
            None => from
                .file_stem()
                .and_then(|stem| stem.to_str())
                .and_then(name_of_file_stem)
                .filter(|name| !name.trim().is_empty())
                .ok_or_else(|| IdentityError::NoName(from.display().to_string()))?,
        };
        // The copy may come from anywhere (a USB stick, a mail): its permissions are not ours.
        let key = read_key(from, false)?.ok_or_else(|| IdentityError::Missing {
            name: name.clone(),
            path: from.to_owned(),
        })?;
        if let Some(existing) = self.load(&name)? {
            if existing.to_bytes() == key.to_bytes() {
                return Ok((name, false));
            }
            return Err(IdentityError::Exists {
                fingerprint: fingerprint(&existing),
                path: self.path(&name),
                name,
            });
        }
        self.save(&name, &key)?;
        Ok((name, true))
    }

    /// Every identity on this machine, sorted by name.
    pub fn list(&self) -> Result<Vec<Listed>, IdentityError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            other => other.map_err(|source| IdentityError::List {
                path: self.dir.clone(),
                source,
            })?,
        };
        let mut listed = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some(KEY_EXTENSION) {
                continue;
            }
            let Some(name) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(name_of_file_stem)
            else {
                continue;
            };
            let fingerprint = match read_key(&path, true) {
                Ok(Some(key)) => Ok(fingerprint(&key)),
                Ok(None) => continue,
                Err(err) => Err(err.to_string()),
            };
            listed.push(Listed {
                name,
                path,
                fingerprint,
            });
        }
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(listed)
    }
}

/// The fingerprint people compare: the one the server names in a refusal.
#[must_use]
pub fn fingerprint(key: &SigningKey) -> String {
    kingme_shared::identity::fingerprint(&key.verifying_key().to_bytes())
}

fn read_key(path: &Path, private: bool) -> Result<Option<SigningKey>, IdentityError> {
    let Some(bytes) = private_file::read(path, MAX_KEY_FILE as u64, private)? else {
        return Ok(None);
    };
    parse_key_file(&bytes)
        .map(Some)
        .map_err(|source| IdentityError::KeyFile {
            path: path.to_owned(),
            source,
        })
}

/// A name spelled for a file name: ASCII letters, digits, `-` and `_` kept, every other byte
/// as `%XX` (so `Ada Lovelace` is `Ada%20Lovelace`, and no name can climb out of the folder).
#[must_use]
pub(crate) fn file_stem_of(name: &str) -> String {
    let mut stem = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_' {
            stem.push(char::from(byte));
        } else {
            stem.push_str(&format!("%{byte:02X}"));
        }
    }
    stem
}

/// The name a file stem spells, `None` if it is not a spelling [`file_stem_of`] makes... or a
/// plain file name someone chose (`ann` from `ann.pem`), which reads as itself.
#[must_use]
pub(crate) fn name_of_file_stem(stem: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(stem.len());
    let mut rest = stem.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        if first == b'%' {
            let hex = tail.get(..2)?;
            let hex = std::str::from_utf8(hex).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(first);
            rest = tail;
        }
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, KeyStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = KeyStore::new(dir.path().join("config").join(IDENTITIES_DIR));
        (dir, store)
    }

    #[test]
    fn names_become_safe_file_names_and_back() {
        for name in [
            "ann",
            "Ada Lovelace",
            "../../etc/passwd",
            "zoë",
            "a%b",
            ".hidden",
        ] {
            let stem = file_stem_of(name);
            assert!(
                stem.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_%".contains(&b)),
                "{stem}"
            );
            assert_eq!(name_of_file_stem(&stem).as_deref(), Some(name));
        }
        assert_eq!(file_stem_of("Ada Lovelace"), "Ada%20Lovelace");
        assert_eq!(name_of_file_stem("bad%2"), None);
        assert_eq!(name_of_file_stem("bad%zz"), None);
    }

    #[test]
    fn a_key_is_made_once_and_kept() {
        let (_dir, store) = store();
        assert!(store.load("ann").unwrap().is_none());
        let (made, created) = store
            .load_or_create("ann", || SigningKey::from_bytes(&[1; 32]))
            .unwrap();
        assert!(created);
        let (again, created) = store
            .load_or_create("ann", || SigningKey::from_bytes(&[2; 32]))
            .unwrap();
        assert!(!created);
        assert_eq!(made.to_bytes(), again.to_bytes());
        let listed = store.list().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].name, "ann");
        assert_eq!(listed[0].fingerprint, Ok(fingerprint(&made)));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(store.path("ann"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "only the owner may read a key");
        }
    }

    #[test]
    fn export_and_import_move_a_key_between_machines() {
        let (_one, home) = store();
        let (_two, away) = store();
        let (key, _) = home
            .load_or_create("Ada Lovelace", || SigningKey::from_bytes(&[3; 32]))
            .unwrap();
        let text = home.export("Ada Lovelace").unwrap();
        let carried = tempfile::tempdir().unwrap();
        let file = carried
            .path()
            .join(format!("{}.pem", file_stem_of("Ada Lovelace")));
        std::fs::write(&file, &text).unwrap();
        assert_eq!(
            away.import(&file, None).unwrap(),
            ("Ada Lovelace".to_owned(), true)
        );
        assert_eq!(
            away.load("Ada Lovelace").unwrap().unwrap().to_bytes(),
            key.to_bytes()
        );
        // Again: nothing changes.
        assert_eq!(
            away.import(&file, None).unwrap(),
            ("Ada Lovelace".to_owned(), false)
        );
        // Another key for a name that has one is refused, naming the one kept.
        away.save("bob", &SigningKey::from_bytes(&[4; 32])).unwrap();
        let err = away.import(&file, Some("bob")).unwrap_err().to_string();
        assert!(err.contains("a different key for \"bob\""), "{err}");
        assert!(
            err.contains(&fingerprint(&SigningKey::from_bytes(&[4; 32]))),
            "{err}"
        );
        assert!(matches!(
            home.export("nobody"),
            Err(IdentityError::Missing { .. })
        ));
    }

    #[test]
    fn unreadable_key_files_are_errors_not_new_keys() {
        let (_dir, store) = store();
        store
            .save("ann", &SigningKey::from_bytes(&[5; 32]))
            .unwrap();
        let path = store.path("ann");
        let good = std::fs::read(&path).unwrap();
        let check = |bytes: &[u8], needle: &str| {
            private_file::write(&path, bytes).unwrap();
            let err = store
                .load_or_create("ann", || SigningKey::from_bytes(&[6; 32]))
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{err}");
            assert!(err.contains(&path.display().to_string()), "{err}");
            // The damaged file is left for the person to look at.
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
        };
        check(&good[..good.len() / 2], "cut short");
        check(b"", "empty");
        check(&vec![b'x'; MAX_KEY_FILE + 1], "more than");
        let mut damaged = good.clone();
        damaged[40] ^= 0x01;
        check(&damaged, "damaged");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            private_file::write(&path, &good).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let err = store.load("ann").unwrap_err().to_string();
            assert!(err.contains("chmod 600"), "{err}");
        }
    }
}
