//! TLS on both doors: the server's certificate and key, where they come from, and the handshake
//! of an accepted connection.
//!
//! The certificate comes from the host's PEM files (`--tls-cert`, `--tls-key`, e.g. from an
//! ACME client), or, with neither, from a self-signed certificate the server makes on its first
//! start and keeps beside its database (`<db>-tls.pem`, the certificate and its key in one
//! private file), so that its fingerprint, which clients pin on first use, stays the same from
//! one start to the next. [`ServerTls::reload`] reads them again (the binary does on SIGHUP):
//! connections made from then on get the new certificate, those already open keep theirs.
//!
//! Each connection carries the [`ChannelBinding`] a person's proof must sign: the certificate
//! its handshake presented, or, behind a proxy that ends TLS (`--proxy-cert`), the proxy's.
//! `--plaintext` turns TLS off: the binding is then [`ChannelBinding::Unencrypted`] (or the
//! proxy's).

use crate::config::{Database, TlsSettings, TlsSource};
use crate::storage::location::default_db_path;
use kingme_shared::identity::ChannelBinding;
use parking_lot::RwLock;
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// The largest certificate or key file read (a chain of a few certificates is a few KiB).
pub const MAX_PEM_FILE: u64 = 1024 * 1024;

/// The file beside the database that keeps a self-signed certificate and its key.
pub const SELF_SIGNED_SUFFIX: &str = "-tls.pem";

/// Where a self-signed certificate is kept when the database is not a file (PostgreSQL): the
/// data directory.
pub const SERVER_SELF_SIGNED_FILE: &str = "kingme-server-tls.pem";

/// Why the server's certificate could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A certificate or key file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A certificate or key file is larger than any such file.
    #[error("{path} is {size} bytes; a certificate or key file is at most {MAX_PEM_FILE}")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The certificate file holds no certificate.
    #[error("{path} holds no PEM certificate (BEGIN CERTIFICATE): {detail}")]
    NoCertificate {
        /// The file.
        path: PathBuf,
        /// What the PEM reader said.
        detail: String,
    },
    /// The key file holds no private key.
    #[error("{path} holds no PEM private key (BEGIN PRIVATE KEY, RSA or EC): {detail}")]
    NoKey {
        /// The file.
        path: PathBuf,
        /// What the PEM reader said.
        detail: String,
    },
    /// The key does not belong to the certificate, or rustls refuses them.
    #[error("the certificate and key cannot be used together: {0}")]
    Mismatch(String),
    /// A self-signed certificate could not be made.
    #[error("cannot make a self-signed certificate: {0}")]
    Generate(String),
    /// The self-signed certificate could not be written beside the database.
    #[error("cannot keep the self-signed certificate in {path}: {source}")]
    Keep {
        /// The file it was to be kept in.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// A certificate in use: the acceptor that presents it and the binding proofs then sign.
#[derive(Clone)]
pub struct Certified {
    pub acceptor: TlsAcceptor,
    pub certificate: CertificateDer<'static>,
    pub binding: ChannelBinding,
}

impl std::fmt::Debug for Certified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Certified")
            .field("binding", &self.binding)
            .finish_non_exhaustive()
    }
}

/// The server's TLS: the certificate in use (none with `--plaintext`), where it comes from,
/// and the proxy's binding, if one ends TLS in front of the server.
#[derive(Debug)]
pub struct ServerTls {
    /// The PEM files read at start and on reload; `None`: plaintext, or a certificate made for
    /// this run only (an in-memory database).
    files: Option<(PathBuf, PathBuf)>,
    proxy: Option<ChannelBinding>,
    current: RwLock<Option<Arc<Certified>>>,
}

