//! The client's fuzz target bodies, beside the shared ones (`kingme_shared::fuzzing`): the key
//! file reader and the `known_servers` reader are the client's own parsers of outside input (a
//! key file may come from anywhere: a copy from another machine, a damaged disk). The fuzz crate (`tests/fuzz/`) and the
//! regression test (`tests/tests/it/fuzz_regressions.rs`) look a target name up in both lists.

use crate::identity::key_file::{encode_key_file, parse_key_file};
use crate::local::known_servers::KnownServers;

/// Every client fuzz target, by the name of its file in `tests/fuzz/fuzz_targets/`.
pub const TARGETS: [(&str, kingme_shared::fuzzing::Target); 2] =
    [("key_file", key_file), ("known_servers", known_servers)];

/// The body of the client target with this name.
#[must_use]
pub fn target(name: &str) -> Option<kingme_shared::fuzzing::Target> {
    TARGETS
        .iter()
        .find(|(target, _)| *target == name)
        .map(|&(_, body)| body)
}

/// Reads the bytes as a key file: never a panic, and a key read back is written and read again
/// to the same key.
///
/// # Panics
/// When a key that was read does not survive writing and reading again.
pub fn key_file(data: &[u8]) {
    let Ok(key) = parse_key_file(data) else {
        return;
    };
    let text = encode_key_file(&key).expect("a key read can be written");
    let again = parse_key_file(text.as_bytes()).expect("a key written can be read");
    assert_eq!(
        again.to_bytes(),
        key.to_bytes(),
        "the key changed on the way"
    );
}

/// Reads the bytes as a `known_servers` file: never a panic, and the servers read are written
/// and read again to the same pins.
///
/// # Panics
/// When the pins read do not survive writing and reading again.
pub fn known_servers(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(known) = KnownServers::parse(&text) else {
        return;
    };
    let again = KnownServers::parse(&known.to_text()).expect("a file written can be read");
    assert_eq!(again, known, "the pins changed on the way");
}
