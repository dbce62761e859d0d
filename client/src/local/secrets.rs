//! The name secrets protocol-2 servers issued, one per server and name, in the user's config
//! directory (`secrets`, e.g. `~/.config/kingme/secrets` on Linux, or in `$KINGME_CONFIG_DIR`
//! when that is set). Protocol 3 proves a name with a key instead ([`crate::identity`]); the
//! client still reads this file and presents the secret it holds for a server and name once,
//! so that a name registered under protocol 2 passes to the person's key.
//!
//! The file is plain text, one `SERVER NAME SECRET` line per identity (the name is everything
//! between the first and the last space, so names with spaces work). It is written whole to a
//! temporary file and renamed over the old one, readable only by its owner on Unix. A damaged
//! file is an error naming the line, never a panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The longest secrets file read, in bytes.
pub(crate) const MAX_SECRETS_FILE: u64 = 256 * 1024;

/// The secrets this client holds, by server address and name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SecretBook {
    secrets: BTreeMap<(String, String), String>,
}

/// Where the secrets file lives by default, `None` without a home directory.
#[must_use]
pub(crate) fn default_path() -> Option<PathBuf> {
    crate::local::paths::config_dir().map(|dir| dir.join("secrets"))
}

impl SecretBook {
    /// Reads the book at `path`; a missing file is an empty book.
    pub fn load(path: &Path) -> anyhow::Result<SecretBook> {
        let Some(bytes) = crate::local::private_file::read(path, MAX_SECRETS_FILE, false)? else {
            return Ok(SecretBook::default());
        };
        let text = String::from_utf8(bytes)
            .map_err(|_| anyhow::anyhow!("{} is not text; move it away", path.display()))?;
        SecretBook::parse(&text).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))
    }

    /// Reads the text of a secrets file.
    pub fn parse(text: &str) -> Result<SecretBook, String> {
        let mut book = SecretBook::default();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts = line.split_once(' ').and_then(|(server, rest)| {
                rest.rsplit_once(' ')
                    .map(|(name, secret)| (server, name.trim(), secret))
            });
            match parts {
                Some((server, name, secret)) if !name.is_empty() && !secret.is_empty() => {
                    book.insert(server, name, secret);
                }
                _ => return Err(format!("line {}: expected SERVER NAME SECRET", index + 1)),
            }
        }
        Ok(book)
    }

    /// The text of the file.
    #[must_use]
    pub(crate) fn to_text(&self) -> String {
        let mut text =
            String::from("# kingme name secrets, one SERVER NAME SECRET a line; keep private.\n");
        for ((server, name), secret) in &self.secrets {
            text.push_str(server);
            text.push(' ');
            text.push_str(name);
            text.push(' ');
            text.push_str(secret);
            text.push('\n');
        }
        text
    }

    /// The secret for `name` on `server`.
    #[must_use]
    pub fn secret(&self, server: &str, name: &str) -> Option<&str> {
        self.secrets
            .get(&(server.to_owned(), name.to_owned()))
            .map(String::as_str)
    }

    /// Remembers a secret.
    pub fn insert(&mut self, server: &str, name: &str, secret: &str) {
        self.secrets
            .insert((server.to_owned(), name.to_owned()), secret.to_owned());
    }

    /// Writes the book to `path` through a temporary file, so a crash leaves the old one whole.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        crate::local::private_file::write(path, self.to_text().as_bytes())?;
        Ok(())
    }

    /// Adds one secret to the book at `path` and saves it.
    pub fn remember(path: &Path, server: &str, name: &str, secret: &str) -> anyhow::Result<()> {
        let mut book = SecretBook::load(path)?;
        book.insert(server, name, secret);
        book.save(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn secrets_are_kept_per_server_and_name_across_saves() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("secrets");
        assert_eq!(SecretBook::load(&path).unwrap(), SecretBook::default());
        SecretBook::remember(&path, "127.0.0.1:7878", "Ada Lovelace", "abc").unwrap();
        SecretBook::remember(&path, "example.org:7878", "Ada Lovelace", "def").unwrap();
        SecretBook::remember(&path, "127.0.0.1:7878", "bob", "ghi").unwrap();
        let book = SecretBook::load(&path).unwrap();
        assert_eq!(book.secret("127.0.0.1:7878", "Ada Lovelace"), Some("abc"));
        assert_eq!(book.secret("example.org:7878", "Ada Lovelace"), Some("def"));
        assert_eq!(book.secret("127.0.0.1:7878", "bob"), Some("ghi"));
        assert_eq!(book.secret("127.0.0.1:7878", "carol"), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "only the owner may read the secrets");
        }
    }

    #[test]
    fn a_damaged_file_names_the_line() {
        assert_eq!(
            SecretBook::parse("# comment\nserver name secret\nbroken\n"),
            Err("line 3: expected SERVER NAME SECRET".to_owned())
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secrets");
        fs::write(&path, vec![b'x'; MAX_SECRETS_FILE as usize + 1]).unwrap();
        let err = SecretBook::load(&path).unwrap_err().to_string();
        assert!(err.contains("more than it can be"), "{err}");
    }
}
