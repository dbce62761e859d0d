//! The server's configuration file (`kingme-server --config FILE`): TOML with one key for every
//! command-line flag, named as the flag without its dashes in front (`grace-secs = 60`,
//! kebab-case like the flags; the one list, `admins = ["3f2a..."]`, is the repeatable
//! `--admin`). Read whole with a size limit, since the file may come from
//! anyone who can write to its directory; an unknown key or a bad value is refused with its
//! line and what is allowed. The binary lays the flags given on its command line over it.

use super::admins::Fingerprint;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest configuration file read: far more than every key with a long comment each.
pub const MAX_CONFIG_FILE_BYTES: usize = 64 * 1024;

/// The keys of a configuration file, each a flag of `kingme-server` (see its `--help`); a key
/// left out is the flag not given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[allow(missing_docs)] // Each key is documented by its flag.
pub struct ConfigFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace_secs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_connections: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handshake_timeout_secs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idle_timeout_secs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_games_per_player: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_burst: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_per_second: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_think_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_searches: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analyses: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_database: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fsync: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub egdb: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advertise: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls_cert: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls_key: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plaintext: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_cert: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_format: Option<LogFormat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admins: Option<Vec<Fingerprint>>,
}

/// How the log is written (`--log-format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LogFormat {
    /// A line of text an event, for people.
    #[default]
    Text,
    /// A JSON object an event, for log collectors.
    Json,
}

impl std::fmt::Display for LogFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        })
    }
}

/// A `--log-format` that is none.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a log format: use text or json")]
pub struct UnknownLogFormat(pub String);

impl std::str::FromStr for LogFormat {
    type Err = UnknownLogFormat;

    fn from_str(text: &str) -> Result<LogFormat, UnknownLogFormat> {
        match text {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err(UnknownLogFormat(text.to_owned())),
        }
    }
}

/// Why a configuration file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigFileError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is larger than any configuration.
    #[error("{} is over {MAX_CONFIG_FILE_BYTES} bytes: not a configuration file", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The text is not UTF-8, not TOML, has a key no flag has, or a value its flag refuses.
    #[error("line {line}: {message}")]
    Invalid {
        /// The line (from 1) where the trouble is.
        line: usize,
        /// What is wrong, and what is allowed.
        message: String,
    },
}

