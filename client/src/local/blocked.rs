//! The people whose chat a person hides: `/block NAME` and `/unblock NAME` in the chat line,
//! kept with the person's identity (`identities/NAME.blocked`, beside the key file), one name a
//! line. The file is read as hostile input: at most [`MAX_BLOCKED_FILE`] bytes and
//! [`MAX_BLOCKED`] names, UTF-8, each line empty, a `#` comment, or a name as the server
//! allows one (1 to 32 characters, no control characters); anything else is an error naming
//! the line, and the client then blocks nobody and leaves the file alone.

use super::private_file::{self, PrivateFileError};
use kingme_shared::protocol::MAX_NAME_CHARS;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The largest file of blocked names read, in bytes.
pub const MAX_BLOCKED_FILE: u64 = 64 * 1024;
/// The most names one person may block.
pub const MAX_BLOCKED: usize = 1000;
/// The extension of the file beside a key file.
pub const BLOCKED_EXTENSION: &str = "blocked";

/// Why the blocked names could not be read or changed.
#[derive(Debug, Error)]
pub enum BlockedError {
    /// The file could not be read or written.
    #[error(transparent)]
    File(#[from] PrivateFileError),
    /// The file is not text.
    #[error("{}: line {line} is not UTF-8 text; fix or remove the file", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
    },
    /// A line that is no name.
    #[error(
        "{}: line {line} is not a name (1 to {MAX_NAME_CHARS} characters, no control \
         characters); fix or remove the file",
        path.display()
    )]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
    },
    /// More names than anyone blocks.
    #[error("at most {MAX_BLOCKED} names can be blocked; unblock some first")]
    TooMany,
    /// A name that is none.
    #[error("{0:?} is not a name (1 to {MAX_NAME_CHARS} characters, no control characters)")]
    BadName(String),
}

/// The names whose chat is hidden.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blocked {
    names: BTreeSet<String>,
}

/// `text` as a name, trimmed, or `None` if it is none.
fn name(text: &str) -> Option<String> {
    let name = text.trim();
    let chars = name.chars().count();
    (chars > 0 && chars <= MAX_NAME_CHARS && !name.chars().any(char::is_control))
        .then(|| name.to_owned())
}

impl Blocked {
    /// Reads the file at `path`; a missing file blocks nobody.
    ///
    /// # Errors
    /// The file cannot be read, is too large, or has a line that is no name.
    pub fn load(path: &Path) -> Result<Blocked, BlockedError> {
        match private_file::read(path, MAX_BLOCKED_FILE, false)? {
            None => Ok(Blocked::default()),
            Some(bytes) => Blocked::parse(path, &bytes),
        }
    }

    /// Reads a file's bytes (`path` names it in errors).
    ///
    /// # Errors
    /// A line that is not UTF-8 or no name, or more than [`MAX_BLOCKED`] names.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Blocked, BlockedError> {
        let mut blocked = Blocked::default();
        for (index, line) in bytes.split(|&byte| byte == b'\n').enumerate() {
            let line_number = index + 1;
            let text = std::str::from_utf8(line).map_err(|_| BlockedError::NotText {
                path: path.to_owned(),
                line: line_number,
            })?;
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let name = name(text).ok_or_else(|| BlockedError::BadLine {
                path: path.to_owned(),
                line: line_number,
            })?;
            blocked.block(&name)?;
        }
        Ok(blocked)
    }

    /// Writes the names to `path`, whole or not at all.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), BlockedError> {
        let mut text = String::from("# Names whose chat kingme hides (/block, /unblock).\n");
        for name in &self.names {
            text.push_str(name);
            text.push('\n');
        }
        private_file::write(path, text.as_bytes())?;
        Ok(())
    }

    /// Hides `name`'s chat; `false` if it was hidden already.
    ///
    /// # Errors
    /// `name` is no name, or [`MAX_BLOCKED`] names are blocked already.
    pub fn block(&mut self, text: &str) -> Result<bool, BlockedError> {
        let name = name(text).ok_or_else(|| BlockedError::BadName(text.to_owned()))?;
        if self.names.contains(&name) {
            return Ok(false);
        }
        if self.names.len() >= MAX_BLOCKED {
            return Err(BlockedError::TooMany);
        }
        Ok(self.names.insert(name))
    }

    /// Shows `name`'s chat again; `false` if it was not hidden.
    pub fn unblock(&mut self, text: &str) -> bool {
        self.names.remove(text.trim())
    }

    /// Whether `name`'s chat is hidden.
    #[must_use]
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Result<Blocked, BlockedError> {
        Blocked::parse(Path::new("ann.blocked"), text)
    }

    #[test]
    fn names_are_read_a_line_each_and_written_back() {
        let blocked = parse(b"# comment\nmallory\n\n  eve  \r\n").unwrap();
        assert!(blocked.contains("mallory") && blocked.contains("eve"));
        assert!(!blocked.contains("bob"));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ann.blocked");
        assert_eq!(Blocked::load(&path).unwrap(), Blocked::default());
        blocked.save(&path).unwrap();
        assert_eq!(Blocked::load(&path).unwrap(), blocked);
    }

    #[test]
    fn a_hostile_file_is_refused_with_its_line() {
        let err = parse(b"bob\nx\x1b[2Jy\n").unwrap_err().to_string();
        assert!(err.contains("line 2 is not a name"), "{err}");
        let err = parse(b"bob\n\xff\xfe\n").unwrap_err().to_string();
        assert!(err.contains("line 2 is not UTF-8"), "{err}");
        let long = format!("{}\n", "n".repeat(MAX_NAME_CHARS + 1));
        assert!(parse(long.as_bytes()).is_err());
        let many: String = (0..=MAX_BLOCKED).map(|n| format!("p{n}\n")).collect();
        assert!(matches!(parse(many.as_bytes()), Err(BlockedError::TooMany)));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.blocked");
        std::fs::write(&path, "a\n".repeat(MAX_BLOCKED_FILE as usize)).unwrap();
        assert!(matches!(
            Blocked::load(&path),
            Err(BlockedError::File(PrivateFileError::TooLarge { .. }))
        ));
    }

    #[test]
    fn block_and_unblock_say_whether_they_changed_anything() {
        let mut blocked = Blocked::default();
        assert!(blocked.block(" mallory ").unwrap());
        assert!(!blocked.block("mallory").unwrap());
        assert!(blocked.block("").is_err());
        assert!(blocked.unblock("mallory"));
        assert!(!blocked.unblock("mallory"));
    }
}
