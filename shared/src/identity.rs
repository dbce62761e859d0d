//! Key-pair identities: what a client signs to prove it holds a name's key, and how the server
//! checks it. Both ends build the signed bytes with [`proof_message`], so they cannot disagree.
//!
//! A person's identity is an Ed25519 key pair made by the client. The server sends a challenge
//! (its own id and a fresh random nonce); the client signs a domain-separated message binding the
//! protocol, the server, the nonce, the connection's [`ChannelBinding`] and the name; the server
//! verifies it against the public key the hello carried and the binding of its own end of the
//! connection. The private key never leaves the client, and a signature is good for one server's
//! one challenge on one TLS connection only: a server that relays a person's sign-in to another
//! server presents its own certificate to the person, so the proof names that certificate and
//! the other server, whose certificate differs, refuses it.

pub use ed25519_dalek::{SigningKey, VerifyingKey};

use ed25519_dalek::{Signature, Signer};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// Bytes in a public key.
pub const PUBLIC_KEY_BYTES: usize = 32;
/// Bytes in a signature.
pub const SIGNATURE_BYTES: usize = 64;
/// Bytes in a challenge's nonce.
pub const NONCE_BYTES: usize = 32;
/// Longest server id, in bytes.
pub const MAX_SERVER_ID: usize = 64;
/// What every signed proof starts with, so a signature made here can never be mistaken for a
/// signature over anything else the key might sign.
pub const PROOF_DOMAIN: &[u8] = b"kingme identity proof v4\0";
/// Bytes in a TLS channel binding (a SHA-256).
pub const BINDING_BYTES: usize = 32;

/// What ties a proof to the connection it was made on, in the proof message.
///
/// kingme uses RFC 5929's `tls-server-end-point` with SHA-256 always: the hash of the DER bytes
/// of the certificate the server presented, as the client saw it. A relay cannot reproduce it: to
/// the person it must present a certificate of its own (it does not hold the real server's
/// private key), and the real server checks the proof against its own certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelBinding {
    /// The connection is TLS; the SHA-256 of the server's certificate (DER).
    TlsServerEndPoint([u8; BINDING_BYTES]),
    /// The connection is not encrypted: nothing binds the proof to it, so whoever carries it can
    /// replay it to the same server id. A person's client signs this only when told to
    /// (`--insecure`).
    Unencrypted,
}

impl ChannelBinding {
    /// The binding of a TLS connection whose server presented `certificate_der`.
    #[must_use]
    pub fn of_certificate(certificate_der: &[u8]) -> ChannelBinding {
        ChannelBinding::TlsServerEndPoint(Sha256::digest(certificate_der).into())
    }

    /// The label that goes into the proof message before the binding's bytes.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            ChannelBinding::TlsServerEndPoint(_) => "tls-server-end-point",
            ChannelBinding::Unencrypted => "unencrypted",
        }
    }

    /// The binding's bytes in the proof message (none when unencrypted).
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        match self {
            ChannelBinding::TlsServerEndPoint(hash) => hash,
            ChannelBinding::Unencrypted => &[],
        }
    }
}

/// For people: a TLS binding is the certificate's SHA-256 fingerprint in lowercase hex (what
/// `openssl x509 -noout -fingerprint -sha256` shows, without its colons); no TLS is said so.
impl std::fmt::Display for ChannelBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChannelBinding::TlsServerEndPoint(hash) => f.write_str(&hex(hash)),
            ChannelBinding::Unencrypted => f.write_str("no TLS"),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        // Writing into a String cannot fail.
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// What a proof is made for: one server's one challenge, on one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProofScope<'a> {
    /// The server's id, from its `Challenge`.
    pub server_id: &'a str,
    /// The challenge's fresh nonce.
    pub nonce: &'a [u8; NONCE_BYTES],
    /// The connection's binding, as this end sees it (never as the other end claims it).
    pub binding: ChannelBinding,
}

/// Why a proof was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    #[error("the public key is not a valid Ed25519 key")]
    /// The public key is not a valid Ed25519 key.
    BadKey,
    #[error("a signature is {SIGNATURE_BYTES} bytes, got {0}")]
    /// The signature does not have the Ed25519 length.
    SignatureLength(usize),
    #[error(
        "the signature does not match the key and this connection: the client does not hold the \
         name's key, or it signed for another connection (something between it and this server \
         ended its TLS: a relay, or a proxy the server was not told of with --proxy-cert)"
    )]
    /// The signature does not verify for this key and connection.
    BadSignature,
}

/// The exact bytes a client signs: [`PROOF_DOMAIN`], then the server id, the nonce, the
/// binding's label and bytes, and the name; each string and the binding's bytes preceded by
/// their length in bytes as a 4-byte big-endian number.
#[must_use]
pub fn proof_message(scope: ProofScope<'_>, name: &str) -> Vec<u8> {
    let binding = scope.binding;
    let mut message = Vec::with_capacity(
        PROOF_DOMAIN.len()
            + 16
            + scope.server_id.len()
            + NONCE_BYTES
            + binding.label().len()
            + binding.bytes().len()
            + name.len(),
    );
    message.extend_from_slice(PROOF_DOMAIN);
    push_bytes(&mut message, scope.server_id.as_bytes());
    message.extend_from_slice(scope.nonce);
    push_bytes(&mut message, binding.label().as_bytes());
    push_bytes(&mut message, binding.bytes());
    push_bytes(&mut message, name.as_bytes());
    message
}

