//! Dialling a server: the TCP connection and, unless the server runs `--plaintext`, TLS over it,
//! with the server's certificate trusted as a person would expect (SSH's way for servers
//! without a CA): a certificate that chains to a CA of the system; else the one pinned for the
//! address in `known_servers`; else, on first contact, pinned now and said so. A server that
//! shows another certificate than the pinned one is refused, naming both fingerprints and the
//! command that accepts the new one.
//!
//! What the handshake saw becomes the connection's [`ChannelBinding`], which a person's proof
//! signs, so the proof is good on this connection only.

use crate::local::known_servers::{self, KnownServers};
use kingme_shared::identity::ChannelBinding;
use kingme_shared::tls::{self, CertificateCheck, Verifier};
use rustls::RootCertStore;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::ServerCertVerifier;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_util::either::Either;

/// A connection to a server: TLS, or a plain socket to a `--plaintext` server.
pub type ServerStream = Either<TlsStream<TcpStream>, TcpStream>;

/// How the client secures its connection and trusts the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Security {
    /// TLS; the certificate trusted by a system CA, or pinned on first use in this
    /// `known_servers` file (`None`: pins kept for this run only).
    Tls {
        /// The `known_servers` file pins are kept in, if any.
        known_servers: Option<PathBuf>,
    },
    /// TLS to a server whose certificate the client already has (the embedded server's).
    Pinned(ChannelBinding),
    /// No TLS (`--plaintext`). A person signs in only with `sign_in` (`--insecure`): an
    /// unencrypted proof binds nothing, so whoever carries it could replay it.
    Plaintext {
        /// Whether a person signs in anyway (`--insecure`).
        sign_in: bool,
    },
}

impl Security {
    /// TLS with the default `known_servers` file.
    #[must_use]
    pub(crate) fn default_tls() -> Security {
        Security::Tls {
            known_servers: known_servers::default_path(),
        }
    }
}

/// A dialled connection: the stream, its binding, and what to tell the person about the
/// certificate (trusted on first use).
#[derive(Debug)]
pub struct Dialed {
    /// The connection.
    pub stream: ServerStream,
    /// What binds a signature to this connection's certificate.
    pub binding: ChannelBinding,
    /// Something the person should know (a certificate pinned on first use, no encryption).
    pub notice: Option<String>,
}

/// Why a connection could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DialError {
    /// Worth trying again later (no answer, refused, a broken handshake).
    #[error("{0}")]
    Unreachable(String),
    /// Not worth trying again until the person acts (a changed certificate, a server that
    /// does not speak TLS, a broken `known_servers`).
    #[error("{0}")]
    Refused(String),
}

/// How long connecting and the TLS handshake may take.
pub(crate) const DIAL_TIMEOUT: Duration = Duration::from_secs(5);

/// Connects to `address` as `security` says.
///
/// # Errors
/// See [`DialError`].
pub async fn dial(address: &str, security: &Security) -> Result<Dialed, DialError> {
    let stream = connect(address).await?;
    let (pin, known_path) = match security {
        Security::Plaintext { .. } => {
            return Ok(Dialed {
                stream: Either::Right(stream),
                binding: ChannelBinding::Unencrypted,
                notice: None,
            });
        }
        Security::Pinned(pin) => (Some(*pin), None),
        Security::Tls { known_servers } => (
            load_pin(known_servers.clone(), address).await?,
            known_servers.clone(),
        ),
    };
    let trust = Arc::new(Verifier::new(ServerTrust::new(
        address,
        system_roots().await,
        pin,
        matches!(security, Security::Tls { .. }),
    )));
    let (stream, binding) = handshake(address, stream, Arc::clone(&trust) as _).await?;
    let first_use = matches!(trust.certificate_check().seen(), Some(Seen::FirstUse));
    let notice = if first_use {
        if let Some(path) = known_path {
            keep_pin(path, address, binding).await?;
        }
        Some(format!(
            "trusting {address} on first use (certificate {binding})"
        ))
    } else {
        None
    };
    Ok(Dialed {
        stream: Either::Left(stream),
        binding,
        notice,
    })
}

/// Connects to `address` and returns the certificate it shows, trusting it for this one
/// handshake only (`kingme trust` shows it before pinning it).
///
/// # Errors
/// The server cannot be reached or does not speak TLS.
pub(crate) async fn certificate_of(address: &str) -> Result<ChannelBinding, DialError> {
    let stream = connect(address).await?;
    let trust = Arc::new(Verifier::new(ServerTrust::new(address, None, None, true)));
    let (_stream, binding) = handshake(address, stream, trust).await?;
    Ok(binding)
}