impl ServerTls {
    /// Opens what `settings` name for a server on `database` (blocking: it reads and may write
    /// files).
    ///
    /// # Errors
    /// A file that cannot be read or is not a usable certificate or key, or a self-signed
    /// certificate that cannot be made or kept.
    pub fn open(settings: &TlsSettings, database: &Database) -> Result<ServerTls, TlsError> {
        let proxy = match &settings.proxy_cert {
            Some(path) => Some(ChannelBinding::of_certificate(&read_certificates(path)?[0])),
            None => None,
        };
        let (files, current) = match &settings.source {
            TlsSource::Plaintext => (None, None),
            TlsSource::Files { cert, key } => {
                let files = (cert.clone(), key.clone());
                let certified = certified_from_files(&files.0, &files.1)?;
                (Some(files), Some(Arc::new(certified)))
            }
            TlsSource::SelfSigned => match self_signed_path(database) {
                Some(path) => {
                    keep_self_signed(&path)?;
                    let certified = certified_from_files(&path, &path)?;
                    (Some((path.clone(), path)), Some(Arc::new(certified)))
                }
                None => {
                    let (chain, key) = make_self_signed()?;
                    (None, Some(Arc::new(certified(chain, key)?)))
                }
            },
        };
        Ok(ServerTls {
            files,
            proxy,
            current: RwLock::new(current),
        })
    }

    /// The certificate in use, `None` with `--plaintext`.
    #[must_use]
    pub fn current(&self) -> Option<Arc<Certified>> {
        self.current.read().clone()
    }

    /// The binding a proof on a connection that `certified` accepted must sign (`None`: no TLS
    /// here): the proxy's certificate when one ends TLS in front of the server, else the one
    /// the handshake presented.
    #[must_use]
    pub fn binding(&self, certified: Option<&Certified>) -> ChannelBinding {
        match (self.proxy, certified) {
            (Some(proxy), _) => proxy,
            (None, Some(certified)) => certified.binding,
            (None, None) => ChannelBinding::Unencrypted,
        }
    }

    /// Whether the server speaks plaintext (`--plaintext`).
    #[must_use]
    pub fn is_plaintext(&self) -> bool {
        self.current().is_none()
    }

    /// Reads the certificate and key files again and uses them for the connections made from
    /// now on (blocking). Returns the new certificate's binding; on an error the old one stays.
    ///
    /// # Errors
    /// The files cannot be read or used; the certificate in use is kept.
    pub fn reload(&self) -> Result<Option<ChannelBinding>, TlsError> {
        let Some((cert, key)) = &self.files else {
            return Ok(self.current().map(|certified| certified.binding));
        };
        let certified = certified_from_files(cert, key)?;
        let binding = certified.binding;
        *self.current.write() = Some(Arc::new(certified));
        Ok(Some(binding))
    }
}

/// Where a self-signed certificate is kept for `database`: beside its file, in the data
/// directory for PostgreSQL, nowhere (made for this run) for an in-memory one.
#[must_use]
pub fn self_signed_path(database: &Database) -> Option<PathBuf> {
    match database {
        Database::InMemory => None,
        Database::File(path) => {
            let mut name = path.as_os_str().to_owned();
            name.push(SELF_SIGNED_SUFFIX);
            Some(PathBuf::from(name))
        }
        Database::Postgres(_) => default_db_path(SERVER_SELF_SIGNED_FILE),
    }
}

/// Runs the TLS handshake of an accepted connection, presenting `certified`.
///
/// # Errors
/// The client broke off or spoke something other than TLS.
pub async fn accept<S: AsyncRead + AsyncWrite + Unpin>(
    certified: &Certified,
    stream: S,
) -> std::io::Result<TlsStream<S>> {
    certified.acceptor.accept(stream).await
}

/// Reads a PEM file of at most [`MAX_PEM_FILE`] bytes.
fn read_pem(path: &Path) -> Result<Vec<u8>, TlsError> {
    let read = |source| TlsError::Read {
        path: path.to_owned(),
        source,
    };
    let size = std::fs::metadata(path).map_err(read)?.len();
    if size > MAX_PEM_FILE {
        return Err(TlsError::TooLarge {
            path: path.to_owned(),
            size,
        });
    }
    std::fs::read(path).map_err(read)
}