fn push_bytes(message: &mut Vec<u8>, bytes: &[u8]) {
    // Fields here are bounded far below 4 GiB (names, server ids); saturate rather than wrap.
    let length = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    message.extend_from_slice(&length.to_be_bytes());
    message.extend_from_slice(bytes);
}

/// Signs the proof for `name` in `scope` (a server's challenge on one connection).
#[must_use]
pub fn sign_proof(key: &SigningKey, scope: ProofScope<'_>, name: &str) -> Vec<u8> {
    key.sign(&proof_message(scope, name)).to_bytes().to_vec()
}

/// Checks that `signature` is `public_key`'s signature of the proof for `name` in `scope`.
pub fn verify_proof(
    public_key: &[u8; PUBLIC_KEY_BYTES],
    scope: ProofScope<'_>,
    name: &str,
    signature: &[u8],
) -> Result<(), ProofError> {
    let key = VerifyingKey::from_bytes(public_key).map_err(|_| ProofError::BadKey)?;
    let bytes: &[u8; SIGNATURE_BYTES] = signature
        .try_into()
        .map_err(|_| ProofError::SignatureLength(signature.len()))?;
    // Strict: no weak keys, no malleable signatures.
    key.verify_strict(&proof_message(scope, name), &Signature::from_bytes(bytes))
        .map_err(|_| ProofError::BadSignature)
}

/// Whether `public_key` is a usable Ed25519 public key.
#[must_use]
pub fn is_valid_public_key(public_key: &[u8; PUBLIC_KEY_BYTES]) -> bool {
    VerifyingKey::from_bytes(public_key).is_ok_and(|key| !key.is_weak())
}

/// A short text that names a public key for people: the first 16 bytes of its SHA-256 in hex.
#[must_use]
pub fn fingerprint(public_key: &[u8; PUBLIC_KEY_BYTES]) -> String {
    hex(&Sha256::digest(public_key)[..16])
}

/// A new key pair from the operating system's random source.
///
/// # Errors
/// When the operating system gives no random bytes (a broken system): no key is made from
/// anything weaker.
pub fn generate_key() -> Result<SigningKey, getrandom::Error> {
    let mut seed = [0_u8; 32];
    getrandom::fill(&mut seed)?;
    Ok(SigningKey::from_bytes(&seed))
}

