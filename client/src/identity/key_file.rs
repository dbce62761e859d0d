//! The key file's format: an Ed25519 private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`,
//! RFC 8410), read and written by ed25519-dalek's `pkcs8` support, the format OpenSSL and other
//! tools read too. This file is pure (bytes in, key or error out) so the fuzz target can reach
//! it; [`super::store`] does the files.

use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use thiserror::Error;

/// The largest key file read, in bytes. An Ed25519 key in PKCS#8 PEM is 119 bytes; the margin
/// allows comments and other line endings, and anything bigger is not a key file.
pub(crate) const MAX_KEY_FILE: usize = 4096;

const BEGIN_PRIVATE: &str = "-----BEGIN PRIVATE KEY-----";
const END_PRIVATE: &str = "-----END PRIVATE KEY-----";

/// Why a key file could not be read; each says what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KeyFileError {
    /// The file is empty.
    #[error("the key file is empty; move it away and a new key is made (or import a copy)")]
    Empty,
    /// The file is too large to be a key file.
    #[error(
        "the key file is {size} bytes, more than a key file can be ({MAX_KEY_FILE}); it is not a kingme key"
    )]
    TooLarge {
        /// Its size in bytes.
        size: usize,
    },
    /// The file is not text.
    #[error("the key file is not text; it is damaged or not a key file")]
    NotText,
    /// The file holds a public key only.
    #[error(
        "the key file holds a public key only; the private key (-----BEGIN PRIVATE KEY-----) is needed"
    )]
    PublicKeyOnly,
    /// The file has no private key's first line.
    #[error("the key file has no {BEGIN_PRIVATE} line; it is damaged or not a key file")]
    NoPrivateKey,
    /// The file stops before the private key's last line.
    #[error("the key file is cut short (no {END_PRIVATE} line); copy it again whole")]
    Truncated,
    /// The key inside is damaged.
    #[error("the key file is damaged ({reason}); copy it again from where it came from")]
    Damaged {
        /// What is wrong with it.
        reason: String,
    },
}

/// Reads a key file's bytes.
pub(crate) fn parse_key_file(bytes: &[u8]) -> Result<SigningKey, KeyFileError> {
    if bytes.len() > MAX_KEY_FILE {
        return Err(KeyFileError::TooLarge { size: bytes.len() });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| KeyFileError::NotText)?;
    if text.trim().is_empty() {
        return Err(KeyFileError::Empty);
    }
    let Some(begin) = text.find(BEGIN_PRIVATE) else {
        return Err(if text.contains("-----BEGIN PUBLIC KEY-----") {
            KeyFileError::PublicKeyOnly
        } else {
            KeyFileError::NoPrivateKey
        });
    };
    let block = &text[begin..];
    let Some(end) = block.find(END_PRIVATE) else {
        return Err(KeyFileError::Truncated);
    };
    let block = &block[..end + END_PRIVATE.len()];
    SigningKey::from_pkcs8_pem(block).map_err(|err| KeyFileError::Damaged {
        reason: err.to_string(),
    })
}

/// Writes a key as a key file's text (PKCS#8 PEM, Unix line endings).
pub(crate) fn encode_key_file(key: &SigningKey) -> Result<String, KeyFileError> {
    key.to_pkcs8_pem(LineEnding::LF)
        .map(|pem| pem.to_string())
        .map_err(|err| KeyFileError::Damaged {
            reason: err.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> SigningKey {
        SigningKey::from_bytes(&[7; 32])
    }

    #[test]
    fn a_key_survives_writing_and_reading() {
        let text = encode_key_file(&key()).unwrap();
        assert!(text.starts_with(BEGIN_PRIVATE), "{text}");
        assert!(text.len() < 200, "{}", text.len());
        let read = parse_key_file(text.as_bytes()).unwrap();
        assert_eq!(read.to_bytes(), key().to_bytes());
        // Text around the block (a comment, CRLF line endings) does not matter.
        let framed = format!("ann's kingme key\r\n{}\r\n", text.replace('\n', "\r\n"));
        assert_eq!(
            parse_key_file(framed.as_bytes()).unwrap().to_bytes(),
            key().to_bytes()
        );
    }

    #[test]
    fn the_format_is_standard_pkcs8() {
        // The RFC 8410 example private key (section 10.3), as OpenSSL writes it.
        let rfc = "-----BEGIN PRIVATE KEY-----\n\
                   MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
                   -----END PRIVATE KEY-----\n";
        let key = parse_key_file(rfc.as_bytes()).unwrap();
        assert_eq!(
            key.to_bytes()[..4],
            [0xd4, 0xee, 0x72, 0xdb],
            "the seed is the RFC's"
        );
    }

    #[test]
    fn every_bad_file_is_a_clear_error() {
        let good = encode_key_file(&key()).unwrap();
        assert_eq!(parse_key_file(b""), Err(KeyFileError::Empty));
        assert_eq!(parse_key_file(b" \n\n"), Err(KeyFileError::Empty));
        let big = vec![b'A'; MAX_KEY_FILE + 1];
        assert_eq!(
            parse_key_file(&big),
            Err(KeyFileError::TooLarge {
                size: MAX_KEY_FILE + 1
            })
        );
        assert_eq!(
            parse_key_file(&[0xff, 0xfe, 0x00]),
            Err(KeyFileError::NotText)
        );
        assert_eq!(
            parse_key_file(b"hello, this is not a key"),
            Err(KeyFileError::NoPrivateKey)
        );
        let public = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n";
        assert_eq!(
            parse_key_file(public.as_bytes()),
            Err(KeyFileError::PublicKeyOnly)
        );
        // Cut anywhere before the end line: truncated.
        for cut in [BEGIN_PRIVATE.len() + 1, good.len() / 2, good.len() - 10] {
            assert_eq!(
                parse_key_file(&good.as_bytes()[..cut]),
                Err(KeyFileError::Truncated),
                "cut at {cut}"
            );
        }
        // A changed character inside the base64: damaged, and the message says so.
        let mut damaged = good.clone().into_bytes();
        damaged[BEGIN_PRIVATE.len() + 5] = b'*';
        let err = parse_key_file(&damaged).unwrap_err();
        assert!(matches!(err, KeyFileError::Damaged { .. }), "{err:?}");
        assert!(err.to_string().contains("damaged"), "{err}");
        // Base64 of the wrong structure: damaged too.
        let wrong = format!("{BEGIN_PRIVATE}\nAAAA\n{END_PRIVATE}\n");
        assert!(matches!(
            parse_key_file(wrong.as_bytes()),
            Err(KeyFileError::Damaged { .. })
        ));
    }
}
