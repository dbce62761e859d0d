//! The files the client keeps on this machine, in the config and data directories: where they
//! are ([`paths`]), how a private one is written and read ([`private_file`]), and each kind of
//! file: name secrets, guests' resume tokens, settings, known servers' certificates, checkers
//! endgame databases, and the names whose chat a person blocked. (Identities, the key files and names, are [`crate::identity`].)

pub mod blocked;
pub mod endgame_files;
pub(crate) mod known_servers;
pub mod paths;
pub(crate) mod private_file;
pub(crate) mod resume_tokens;
pub mod secrets;
pub mod settings;