/// Fresh random bytes for a challenge, from the operating system's random source.
///
/// # Errors
/// When the operating system gives no random bytes.
pub fn new_nonce() -> Result<[u8; NONCE_BYTES], getrandom::Error> {
    let mut nonce = [0_u8; NONCE_BYTES];
    getrandom::fill(&mut nonce)?;
    Ok(nonce)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seed: u8) -> SigningKey {
        SigningKey::from_bytes(&[seed; 32])
    }

    const SERVER_A: ProofScope<'static> = ProofScope {
        server_id: "server-a",
        nonce: &[7; NONCE_BYTES],
        binding: ChannelBinding::TlsServerEndPoint([5; BINDING_BYTES]),
    };

    #[test]
    fn a_proof_verifies_only_for_its_key_server_nonce_binding_and_name() {
        let ann = key(1);
        let public = ann.verifying_key().to_bytes();
        let signature = sign_proof(&ann, SERVER_A, "ann");
        assert_eq!(signature.len(), SIGNATURE_BYTES);
        assert_eq!(verify_proof(&public, SERVER_A, "ann", &signature), Ok(()));
        // Replayed to another server, for another nonce, over another connection (another
        // certificate, or none), for another name, or checked against another key.
        let refused = [
            verify_proof(
                &public,
                ProofScope {
                    server_id: "server-b",
                    ..SERVER_A
                },
                "ann",
                &signature,
            ),
            verify_proof(
                &public,
                ProofScope {
                    nonce: &[8; NONCE_BYTES],
                    ..SERVER_A
                },
                "ann",
                &signature,
            ),
            verify_proof(
                &public,
                ProofScope {
                    binding: ChannelBinding::TlsServerEndPoint([6; BINDING_BYTES]),
                    ..SERVER_A
                },
                "ann",
                &signature,
            ),
            verify_proof(
                &public,
                ProofScope {
                    binding: ChannelBinding::Unencrypted,
                    ..SERVER_A
                },
                "ann",
                &signature,
            ),
            verify_proof(&public, SERVER_A, "bob", &signature),
            verify_proof(
                &key(2).verifying_key().to_bytes(),
                SERVER_A,
                "ann",
                &signature,
            ),
        ];
        for result in refused {
            assert_eq!(result, Err(ProofError::BadSignature));
        }
        assert_eq!(
            verify_proof(&public, SERVER_A, "ann", &signature[..63]),
            Err(ProofError::SignatureLength(63))
        );
        let mut flipped = signature.clone();
        flipped[10] ^= 1;
        assert_eq!(
            verify_proof(&public, SERVER_A, "ann", &flipped),
            Err(ProofError::BadSignature)
        );
    }

    #[test]
    fn the_signed_bytes_are_those_protocol_md_shows() {
        let binding = ChannelBinding::TlsServerEndPoint([0xcd; BINDING_BYTES]);
        let scope = ProofScope {
            server_id: "s1",
            nonce: &[0xab; NONCE_BYTES],
            binding,
        };
        let message = proof_message(scope, "ada");
        let mut expected = b"kingme identity proof v4\0".to_vec();
        expected.extend_from_slice(&[0, 0, 0, 2, b's', b'1']);
        expected.extend_from_slice(&[0xab; NONCE_BYTES]);
        expected.extend_from_slice(&[0, 0, 0, 20]);
        expected.extend_from_slice(b"tls-server-end-point");
        expected.extend_from_slice(&[0, 0, 0, 32]);
        expected.extend_from_slice(&[0xcd; BINDING_BYTES]);
        expected.extend_from_slice(&[0, 0, 0, 3, b'a', b'd', b'a']);
        assert_eq!(message, expected);
        // Length prefixes keep the fields apart: moving a byte between them changes the message.
        let zero = ProofScope {
            server_id: "s",
            nonce: &[0; NONCE_BYTES],
            binding,
        };
        assert_ne!(
            proof_message(zero, "1ada"),
            proof_message(
                ProofScope {
                    server_id: "s1",
                    ..zero
                },
                "ada"
            )
        );
        // Unencrypted: the label and an empty binding.
        let plain = proof_message(
            ProofScope {
                binding: ChannelBinding::Unencrypted,
                ..scope
            },
            "ada",
        );
        let mut expected = b"kingme identity proof v4\0".to_vec();
        expected.extend_from_slice(&[0, 0, 0, 2, b's', b'1']);
        expected.extend_from_slice(&[0xab; NONCE_BYTES]);
        expected.extend_from_slice(&[0, 0, 0, 11]);
        expected.extend_from_slice(b"unencrypted");
        expected.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 3, b'a', b'd', b'a']);
        assert_eq!(plain, expected);
    }

    #[test]
    fn a_certificate_binding_is_its_sha256_and_shows_as_its_fingerprint() {
        let binding = ChannelBinding::of_certificate(b"abc");
        // SHA-256("abc"), FIPS 180-2's first example.
        let known = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(binding.to_string(), known);
        assert_ne!(binding, ChannelBinding::of_certificate(b"abd"));
        assert_eq!(ChannelBinding::Unencrypted.to_string(), "no TLS");
    }

    #[test]
    fn malformed_public_keys_are_refused_not_panics() {
        // Not a point on the curve (y = 2 has no x).
        let mut bad = [0_u8; 32];
        bad[0] = 2;
        let scope = ProofScope {
            server_id: "s",
            nonce: &[0; NONCE_BYTES],
            binding: ChannelBinding::Unencrypted,
        };
        let refused = verify_proof(&bad, scope, "ann", &[0; 64]);
        assert!(
            matches!(refused, Err(ProofError::BadKey | ProofError::BadSignature)),
            "{refused:?}"
        );
        // The identity point is a weak key: never usable as an identity.
        let mut identity_point = [0_u8; 32];
        identity_point[0] = 1;
        assert!(!is_valid_public_key(&identity_point));
        assert!(is_valid_public_key(&key(3).verifying_key().to_bytes()));
    }

    #[test]
    fn fingerprints_are_short_and_differ() {
        let a = fingerprint(&key(1).verifying_key().to_bytes());
        let b = fingerprint(&key(2).verifying_key().to_bytes());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn generated_keys_and_nonces_differ() {
        let one = generate_key().unwrap();
        let two = generate_key().unwrap();
        assert_ne!(one.to_bytes(), two.to_bytes());
        assert_ne!(new_nonce().unwrap(), new_nonce().unwrap());
    }
}

#[cfg(test)]
mod protocol_md {
    use super::*;

    /// The sample exchange in PROTOCOL.md: its key, proof message and signature.
    #[test]
    fn the_sample_exchange_is_the_one_protocol_md_shows() {
        let document = include_str!("../../PROTOCOL.md");
        let key = SigningKey::from_bytes(&[1; 32]);
        let public = key.verifying_key().to_bytes();
        let scope = ProofScope {
            server_id: "s1",
            nonce: &[0xab; NONCE_BYTES],
            binding: ChannelBinding::TlsServerEndPoint([0xcd; BINDING_BYTES]),
        };
        let message = proof_message(scope, "ada");
        let signature = sign_proof(&key, scope, "ada");
        for (what, value) in [
            ("public key", hex(&public)),
            ("proof message", hex(&message)),
            ("signature", hex(&signature)),
            ("fingerprint", fingerprint(&public)),
        ] {
            assert!(
                document.replace(['\n', ' '], "").contains(&value),
                "PROTOCOL.md does not show the sample's {what}: {value}"
            );
        }
    }
}
