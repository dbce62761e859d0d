//! The servers this client knows by their certificates, as SSH knows hosts: `known_servers` in
//! the config directory, one line a server, `HOST:PORT` and the SHA-256 fingerprint of the
//! certificate it showed the first time (64 hex digits), with `#` comments and blank lines.
//!
//! A certificate that chains to a CA of the system is trusted as usual and not written here;
//! any other is trusted on first use and pinned, and a server that later shows another is
//! refused until the person accepts the new one (`kingme trust HOST:PORT`). The file is read as
//! hostile input: a size limit, a line limit, and an error that names the line and what is
//! wrong with it.

use crate::local::private_file::{self, PrivateFileError};
use kingme_shared::identity::{BINDING_BYTES, ChannelBinding};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The file's name in the config directory.
pub(crate) const FILE_NAME: &str = "known_servers";
/// The largest file read.
pub(crate) const MAX_FILE: u64 = 256 * 1024;
/// The most servers the file may list.
pub(crate) const MAX_SERVERS: usize = 4096;
/// The longest `HOST:PORT` accepted (a DNS name is at most 253 bytes).
pub(crate) const MAX_ADDRESS: usize = 262;

/// Why the file could not be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum KnownServersError {
    #[error(transparent)]
    File(#[from] PrivateFileError),
    #[error("{path}: line {line}: {reason}; fix or delete that line")]
    BadLine {
        path: PathBuf,
        line: usize,
        reason: LineError,
    },
    #[error("{path} lists more than {MAX_SERVERS} servers; remove the ones you no longer use")]
    TooMany { path: PathBuf },
}

/// What is wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LineError {
    #[error("expected HOST:PORT and a fingerprint separated by a space")]
    Shape,
    #[error("the address {0:?} is not HOST:PORT")]
    Address(String),
    #[error("the fingerprint is not 64 hex digits (a SHA-256)")]
    Fingerprint,
    #[error("{0} is listed twice")]
    Twice(String),
}

/// The pinned servers: address to certificate binding.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct KnownServers {
    pins: BTreeMap<String, ChannelBinding>,
}

impl KnownServers {
    /// Reads the file at `path`; a missing file knows no server.
    ///
    /// # Errors
    /// The file cannot be read, is too large, or a line is malformed (named with its number).
    pub(crate) fn load(path: &Path) -> Result<KnownServers, KnownServersError> {
        let Some(bytes) = private_file::read(path, MAX_FILE, false)? else {
            return Ok(KnownServers::default());
        };
        let text = String::from_utf8_lossy(&bytes);
        KnownServers::parse(&text).map_err(|(line, reason)| match reason {
            None => KnownServersError::TooMany {
                path: path.to_owned(),
            },
            Some(reason) => KnownServersError::BadLine {
                path: path.to_owned(),
                line,
                reason,
            },
        })
    }

    /// Parses the file's text. An error names the line (from 1) and what is wrong; `None` for
    /// a file with too many servers.
    ///
    /// # Errors
    /// The first malformed line, or too many servers.
    pub(crate) fn parse(text: &str) -> Result<KnownServers, (usize, Option<LineError>)> {
        let mut pins = BTreeMap::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split_whitespace();
            let (Some(address), Some(fingerprint), None) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err((number, Some(LineError::Shape)));
            };
            let address = normal_address(address)
                .ok_or_else(|| (number, Some(LineError::Address(clip(address)))))?;
            let binding =
                parse_fingerprint(fingerprint).ok_or((number, Some(LineError::Fingerprint)))?;
            if pins.contains_key(&address) {
                return Err((number, Some(LineError::Twice(address))));
            }
            if pins.len() == MAX_SERVERS {
                return Err((number, None));
            }
            pins.insert(address, binding);
        }
        Ok(KnownServers { pins })
    }

    /// The certificate pinned for `address`, if any.
    #[must_use]
    pub(crate) fn pin(&self, address: &str) -> Option<ChannelBinding> {
        self.pins.get(&normal_address(address)?).copied()
    }

    /// Pins `binding` for `address`, replacing what was pinned. An address that is not
    /// `HOST:PORT` is not pinned (it could not have been connected to).
    pub(crate) fn insert(&mut self, address: &str, binding: ChannelBinding) {
        if let Some(address) = normal_address(address) {
            self.pins.insert(address, binding);
        }
    }

    /// The file's text: a header, then one line a server.
    #[must_use]
    pub(crate) fn to_text(&self) -> String {
        let mut text = String::from(
            "# kingme's known servers: HOST:PORT and the SHA-256 fingerprint of its TLS\n\
             # certificate, pinned on first use. `kingme trust HOST:PORT` replaces a line.\n",
        );
        for (address, binding) in &self.pins {
            // Writing into a String cannot fail.
            let _ = writeln!(text, "{address} {binding}");
        }
        text
    }

    /// Writes the file whole (a crash leaves the old or the new file).
    ///
    /// # Errors
    /// The file cannot be written.
    pub(crate) fn save(&self, path: &Path) -> Result<(), KnownServersError> {
        Ok(private_file::write(path, self.to_text().as_bytes())?)
    }
}

