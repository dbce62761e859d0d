//! Replays every saved fuzz input through the same target bodies the fuzzer runs
//! (`kingme_shared::fuzzing`, `kingme_client::fuzzing` for the key file reader and
//! `kingme_server::fuzzing` for the configuration file): the crashes found and fixed (`tests/fuzz/regressions/TARGET/`) and
//! the seed inputs (`tests/fuzz/seeds/TARGET/`). A fixed bug that comes back fails here, in
//! `cargo test --workspace`, without libFuzzer.

use kingme_shared::fuzzing;
use std::fs;
use std::path::Path;

/// Runs every file under `folder/TARGET/` through that target; returns how many ran.
fn replay(folder: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(folder);
    let mut replayed = 0;
    let targets = fs::read_dir(&root).unwrap_or_else(|err| panic!("{}: {err}", root.display()));
    for target in targets {
        let target = target.expect("a directory entry").path();
        let name = target
            .file_name()
            .and_then(|name| name.to_str())
            .expect("a target folder named in UTF-8");
        let body = fuzzing::target(name)
            .or_else(|| kingme_client::fuzzing::target(name))
            .or_else(|| kingme_server::fuzzing::target(name))
            .unwrap_or_else(|| panic!("{}: no fuzz target {name}", target.display()));
        for input in fs::read_dir(&target).expect("a target folder") {
            let input = input.expect("a directory entry").path();
            let data = fs::read(&input).expect("a saved input");
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{} fails again", input.display());
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn fixed_crashes_stay_fixed() {
    assert!(replay("regressions") > 0, "no regression inputs found");
}

#[test]
fn seed_inputs_pass() {
    assert!(
        replay("seeds")
            >= fuzzing::TARGETS.len()
                + kingme_client::fuzzing::TARGETS.len()
                + kingme_server::fuzzing::TARGETS.len(),
        "a target has no seed"
    );
}