/// The certificate chain in a PEM file, the server's own first; at least one.
fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let bytes = read_pem(path)?;
    let no_certificate = |detail: String| TlsError::NoCertificate {
        path: path.to_owned(),
        detail,
    };
    let chain = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| no_certificate(err.to_string()))?;
    if chain.is_empty() {
        return Err(no_certificate(
            "the file has no certificate section".to_owned(),
        ));
    }
    Ok(chain)
}

fn certified_from_files(cert: &Path, key: &Path) -> Result<Certified, TlsError> {
    let chain = read_certificates(cert)?;
    let key_bytes = read_pem(key)?;
    let key_der = PrivateKeyDer::from_pem_slice(&key_bytes).map_err(|err| TlsError::NoKey {
        path: key.to_owned(),
        detail: err.to_string(),
    })?;
    certified(chain, key_der)
}

fn certified(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<Certified, TlsError> {
    let certificate = chain[0].clone();
    let config = ServerConfig::builder_with_provider(kingme_shared::tls::provider())
        .with_safe_default_protocol_versions()
        .map_err(|err| TlsError::Mismatch(err.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|err| TlsError::Mismatch(err.to_string()))?;
    Ok(Certified {
        acceptor: TlsAcceptor::from(Arc::new(config)),
        binding: ChannelBinding::of_certificate(&certificate),
        certificate,
    })
}

/// A new self-signed certificate for the loopback names, with its key.
fn make_self_signed() -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), TlsError> {
    let (certificate, key) = self_signed_pem()?;
    let chain = vec![
        CertificateDer::from_pem_slice(certificate.as_bytes())
            .map_err(|err| TlsError::Generate(err.to_string()))?,
    ];
    let key = PrivateKeyDer::from_pem_slice(key.as_bytes())
        .map_err(|err| TlsError::Generate(err.to_string()))?;
    Ok((chain, key))
}

/// A new self-signed certificate ready to present, configured as the server's own (the same
/// provider, protocol versions and settings): for tools that stand in for the server, such as
/// the floor's bare relay.
///
/// # Errors
/// The certificate cannot be made (no random source).
pub fn self_signed_acceptor() -> Result<TlsAcceptor, TlsError> {
    let (chain, key) = make_self_signed()?;
    Ok(certified(chain, key)?.acceptor)
}

/// A self-signed certificate and its key, in PEM. Its names are the loopback ones and this
/// machine's host name; clients trust it by its fingerprint, not its names.
///
/// # Errors
/// The certificate cannot be made (no random source).
pub fn self_signed_pem() -> Result<(String, String), TlsError> {
    let mut names = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
    ];
    if let Ok(host) = std::fs::read_to_string("/etc/hostname") {
        let host = host.trim();
        if !host.is_empty() && host.len() < 254 && !names.iter().any(|name| name == host) {
            names.push(host.to_owned());
        }
    }
    let made = rcgen::generate_simple_self_signed(names)
        .map_err(|err| TlsError::Generate(err.to_string()))?;
    Ok((made.cert.pem(), made.signing_key.serialize_pem()))
}

