//! Where the client keeps its files: the config directory (identities, the name secrets of
//! protocol 2, the remembered name; `~/.config/kingme` on Linux, or `$KINGME_CONFIG_DIR`) and
//! the data directory (guest resume tokens, the embedded server's database;
//! `~/.local/share/kingme` on Linux, or `$KINGME_DATA_DIR`).

use std::path::PathBuf;

/// The environment variable that overrides the config directory.
pub(crate) const CONFIG_DIR_VARIABLE: &str = "KINGME_CONFIG_DIR";

/// The environment variable that overrides the data directory (the server's too).
pub use kingme_server::embed::DATA_DIR_VARIABLE;

fn from_variable(variable: &str) -> Option<PathBuf> {
    std::env::var_os(variable)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
}

/// The config directory, `None` without a home directory.
#[must_use]
pub(crate) fn config_dir() -> Option<PathBuf> {
    from_variable(CONFIG_DIR_VARIABLE).or_else(|| {
        directories::ProjectDirs::from("", "", "kingme").map(|dirs| dirs.config_dir().to_owned())
    })
}

/// The data directory, `None` without a home directory.
#[must_use]
pub(crate) fn data_dir() -> Option<PathBuf> {
    from_variable(DATA_DIR_VARIABLE).or_else(|| {
        directories::ProjectDirs::from("", "", "kingme").map(|dirs| dirs.data_dir().to_owned())
    })
}
