//! Guests' resume tokens, kept in the data directory (`resume/NAME`, owner-only) so that a
//! guest whose client restarts takes its seats back like a person does. (A person needs none:
//! the server seats a person again by the key.) A token the server no longer knows is simply
//! refused and the client starts afresh, so one file a guest name serves every server.

use crate::identity::store::file_stem_of;
use crate::local::private_file;
use std::path::{Path, PathBuf};

/// The folder of the tokens in the data directory.
pub(crate) const RESUME_DIR: &str = "resume";
/// The longest token file read, in bytes.
pub(crate) const MAX_TOKEN_FILE: u64 = 1024;

/// The tokens in one directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumeTokens {
    dir: PathBuf,
}

impl ResumeTokens {
    /// The tokens in `dir`.
    #[must_use]
    pub fn new(dir: PathBuf) -> ResumeTokens {
        ResumeTokens { dir }
    }

    /// The tokens in the data directory, `None` without one.
    #[must_use]
    pub(crate) fn default_store() -> Option<ResumeTokens> {
        crate::local::paths::data_dir().map(|dir| ResumeTokens::new(dir.join(RESUME_DIR)))
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(file_stem_of(name))
    }

    /// The guest `name`'s token, if one is kept and readable (a damaged one is ignored: the
    /// worst is starting afresh).
    #[must_use]
    pub fn load(&self, name: &str) -> Option<String> {
        read_token(&self.path(name))
    }

    /// Keeps `token` for the guest `name`.
    pub fn save(&self, name: &str, token: &str) -> Result<(), private_file::PrivateFileError> {
        private_file::write(&self.path(name), token.as_bytes())
    }

    /// Forgets the guest `name`'s token.
    pub(crate) fn forget(&self, name: &str) {
        let _ = std::fs::remove_file(self.path(name));
    }
}

fn read_token(path: &Path) -> Option<String> {
    match private_file::read(path, MAX_TOKEN_FILE, true) {
        Ok(Some(bytes)) => String::from_utf8(bytes)
            .ok()
            .map(|token| token.trim().to_owned())
            .filter(|token| !token.is_empty() && token.chars().all(|c| c.is_ascii_graphic())),
        Ok(None) => None,
        Err(err) => {
            tracing::warn!(%err, "cannot read the guest's resume token");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_kept_per_guest_name() {
        let dir = tempfile::tempdir().unwrap();
        let tokens = ResumeTokens::new(dir.path().join(RESUME_DIR));
        assert_eq!(tokens.load("guest ann"), None);
        tokens.save("guest ann", "abc123").unwrap();
        tokens.save("bob", "def456").unwrap();
        assert_eq!(tokens.load("guest ann").as_deref(), Some("abc123"));
        assert_eq!(tokens.load("bob").as_deref(), Some("def456"));
        tokens.forget("bob");
        assert_eq!(tokens.load("bob"), None);
        // A damaged token file is as good as none.
        private_file::write(&tokens.path("guest ann"), b"\xff\x00").unwrap();
        assert_eq!(tokens.load("guest ann"), None);
    }
}