/// Makes the self-signed certificate at `path` unless it is there: written privately (mode
/// 0600) to a temporary file beside it, then moved into place only if no other server made one
/// meanwhile (then that one is used).
fn keep_self_signed(path: &Path) -> Result<(), TlsError> {
    if path.exists() {
        return Ok(());
    }
    let keep = |source| TlsError::Keep {
        path: path.to_owned(),
        source,
    };
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(keep)?;
    let (certificate, key) = self_signed_pem()?;
    // tempfile makes the file readable by its owner only.
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(keep)?;
    file.write_all(certificate.as_bytes()).map_err(keep)?;
    file.write_all(key.as_bytes()).map_err(keep)?;
    file.as_file().sync_all().map_err(keep)?;
    match file.persist_noclobber(path) {
        Ok(_) => {
            tracing::info!(path = %path.display(), "made a self-signed certificate");
            Ok(())
        }
        Err(err) if err.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(err) => Err(keep(err.error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(source: TlsSource) -> TlsSettings {
        TlsSettings {
            source,
            proxy_cert: None,
        }
    }

    #[test]
    fn a_self_signed_certificate_is_kept_beside_the_database_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let database = Database::File(dir.path().join("games.db"));
        let first = ServerTls::open(&settings(TlsSource::SelfSigned), &database).unwrap();
        let kept = dir.path().join("games.db-tls.pem");
        assert!(kept.exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "the key file is private");
        }
        let again = ServerTls::open(&settings(TlsSource::SelfSigned), &database).unwrap();
        let binding = |tls: &ServerTls| tls.current().unwrap().binding;
        assert_eq!(binding(&first), binding(&again));
        // An in-memory database gets a certificate of its own each time.
        let one = ServerTls::open(&settings(TlsSource::SelfSigned), &Database::InMemory).unwrap();
        let two = ServerTls::open(&settings(TlsSource::SelfSigned), &Database::InMemory).unwrap();
        assert_ne!(binding(&one), binding(&two));
    }

    #[test]
    fn reloading_reads_the_files_again() {
        let dir = tempfile::tempdir().unwrap();
        let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
        let write = || {
            let (certificate, private) = self_signed_pem().unwrap();
            std::fs::write(&cert, certificate).unwrap();
            std::fs::write(&key, private).unwrap();
        };
        write();
        let source = TlsSource::Files {
            cert: cert.clone(),
            key: key.clone(),
        };
        let tls = ServerTls::open(&settings(source), &Database::InMemory).unwrap();
        let before = tls.current().unwrap().binding;
        write();
        let after = tls.reload().unwrap().unwrap();
        assert_ne!(before, after);
        assert_eq!(tls.current().unwrap().binding, after);
        // A broken file is refused and the certificate in use stays.
        std::fs::write(&key, "not a key").unwrap();
        assert!(matches!(tls.reload(), Err(TlsError::NoKey { .. })));
        assert_eq!(tls.current().unwrap().binding, after);
    }

    #[test]
    fn bad_files_are_refused_with_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.pem");
        let open = |path: &Path| {
            ServerTls::open(
                &settings(TlsSource::Files {
                    cert: path.to_owned(),
                    key: path.to_owned(),
                }),
                &Database::InMemory,
            )
        };
        assert!(matches!(open(&path), Err(TlsError::Read { .. })));
        std::fs::write(&path, "hello").unwrap();
        assert!(matches!(open(&path), Err(TlsError::NoCertificate { .. })));
        std::fs::write(&path, vec![b'a'; (MAX_PEM_FILE + 1) as usize]).unwrap();
        assert!(matches!(open(&path), Err(TlsError::TooLarge { .. })));
        // A certificate with another certificate's key.
        let (certificate, _) = self_signed_pem().unwrap();
        let (_, other_key) = self_signed_pem().unwrap();
        std::fs::write(&path, format!("{certificate}{other_key}")).unwrap();
        assert!(matches!(open(&path), Err(TlsError::Mismatch(_))));
    }

    #[test]
    fn a_proxy_certificate_is_the_binding_and_plaintext_binds_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let proxy = dir.path().join("proxy.pem");
        let (certificate, _) = self_signed_pem().unwrap();
        std::fs::write(&proxy, &certificate).unwrap();
        let plain = ServerTls::open(&settings(TlsSource::Plaintext), &Database::InMemory).unwrap();
        assert!(plain.is_plaintext());
        assert_eq!(plain.binding(None), ChannelBinding::Unencrypted);
        let behind = ServerTls::open(
            &TlsSettings {
                source: TlsSource::Plaintext,
                proxy_cert: Some(proxy),
            },
            &Database::InMemory,
        )
        .unwrap();
        let der = CertificateDer::from_pem_slice(certificate.as_bytes()).unwrap();
        assert_eq!(behind.binding(None), ChannelBinding::of_certificate(&der));
    }
}
