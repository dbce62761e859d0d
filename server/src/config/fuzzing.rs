//! The server's fuzz target bodies, beside the shared ones (`kingme_shared::fuzzing`) and the
//! client's: the configuration file reader ([`super::file`]) is the server's parser of a file
//! that may come from anyone who can write to its directory. The fuzz crate (`tests/fuzz/`) and
//! the regression test (`tests/tests/it/fuzz_regressions.rs`) look a target name up in every
//! list; the crate's door `kingme_server::fuzzing` shows this one.

use super::file::{ConfigFile, ConfigFileError};
use kingme_shared::fuzzing::Target;

/// Every server fuzz target, by the name of its file in `tests/fuzz/fuzz_targets/`.
pub const TARGETS: [(&str, Target); 1] = [("config_file", config_file)];

/// The body of the server target with this name.
#[must_use]
pub fn target(name: &str) -> Option<Target> {
    TARGETS
        .iter()
        .find(|(target, _)| *target == name)
        .map(|&(_, body)| body)
}

/// Reads the bytes as a configuration file: never a panic; a refusal names a line of the
/// input; a configuration read is written and read again to the same settings (which SIGHUP's
/// comparison, [`ConfigFile::keys_differing`], finds the same too), and its masked form (the
/// one `--print-config` prints) reads too and masks no further.
///
/// # Panics
/// When a property fails.
pub fn config_file(data: &[u8]) {
    let file = match ConfigFile::parse_bytes(data) {
        Ok(file) => file,
        Err(ConfigFileError::Invalid { line, .. }) => {
            let lines = 1 + data.iter().filter(|&&byte| byte == b'\n').count();
            assert!(
                (1..=lines).contains(&line),
                "line {line} of a text of {lines}"
            );
            return;
        }
        Err(err) => panic!("parsing bytes can only find them invalid: {err}"),
    };
    let text = file.to_toml();
    let again = ConfigFile::parse_bytes(text.as_bytes())
        .unwrap_or_else(|err| panic!("a configuration written reads again: {err}\n{text}"));
    assert_eq!(again, file, "the settings changed on the way:\n{text}");
    // SIGHUP's comparison: nothing differs from itself, and from no settings at all, exactly
    // the keys the file has.
    assert!(file.keys_differing(&again).is_empty(), "{text}");
    let given = file.keys_differing(&ConfigFile::default());
    let mut written: Vec<String> = toml::from_str::<toml::Table>(&text)
        .map(|table| table.keys().cloned().collect())
        .unwrap_or_default();
    written.sort();
    assert_eq!(given, written, "the keys of\n{text}");
    let masked = file.masked();
    let shown = masked.to_toml();
    let read = ConfigFile::parse_bytes(shown.as_bytes())
        .unwrap_or_else(|err| panic!("a masked configuration reads: {err}\n{shown}"));
    assert_eq!(read.clone().masked(), read, "masking twice changed it");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_and_broken_files_pass() {
        let example = include_bytes!("../../../contrib/kingme.toml");
        config_file(example);
        for text in [
            &b""[..],
            b"db = \"postgres://u:p@x@h/db\"\ncluster = \"redis://:pw@r\"\n",
            b"listen = \n",
            b"a\n\n\n\xff",
            b"grace-secs = 99999999999999999999\n",
            b"tls-cert = \"\\u0000\\n\"\n",
        ] {
            config_file(text);
        }
        assert!(target("config_file").is_some() && target("nothing").is_none());
    }
}
