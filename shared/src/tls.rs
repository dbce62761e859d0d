//! The client's side of TLS as every kingme client needs it (feature `tls`): the crypto provider
//! (rustls on *ring*), the name a `HOST:PORT` address is checked against, a client
//! configuration around any certificate check, the check that trusts one certificate by its
//! fingerprint (the embedded server's own, a test's server), and the [`ChannelBinding`] of a
//! finished handshake, which a person's proof signs.
//!
//! Where a certificate is trusted (a system CA, a pin on first use) is the client's business;
//! this module only gives the pieces, so that the terminal client, the bot and the test clients
//! bind proofs in one way.

use crate::identity::ChannelBinding;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use std::sync::Arc;

/// The crypto provider both ends use: *ring*.
#[must_use]
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Why an address cannot be used for TLS.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("{0:?} is not HOST:PORT (an IPv6 address goes in brackets: [::1]:7878)")]
    NoPort(String),
    #[error("{0:?} is not a host name or an IP address")]
    BadHost(String),
}

/// The host part of `HOST:PORT` as the name TLS checks (a DNS name or an IP address).
///
/// # Errors
/// When `address` has no port or its host is neither a DNS name nor an IP address.
pub fn server_name(address: &str) -> Result<ServerName<'static>, AddressError> {
    let (host, port) = address
        .rsplit_once(':')
        .ok_or_else(|| AddressError::NoPort(address.to_owned()))?;
    if port.is_empty() || !port.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(AddressError::NoPort(address.to_owned()));
    }
    let host = host
        .strip_prefix('[')
        .and_then(|host| host.strip_suffix(']'))
        .unwrap_or(host);
    ServerName::try_from(host.to_owned()).map_err(|_| AddressError::BadHost(host.to_owned()))
}

/// A client configuration that checks the server's certificate with `verifier`, on
/// [`provider`], TLS 1.2 and 1.3.
#[must_use]
pub fn client_config(verifier: Arc<dyn ServerCertVerifier>) -> ClientConfig {
    ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        // The ring provider supports the default versions; nothing here can fail.
        .unwrap_or_else(|_| unreachable!("ring supports TLS 1.2 and 1.3"))
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth()
}

/// The binding of a finished TLS handshake: the server's end-entity certificate as this client
/// saw it (`None` before the handshake, which never happens to a connected stream).
#[must_use]
pub fn binding_of(peer_certificates: Option<&[CertificateDer<'_>]>) -> Option<ChannelBinding> {
    let end_entity = peer_certificates?.first()?;
    Some(ChannelBinding::of_certificate(end_entity))
}

/// Trusts exactly one certificate, known by its binding (its SHA-256): a server whose
/// certificate the client already has (the embedded server's own, a test's). The handshake's
/// signatures are still checked, so only the holder of that certificate's key gets through.
#[derive(Debug)]
pub struct PinnedCertificate {
    pin: ChannelBinding,
    algorithms: WebPkiSupportedAlgorithms,
}

impl PinnedCertificate {
    /// Trusts the certificate whose binding is `pin`.
    #[must_use]
    pub fn new(pin: ChannelBinding) -> PinnedCertificate {
        PinnedCertificate {
            pin,
            algorithms: provider().signature_verification_algorithms,
        }
    }

    /// A client configuration that trusts only `certificate`.
    #[must_use]
    pub fn client_config(certificate: &CertificateDer<'_>) -> ClientConfig {
        client_config(Arc::new(PinnedCertificate::new(
            ChannelBinding::of_certificate(certificate),
        )))
    }
}

/// The checks of a handshake's signatures against the certificate, for any certificate check
/// built on a fingerprint rather than on a CA.
pub trait SignatureChecks {
    /// The algorithms the provider verifies.
    fn algorithms(&self) -> &WebPkiSupportedAlgorithms;
}

impl SignatureChecks for PinnedCertificate {
    fn algorithms(&self) -> &WebPkiSupportedAlgorithms {
        &self.algorithms
    }
}

/// TLS 1.2's handshake signature, checked with `checks`' algorithms.
///
/// # Errors
/// A signature that does not verify.
pub fn verify_tls12(
    checks: &impl SignatureChecks,
    message: &[u8],
    certificate: &CertificateDer<'_>,
    signature: &DigitallySignedStruct,
) -> Result<HandshakeSignatureValid, rustls::Error> {
    rustls::crypto::verify_tls12_signature(message, certificate, signature, checks.algorithms())
}

/// TLS 1.3's handshake signature, checked with `checks`' algorithms.
///
/// # Errors
/// A signature that does not verify.
pub fn verify_tls13(
    checks: &impl SignatureChecks,
    message: &[u8],
    certificate: &CertificateDer<'_>,
    signature: &DigitallySignedStruct,
) -> Result<HandshakeSignatureValid, rustls::Error> {
    rustls::crypto::verify_tls13_signature(message, certificate, signature, checks.algorithms())
}

impl ServerCertVerifier for PinnedCertificate {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if ChannelBinding::of_certificate(end_entity) == self.pin {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "the server's certificate ({}) is not the expected one ({})",
                ChannelBinding::of_certificate(end_entity),
                self.pin
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12(self, message, certificate, signature)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13(self, message, certificate, signature)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_give_their_host_as_the_name_tls_checks() {
        let name = |address: &str| server_name(address).map(|name| name.to_str().into_owned());
        assert_eq!(name("localhost:7878"), Ok("localhost".to_owned()));
        assert_eq!(name("127.0.0.1:7878"), Ok("127.0.0.1".to_owned()));
        assert_eq!(name("[::1]:7878"), Ok("::1".to_owned()));
        assert_eq!(
            name("games.example.org:443"),
            Ok("games.example.org".to_owned())
        );
        assert!(matches!(name("localhost"), Err(AddressError::NoPort(_))));
        assert!(matches!(name("localhost:"), Err(AddressError::NoPort(_))));
        assert!(matches!(name("localhost:x1"), Err(AddressError::NoPort(_))));
        assert!(matches!(name("bad host:1"), Err(AddressError::BadHost(_))));
    }

    #[test]
    fn a_pin_accepts_its_certificate_only() {
        let pinned = PinnedCertificate::new(ChannelBinding::of_certificate(b"one"));
        let name = ServerName::try_from("localhost").unwrap_or_else(|_| unreachable!());
        let check = |der: &'static [u8]| {
            pinned.verify_server_cert(&CertificateDer::from(der), &[], &name, &[], UnixTime::now())
        };
        assert!(check(b"one").is_ok());
        let refused = check(b"two");
        assert!(refused.is_err());
    }

    #[test]
    fn a_handshake_binding_is_its_end_entity_certificate() {
        let chain = [
            CertificateDer::from(&b"leaf"[..]),
            CertificateDer::from(&b"ca"[..]),
        ];
        assert_eq!(
            binding_of(Some(&chain)),
            Some(ChannelBinding::of_certificate(b"leaf"))
        );
        assert_eq!(binding_of(Some(&[])), None);
        assert_eq!(binding_of(None), None);
    }
}
