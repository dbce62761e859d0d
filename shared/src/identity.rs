//! Key-pair identities: what a client signs to prove it holds a name's key, and how the server
//! checks it. Both ends build the signed bytes with [`proof_message`], so they cannot disagree.
//!
//! A person's identity is an Ed25519 key pair made by the client. The server sends a challenge
//! (its own id and a fresh random nonce); the client signs a domain-separated message binding the
//! protocol, the server, the nonce and the name; the server verifies it against the public key
//! the hello carried. The private key never leaves the client, and a signature is good for one
//! server's one challenge only.

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
pub const PROOF_DOMAIN: &[u8] = b"kingme identity proof v3\0";

/// Why a proof was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    #[error("the public key is not a valid Ed25519 key")]
    BadKey,
    #[error("a signature is {SIGNATURE_BYTES} bytes, got {0}")]
    SignatureLength(usize),
    #[error("the signature does not match the key: the client does not hold the name's key")]
    BadSignature,
}

/// The exact bytes a client signs: [`PROOF_DOMAIN`], then the server id, the nonce and the name,
/// each string preceded by its length in bytes as a 4-byte big-endian number.
#[must_use]
pub fn proof_message(server_id: &str, nonce: &[u8; NONCE_BYTES], name: &str) -> Vec<u8> {
    let mut message =
        Vec::with_capacity(PROOF_DOMAIN.len() + 8 + server_id.len() + NONCE_BYTES + name.len());
    message.extend_from_slice(PROOF_DOMAIN);
    push_text(&mut message, server_id);
    message.extend_from_slice(nonce);
    push_text(&mut message, name);
    message
}

fn push_text(message: &mut Vec<u8>, text: &str) {
    // Texts here are bounded far below 4 GiB (names, server ids); saturate rather than wrap.
    let length = u32::try_from(text.len()).unwrap_or(u32::MAX);
    message.extend_from_slice(&length.to_be_bytes());
    message.extend_from_slice(text.as_bytes());
}

/// Signs the proof for `name` on `server_id`'s challenge `nonce`.
#[must_use]
pub fn sign_proof(
    key: &SigningKey,
    server_id: &str,
    nonce: &[u8; NONCE_BYTES],
    name: &str,
) -> Vec<u8> {
    key.sign(&proof_message(server_id, nonce, name))
        .to_bytes()
        .to_vec()
}

/// Checks that `signature` is `public_key`'s signature of the proof for `name` on this challenge.
pub fn verify_proof(
    public_key: &[u8; PUBLIC_KEY_BYTES],
    server_id: &str,
    nonce: &[u8; NONCE_BYTES],
    name: &str,
    signature: &[u8],
) -> Result<(), ProofError> {
    let key = VerifyingKey::from_bytes(public_key).map_err(|_| ProofError::BadKey)?;
    let bytes: &[u8; SIGNATURE_BYTES] = signature
        .try_into()
        .map_err(|_| ProofError::SignatureLength(signature.len()))?;
    // Strict: no weak keys, no malleable signatures.
    key.verify_strict(
        &proof_message(server_id, nonce, name),
        &Signature::from_bytes(bytes),
    )
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
    let digest = Sha256::digest(public_key);
    let mut text = String::with_capacity(32);
    for byte in &digest[..16] {
        // Writing into a String cannot fail.
        let _ = write!(text, "{byte:02x}");
    }
    text
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn key(seed: u8) -> SigningKey {
        SigningKey::from_bytes(&[seed; 32])
    }

    #[test]
    fn a_proof_verifies_only_for_its_key_server_nonce_and_name() {
        let ann = key(1);
        let public = ann.verifying_key().to_bytes();
        let nonce = [7_u8; NONCE_BYTES];
        let signature = sign_proof(&ann, "server-a", &nonce, "ann");
        assert_eq!(signature.len(), SIGNATURE_BYTES);
        assert_eq!(
            verify_proof(&public, "server-a", &nonce, "ann", &signature),
            Ok(())
        );
        // Replayed to another server, for another nonce or name, or checked against another key.
        let refused = [
            verify_proof(&public, "server-b", &nonce, "ann", &signature),
            verify_proof(&public, "server-a", &[8; NONCE_BYTES], "ann", &signature),
            verify_proof(&public, "server-a", &nonce, "bob", &signature),
            verify_proof(
                &key(2).verifying_key().to_bytes(),
                "server-a",
                &nonce,
                "ann",
                &signature,
            ),
        ];
        for result in refused {
            assert_eq!(result, Err(ProofError::BadSignature));
        }
        assert_eq!(
            verify_proof(&public, "server-a", &nonce, "ann", &signature[..63]),
            Err(ProofError::SignatureLength(63))
        );
        let mut flipped = signature.clone();
        flipped[10] ^= 1;
        assert_eq!(
            verify_proof(&public, "server-a", &nonce, "ann", &flipped),
            Err(ProofError::BadSignature)
        );
    }

    #[test]
    fn the_signed_bytes_are_those_protocol_md_shows() {
        let message = proof_message("s1", &[0xab; NONCE_BYTES], "ada");
        let mut expected = b"kingme identity proof v3\0".to_vec();
        expected.extend_from_slice(&[0, 0, 0, 2, b's', b'1']);
        expected.extend_from_slice(&[0xab; NONCE_BYTES]);
        expected.extend_from_slice(&[0, 0, 0, 3, b'a', b'd', b'a']);
        assert_eq!(message, expected);
        // Length prefixes keep the fields apart: moving a byte between them changes the message.
        assert_ne!(
            proof_message("s", &[0; 32], "1ada"),
            proof_message("s1", &[0; 32], "ada")
        );
    }

    #[test]
    fn malformed_public_keys_are_refused_not_panics() {
        // Not a point on the curve (y = 2 has no x).
        let mut bad = [0_u8; 32];
        bad[0] = 2;
        let refused = verify_proof(&bad, "s", &[0; 32], "ann", &[0; 64]);
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
#[allow(clippy::unwrap_used)]
mod protocol_md {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    /// The sample exchange in PROTOCOL.md: its key, proof message and signature.
    #[test]
    fn the_sample_exchange_is_the_one_protocol_md_shows() {
        let document = include_str!("../../PROTOCOL.md");
        let key = SigningKey::from_bytes(&[1; 32]);
        let public = key.verifying_key().to_bytes();
        let nonce = [0xab; NONCE_BYTES];
        let message = proof_message("s1", &nonce, "ada");
        let signature = sign_proof(&key, "s1", &nonce, "ada");
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
