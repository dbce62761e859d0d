//! Who this client is: an Ed25519 key pair per name ([`key_file`] reads and writes the PKCS#8
//! PEM file, [`store`] keeps one file a name in the config directory) and the default name
//! ([`name`]). The private key never leaves the machine: the handshake in [`crate::net`] only
//! signs the server's challenge with it.

pub mod command;
pub(crate) mod key_file;
pub(crate) mod name;
pub(crate) mod store;

pub use store::{KeyStore, fingerprint};
