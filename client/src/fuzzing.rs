//! The client's fuzz target bodies, beside the shared ones (`kingme_shared::fuzzing`): the key
//! file reader is the client's own parser of outside input (a key file may come from anywhere:
//! a copy from another machine, a damaged disk). The fuzz crate (`tests/fuzz/`) and the
//! regression test (`tests/tests/fuzz_regressions.rs`) look a target name up in both lists.

use crate::identity::key_file::{encode_key_file, parse_key_file};

/// Every client fuzz target, by the name of its file in `tests/fuzz/fuzz_targets/`.
pub const TARGETS: [(&str, kingme_shared::fuzzing::Target); 1] = [("key_file", key_file)];

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