impl ConfigFile {
    /// Reads and parses the file at `path`, refusing one over [`MAX_CONFIG_FILE_BYTES`].
    ///
    /// # Errors
    /// When the file cannot be read, is too large, or [`ConfigFile::parse`] refuses it.
    pub fn read(path: &Path) -> Result<ConfigFile, ConfigFileError> {
        let read_error = |source| ConfigFileError::Read {
            path: path.to_owned(),
            source,
        };
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|file| {
                file.take(MAX_CONFIG_FILE_BYTES as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map_err(read_error)?;
        if bytes.len() > MAX_CONFIG_FILE_BYTES {
            return Err(ConfigFileError::TooLarge {
                path: path.to_owned(),
            });
        }
        ConfigFile::parse_bytes(&bytes)
    }

    /// Parses a configuration file's bytes: UTF-8 TOML, each key a flag's.
    ///
    /// # Errors
    /// [`ConfigFileError::Invalid`] with the line and what is wrong.
    pub fn parse_bytes(bytes: &[u8]) -> Result<ConfigFile, ConfigFileError> {
        let text = std::str::from_utf8(bytes).map_err(|err| ConfigFileError::Invalid {
            line: line_of(bytes, err.valid_up_to()),
            message: "the file is not UTF-8 text".to_owned(),
        })?;
        toml::from_str(text).map_err(|err| ConfigFileError::Invalid {
            line: err
                .span()
                .map_or(1, |span| line_of(text.as_bytes(), span.start)),
            message: err.message().trim_end().to_owned(),
        })
    }

    /// The same configuration fit to be printed or logged: the passwords of the database's and
    /// Redis's URLs replaced by `***`.
    #[must_use]
    pub fn masked(mut self) -> ConfigFile {
        use crate::storage::database_url::redacted;
        self.db = self.db.as_deref().map(redacted);
        self.cluster = self.cluster.as_deref().map(redacted);
        self
    }

    /// The keys whose values differ between `self` and `other` (a key one has and the other
    /// lacks counts), in alphabetical order.
    #[must_use]
    pub fn keys_differing(&self, other: &ConfigFile) -> Vec<String> {
        let (Ok(mine), Ok(theirs)) = (toml::Table::try_from(self), toml::Table::try_from(other))
        else {
            return Vec::new();
        };
        let keys: std::collections::BTreeSet<&String> = mine
            .keys()
            .chain(theirs.keys())
            .filter(|key| mine.get(*key) != theirs.get(*key))
            .collect();
        keys.into_iter().cloned().collect()
    }

    /// The configuration as the TOML of a configuration file.
    #[must_use]
    pub fn to_toml(&self) -> String {
        // Strings, numbers, booleans and paths: nothing here that TOML cannot write.
        toml::to_string(self).unwrap_or_else(|err| format!("# cannot be shown: {err}\n"))
    }
}

/// The line (from 1) of the byte at `offset`.
fn line_of(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&byte| byte == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error's text for `text`, or `ok`.
    fn check(text: &str) -> String {
        match ConfigFile::parse_bytes(text.as_bytes()) {
            Ok(_) => "ok".to_owned(),
            Err(err) => err.to_string(),
        }
    }

    #[test]
    fn keys_are_the_flags_names() {
        let file = ConfigFile::parse_bytes(
            b"listen = \"0.0.0.0:7878\"\ngrace-secs = 5\nfsync = true\ntls-cert = \"a.pem\"\n",
        )
        .unwrap();
        assert_eq!(file.listen.as_deref(), Some("0.0.0.0:7878"));
        assert_eq!(file.grace_secs, Some(5));
        assert_eq!(file.fsync, Some(true));
        assert_eq!(file.tls_cert, Some(PathBuf::from("a.pem")));
        assert_eq!(file.http, None);
        assert_eq!(check(""), "ok");
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused_with_their_line_and_what_is_allowed() {
        let unknown = check("listen = \"x\"\n\ngrace_secs = 5\n");
        assert!(
            unknown.starts_with("line 3: unknown field `grace_secs`"),
            "{unknown}"
        );
        assert!(unknown.contains("`grace-secs`"), "{unknown}");
        let negative = check("# a comment\ngrace-secs = -1\n");
        assert!(negative.starts_with("line 2: invalid value"), "{negative}");
        assert!(negative.contains("u64"), "{negative}");
        let wrong_type = check("fsync = \"yes\"\n");
        assert!(
            wrong_type.starts_with("line 1: invalid type"),
            "{wrong_type}"
        );
        assert!(wrong_type.contains("a boolean"), "{wrong_type}");
        let broken = check("listen = \n");
        assert!(broken.starts_with("line 1:"), "{broken}");
        let twice = check("fsync = true\nfsync = false\n");
        assert!(twice.starts_with("line 2:"), "{twice}");
        let binary = ConfigFile::parse_bytes(b"listen = \"a\"\n\xff").unwrap_err();
        assert_eq!(binary.to_string(), "line 2: the file is not UTF-8 text");
    }

    #[test]
    fn admins_are_fingerprints_and_a_bad_one_is_refused_with_its_line() {
        let good = format!(
            "admins = [\"{}\", \"{}\"]\n",
            "3F".repeat(16),
            "0a".repeat(16)
        );
        let file = ConfigFile::parse_bytes(good.as_bytes()).unwrap();
        let admins: Vec<String> = file.admins.unwrap().into_iter().map(String::from).collect();
        assert_eq!(admins, ["3f".repeat(16), "0a".repeat(16)]);
        let bad = check("grace-secs = 5\nadmins = [\"3f2a\"]\n");
        assert!(bad.starts_with("line 2:"), "{bad}");
        assert!(bad.contains("\"3f2a\" is not a key fingerprint"), "{bad}");
        assert!(bad.contains("kingme identity show"), "{bad}");
    }

    #[test]
    fn the_keys_that_differ_are_named_as_in_the_file() {
        let before =
            ConfigFile::parse_bytes(b"listen = \"a:1\"\nrate-burst = 5\nfsync = true\n").unwrap();
        let after =
            ConfigFile::parse_bytes(b"listen = \"a:2\"\nrate-burst = 5\ngrace-secs = 3\n").unwrap();
        assert_eq!(
            before.keys_differing(&after),
            ["fsync", "grace-secs", "listen"]
        );
        assert!(after.keys_differing(&after).is_empty());
    }

    #[test]
    fn a_file_over_the_limit_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.toml");
        std::fs::write(&path, "#".repeat(MAX_CONFIG_FILE_BYTES + 1)).unwrap();
        let err = ConfigFile::read(&path).unwrap_err();
        assert!(matches!(err, ConfigFileError::TooLarge { .. }), "{err}");
        std::fs::write(&path, "#".repeat(MAX_CONFIG_FILE_BYTES)).unwrap();
        assert_eq!(ConfigFile::read(&path).unwrap(), ConfigFile::default());
    }

    #[test]
    fn printing_masks_passwords_and_reads_back() {
        let file = ConfigFile {
            db: Some("postgres://kingme:s3cret@db:5432/kingme".to_owned()),
            cluster: Some("redis://:hidden@redis:6379".to_owned()),
            grace_secs: Some(60),
            ..ConfigFile::default()
        };
        let text = file.clone().masked().to_toml();
        assert!(
            !text.contains("s3cret") && !text.contains("hidden"),
            "{text}"
        );
        assert!(
            text.contains("postgres://kingme:***@db:5432/kingme"),
            "{text}"
        );
        let back = ConfigFile::parse_bytes(text.as_bytes()).unwrap();
        assert_eq!(back.grace_secs, Some(60));
    }
}