/// The default place of the file, `None` without a config directory.
#[must_use]
pub(crate) fn default_path() -> Option<PathBuf> {
    crate::local::paths::config_dir().map(|dir| dir.join(FILE_NAME))
}

/// `HOST:PORT` with the host in lower case (names are case-insensitive), or `None` when it is
/// not an address TLS could check.
#[must_use]
pub(crate) fn normal_address(address: &str) -> Option<String> {
    if address.len() > MAX_ADDRESS || kingme_shared::tls::server_name(address).is_err() {
        return None;
    }
    Some(address.to_ascii_lowercase())
}

fn parse_fingerprint(text: &str) -> Option<ChannelBinding> {
    if text.len() != BINDING_BYTES * 2 || !text.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    let mut hash = [0_u8; BINDING_BYTES];
    for (at, byte) in hash.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(at * 2..at * 2 + 2)?, 16).ok()?;
    }
    Some(ChannelBinding::TlsServerEndPoint(hash))
}

/// At most 40 characters of a bad field, for the error.
fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    #[test]
    fn a_written_file_reads_back_the_same() {
        let mut known = KnownServers::default();
        known.insert("LocalHost:7878", ChannelBinding::of_certificate(b"abc"));
        known.insert("[::1]:7878", ChannelBinding::TlsServerEndPoint([7; 32]));
        let text = known.to_text();
        assert!(text.contains(&format!("localhost:7878 {ONE}")));
        let back = KnownServers::parse(&text).unwrap();
        assert_eq!(back, known);
        assert_eq!(
            back.pin("localhost:7878"),
            Some(ChannelBinding::of_certificate(b"abc"))
        );
        assert_eq!(back.pin("LOCALHOST:7878"), back.pin("localhost:7878"));
        assert_eq!(back.pin("127.0.0.1:7878"), None);
    }

    #[test]
    fn bad_lines_are_named_with_what_is_wrong() {
        let case = |text: &str| KnownServers::parse(text).unwrap_err();
        assert_eq!(case("localhost:1"), (1, Some(LineError::Shape)));
        assert_eq!(
            case(&format!("# c\n\nlocalhost:1 {ONE} extra")),
            (3, Some(LineError::Shape))
        );
        assert_eq!(
            case(&format!("localhost {ONE}")),
            (1, Some(LineError::Address("localhost".into())))
        );
        assert_eq!(case("localhost:1 abcd"), (1, Some(LineError::Fingerprint)));
        assert_eq!(
            case(&format!("localhost:1 {}", "zz".repeat(32))),
            (1, Some(LineError::Fingerprint))
        );
        assert_eq!(
            case(&format!("localhost:1 {ONE}\nLOCALHOST:1 {ONE}")),
            (2, Some(LineError::Twice("localhost:1".into())))
        );
        // A multi-byte character where a hex digit should be: an error, not a panic.
        assert_eq!(
            case(&format!("localhost:1 é{}", &ONE[2..])),
            (1, Some(LineError::Fingerprint))
        );
    }

    #[test]
    fn the_file_is_bounded() {
        let many: String = (0..=MAX_SERVERS)
            .map(|port| format!("h:{port} {ONE}\n"))
            .collect();
        assert_eq!(
            KnownServers::parse(&many).unwrap_err(),
            (MAX_SERVERS + 1, None)
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, vec![b'#'; MAX_FILE as usize + 1]).unwrap();
        assert!(matches!(
            KnownServers::load(&path),
            Err(KnownServersError::File(PrivateFileError::TooLarge { .. }))
        ));
        assert_eq!(
            KnownServers::load(&dir.path().join("none")).unwrap(),
            KnownServers::default()
        );
    }
}
