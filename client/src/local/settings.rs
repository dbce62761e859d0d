//! The person's choices kept between runs: the colour theme, whether every square shows its
//! number, the create dialog's last game settings, and the name (which the identity work may
//! fill too). They live in `settings.toml` in the config directory (`~/.config/kingme/` on
//! Linux, or `$KINGME_CONFIG_DIR`), beside the secrets file.
//!
//! A missing file is the defaults. A damaged one (bad TOML, a value of the wrong kind, too
//! large) is an error naming the file and what is wrong; the client then runs on the defaults
//! and leaves the file alone, so nothing the person wrote is lost. Unknown keys are ignored and
//! missing ones take their default, so older and newer clients share one file.

use anyhow::Context;
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{SeatChoice, TimeControl};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The largest settings file read, in bytes.
pub(crate) const MAX_SETTINGS_FILE: u64 = 64 * 1024;

/// Everything kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The player's name, when one was chosen.
    pub name: Option<String>,
    /// The colour theme's name.
    pub theme: Option<String>,
    /// Whether every square shows its number (the `#` key).
    pub square_numbers: bool,
    /// The create dialog's choices the last time a game was created.
    pub last_game: Option<GameSettings>,
}

/// The create dialog's choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Which game.
    pub kind: GameKind,
    /// Which side the person takes.
    pub seat: SeatChoice,
    /// `None` for an open seat.
    pub opponent: Option<Level>,
    /// The time control.
    pub time_control: TimeControl,
}

/// Where the settings file lives by default, `None` without a home directory.
#[must_use]
pub(crate) fn default_path() -> Option<PathBuf> {
    crate::local::paths::config_dir().map(|dir| dir.join("settings.toml"))
}

impl Settings {
    /// Reads the settings at `path`; a missing file gives the defaults.
    pub fn load(path: &Path) -> anyhow::Result<Settings> {
        let size = match fs::metadata(path) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Settings::default());
            }
            Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
            Ok(meta) => meta.len(),
        };
        if size > MAX_SETTINGS_FILE {
            anyhow::bail!(
                "{} is {size} bytes, more than a settings file can be ({MAX_SETTINGS_FILE}); \
                 move it away",
                path.display()
            );
        }
        let text =
            fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        Settings::parse(&text).map_err(|err| {
            anyhow::anyhow!(
                "the settings file {} is damaged: {err}; fix or delete it (the defaults are used \
                 meanwhile, and the file is left as it is)",
                path.display()
            )
        })
    }

    /// Reads the text of a settings file.
    pub fn parse(text: &str) -> Result<Settings, String> {
        toml::from_str(text).map_err(|err| err.to_string().trim_end().replace('\n', " "))
    }

    /// Writes the settings to `path` (a temporary file renamed over the old one).
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let text = toml::to_string(self).context("cannot write the settings as TOML")?;
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let temporary = path.with_extension("toml.new");
        let mut file = fs::File::create(&temporary)
            .with_context(|| format!("cannot write {}", temporary.display()))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .with_context(|| format!("cannot write {}", temporary.display()))?;
        fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::Side;

    #[test]
    fn settings_survive_a_round_trip_through_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("kingme").join("settings.toml");
        assert_eq!(Settings::load(&path).expect("missing"), Settings::default());
        let settings = Settings {
            name: Some("ada".to_owned()),
            theme: Some("Monochrome".to_owned()),
            square_numbers: true,
            last_game: Some(GameSettings {
                kind: GameKind::Pente,
                seat: SeatChoice::Side(Side::Second),
                opponent: Some(Level::Expert),
                time_control: TimeControl::Incremental {
                    initial_secs: 300,
                    increment_secs: 3,
                },
            }),
        };
        settings.save(&path).expect("saved");
        assert_eq!(Settings::load(&path).expect("read"), settings);
    }

    #[test]
    fn a_damaged_file_is_a_clear_error_and_unknown_keys_are_ignored() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("settings.toml");
        fs::write(&path, "theme = \"Ocean\"\nsquare_numbers = \"yes\"\n").expect("write");
        let err = Settings::load(&path)
            .expect_err("a string for a boolean")
            .to_string();
        assert!(err.contains("settings.toml is damaged"), "{err}");
        assert!(err.contains("line 2"), "{err}");
        assert!(err.contains("fix or delete it"), "{err}");
        let settings = Settings::parse("theme = \"Ocean\"\nfuture = 1\n").expect("unknown key");
        assert_eq!(settings.theme.as_deref(), Some("Ocean"));
        fs::write(&path, vec![b'#'; MAX_SETTINGS_FILE as usize + 1]).expect("write");
        let err = Settings::load(&path).expect_err("too big").to_string();
        assert!(err.contains("move it away"), "{err}");
    }
}
