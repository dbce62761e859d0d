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
    /// The address has no port.
    NoPort(String),
    #[error("{0:?} is not a host name or an IP address")]
    /// The host is neither a name nor an IP address.
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

/// How a client decides on a server's certificate (a pin, a CA, a pin on first use); the
/// [`Verifier`] around it checks the handshake's signatures whatever it decides, so only the
/// holder of the certificate's key gets through.
pub trait CertificateCheck: std::fmt::Debug + Send + Sync {
    /// Whether to trust the server that showed `end_entity` (and `intermediates`) as
    /// `server_name`.
    ///
    /// # Errors
    /// A certificate not to be trusted, with the reason the person is told.
    fn check(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<(), rustls::Error>;
}

/// A rustls certificate verifier made of a [`CertificateCheck`] and [`provider`]'s signature
/// checks.
#[derive(Debug)]
pub struct Verifier<C> {
    check: C,
    algorithms: WebPkiSupportedAlgorithms,
}

impl<C: CertificateCheck> Verifier<C> {
    /// The verifier that trusts what `check` trusts.
    #[must_use]
    pub fn new(check: C) -> Verifier<C> {
        Verifier {
            check,
            algorithms: provider().signature_verification_algorithms,
        }
    }

    /// Its certificate check (to read what it found).
    #[must_use]
    pub fn certificate_check(&self) -> &C {
        &self.check
    }
}

impl<C: CertificateCheck> ServerCertVerifier for Verifier<C> {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.check
            .check(end_entity, intermediates, server_name, ocsp_response, now)
            .map(|()| ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, certificate, signature, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        certificate: &CertificateDer<'_>,
        signature: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, certificate, signature, &self.algorithms)
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