/// The TCP connection to `address`, within [`DIAL_TIMEOUT`], without Nagle's delay.
async fn connect(address: &str) -> Result<TcpStream, DialError> {
    let stream = tokio::time::timeout(DIAL_TIMEOUT, TcpStream::connect(address))
        .await
        .map_err(|_| {
            DialError::Unreachable(format!(
                "no answer from {address} within {} s",
                DIAL_TIMEOUT.as_secs()
            ))
        })?
        .map_err(|err| DialError::Unreachable(format!("cannot connect to {address}: {err}")))?;
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

async fn handshake(
    address: &str,
    stream: TcpStream,
    verifier: Arc<dyn ServerCertVerifier>,
) -> Result<(TlsStream<TcpStream>, ChannelBinding), DialError> {
    let name = tls::server_name(address).map_err(|err| DialError::Refused(err.to_string()))?;
    let connector = TlsConnector::from(Arc::new(tls::client_config(Arc::clone(&verifier))));
    let handshake = tokio::time::timeout(DIAL_TIMEOUT, connector.connect(name, stream)).await;
    let stream = match handshake {
        Ok(Ok(stream)) => stream,
        Ok(Err(err)) => return Err(handshake_error(address, &err)),
        Err(_) => {
            return Err(DialError::Unreachable(format!(
                "{address} did not finish the TLS handshake within {} s",
                DIAL_TIMEOUT.as_secs()
            )));
        }
    };
    let binding = tls::binding_of(stream.get_ref().1.peer_certificates())
        .ok_or_else(|| DialError::Refused(format!("{address} showed no certificate")))?;
    Ok((stream, binding))
}

/// A failed handshake in words: a changed certificate (the verifier's message), a server that
/// does not speak TLS, or a connection that broke.
fn handshake_error(address: &str, err: &std::io::Error) -> DialError {
    let inner = err
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>());
    match inner {
        Some(rustls::Error::General(message)) => DialError::Refused(message.clone()),
        Some(rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. }) => {
            DialError::Refused(format!(
                "{address} does not speak TLS: if it runs kingme-server --plaintext and you trust \
                 the network, connect with --plaintext"
            ))
        }
        Some(other) => DialError::Refused(format!("TLS with {address} failed: {other}")),
        None => DialError::Unreachable(format!("TLS with {address} broke off: {err}")),
    }
}

async fn load_pin(
    path: Option<PathBuf>,
    address: &str,
) -> Result<Option<ChannelBinding>, DialError> {
    let Some(path) = path else { return Ok(None) };
    let address = address.to_owned();
    tokio::task::spawn_blocking(move || KnownServers::load(&path).map(|known| known.pin(&address)))
        .await
        .map_err(|err| DialError::Refused(err.to_string()))?
        .map_err(|err| DialError::Refused(err.to_string()))
}

async fn keep_pin(path: PathBuf, address: &str, binding: ChannelBinding) -> Result<(), DialError> {
    let address = address.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut known = KnownServers::load(&path)?;
        known.insert(&address, binding);
        known.save(&path)
    })
    .await
    .map_err(|err| DialError::Refused(err.to_string()))?
    .map_err(|err| DialError::Refused(format!("cannot pin the server's certificate: {err}")))
}

/// The system's CA certificates (and `SSL_CERT_FILE` / `SSL_CERT_DIR`), read once a process;
/// `None` when there are none.
async fn system_roots() -> Option<Arc<WebPkiServerVerifier>> {
    static ROOTS: OnceLock<Option<Arc<WebPkiServerVerifier>>> = OnceLock::new();
    if let Some(roots) = ROOTS.get() {
        return roots.clone();
    }
    let loaded = tokio::task::spawn_blocking(|| {
        let mut store = RootCertStore::empty();
        let found = rustls_native_certs::load_native_certs();
        let (added, _ignored) = store.add_parsable_certificates(found.certs);
        if added == 0 {
            return None;
        }
        WebPkiServerVerifier::builder_with_provider(Arc::new(store), tls::provider())
            .build()
            .ok()
    })
    .await
    .ok()
    .flatten();
    ROOTS.get_or_init(|| loaded).clone()
}

/// What the certificate check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// It chains to a system CA and names the host.
    Ca,
    /// It is the pinned one.
    Pinned,
    /// Nothing was pinned: trusted on first use.
    FirstUse,
}

/// The certificate check of [`dial`]: a system CA, else the pin, else (when allowed) first use.
#[derive(Debug)]
struct ServerTrust {
    /// `HOST:PORT`, for messages.
    address: String,
    ca: Option<Arc<WebPkiServerVerifier>>,
    pin: Option<ChannelBinding>,
    /// Whether an unpinned certificate is trusted on first use (not for the embedded server).
    first_use: bool,
    seen: Mutex<Option<Seen>>,
}

impl ServerTrust {
    fn new(
        address: &str,
        ca: Option<Arc<WebPkiServerVerifier>>,
        pin: Option<ChannelBinding>,
        first_use: bool,
    ) -> ServerTrust {
        ServerTrust {
            address: address.to_owned(),
            ca,
            pin,
            first_use,
            seen: Mutex::new(None),
        }
    }

    fn seen(&self) -> Option<Seen> {
        *self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn saw(&self, seen: Seen) -> Result<(), rustls::Error> {
        *self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(seen);
        Ok(())
    }
}

impl CertificateCheck for ServerTrust {
    fn check(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<(), rustls::Error> {
        let shown = ChannelBinding::of_certificate(end_entity);
        if let Some(ca) = &self.ca
            && ca
                .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
                .is_ok()
        {
            return self.saw(Seen::Ca);
        }
        match self.pin {
            Some(pin) if pin == shown => self.saw(Seen::Pinned),
            Some(pin) => Err(rustls::Error::General(changed_message(
                &self.address,
                pin,
                shown,
            ))),
            None if self.first_use => self.saw(Seen::FirstUse),
            None => Err(rustls::Error::General(format!(
                "the server's certificate ({shown}) is not one this client trusts"
            ))),
        }
    }
}

/// The refusal of a changed certificate: the host, both fingerprints, and what to do.
fn changed_message(address: &str, pinned: ChannelBinding, shown: ChannelBinding) -> String {
    format!(
        "the certificate of {address} changed: it was {pinned} and is now {shown}. Someone may \
         be between you and the server, or its host replaced the certificate. If the host says \
         so, accept the new one with: kingme trust {address}"
    )
}
