//! The name a person plays under when `--name` is not given: the name they chose before (kept
//! in the config directory), else `$USER`, then `$LOGNAME`, then the operating system's account
//! name. Never a shared constant: with none of these, the TUI asks and remembers, and plain
//! mode says to pass `--name`.

use crate::local::private_file;
use kingme_shared::protocol::MAX_NAME_CHARS;
use std::path::{Path, PathBuf};

/// The file of the remembered name in the config directory.
pub(crate) const NAME_FILE: &str = "name";

/// Where the remembered name lives, `None` without a config directory.
#[must_use]
pub(crate) fn remembered_path() -> Option<PathBuf> {
    crate::local::paths::config_dir().map(|dir| dir.join(NAME_FILE))
}

/// A usable name from `text`: control characters dropped, spaces trimmed, cut to the
/// protocol's limit; `None` if nothing is left.
#[must_use]
pub(crate) fn clean(text: &str) -> Option<String> {
    let name: String = text
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    let name = name.trim_end().to_owned();
    (!name.is_empty()).then_some(name)
}

/// The remembered name in the file at `path`, if there is a usable one.
#[must_use]
pub(crate) fn remembered(path: &Path) -> Option<String> {
    match private_file::read(path, 1024, false) {
        Ok(Some(bytes)) => clean(&String::from_utf8_lossy(&bytes)),
        Ok(None) => None,
        Err(err) => {
            tracing::warn!(%err, "cannot read the remembered name");
            None
        }
    }
}

/// Remembers `name` for the next start.
pub(crate) fn remember(path: &Path, name: &str) -> Result<(), private_file::PrivateFileError> {
    private_file::write(path, format!("{name}\n").as_bytes())
}

/// The name from the environment and the system: `user`, then `logname`, then `account`
/// (each as the caller read it), the first usable.
#[must_use]
pub(crate) fn from_system(
    user: Option<String>,
    logname: Option<String>,
    account: impl FnOnce() -> Option<String>,
) -> Option<String> {
    user.as_deref()
        .and_then(clean)
        .or_else(|| logname.as_deref().and_then(clean))
        .or_else(|| account().as_deref().and_then(clean))
}

/// The default name: the remembered one, else `$USER`, `$LOGNAME`, the account name.
#[must_use]
pub(crate) fn default_name() -> Option<String> {
    remembered_path()
        .as_deref()
        .and_then(remembered)
        .or_else(|| {
            from_system(
                std::env::var("USER").ok(),
                std::env::var("LOGNAME").ok(),
                || whoami::username().ok(),
            )
        })
}

/// What plain mode and the other commands say when there is no name.
pub(crate) const NO_NAME: &str = "kingme cannot tell your name: $USER and $LOGNAME are unset and the \
                           system has no account name for you; pass one with --name NAME";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_then_logname_then_the_account() {
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(
            from_system(some("ann"), some("bob"), || some("carol")),
            some("ann")
        );
        assert_eq!(
            from_system(None, some("bob"), || some("carol")),
            some("bob")
        );
        assert_eq!(
            from_system(some("  "), None, || some("carol")),
            some("carol")
        );
        assert_eq!(from_system(None, None, || None), None);
        assert_eq!(from_system(some("\u{7}"), some(""), || None), None);
        assert_eq!(
            clean(&"x".repeat(100)).unwrap().chars().count(),
            MAX_NAME_CHARS
        );
        assert_eq!(clean(" Ada Lovelace \n"), some("Ada Lovelace"));
    }

    #[test]
    fn a_chosen_name_is_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join(NAME_FILE);
        assert_eq!(remembered(&path), None);
        remember(&path, "Ada Lovelace").unwrap();
        assert_eq!(remembered(&path).as_deref(), Some("Ada Lovelace"));
    }
}
