//! The fuzz crate (`tests/fuzz/`, its own workspace) has its own `Cargo.lock`, which nothing in
//! `cargo test --workspace` builds: this checks that it is not stale. Every dependency of
//! `kingme-shared`, `kingme-server` and `kingme-client` is in it, at the version the main lock
//! has where the main lock has one (optional ones only when the fuzz crate may enable them: the
//! server's features are left out by the client it fuzzes, so its optional ones are not). Refresh it with `cp Cargo.lock tests/fuzz/ && cd tests/fuzz
//! && cargo update -w --offline` (docs/design/hardening.md, "Fuzzing").

use kingme_tests::source_tree::workspace_root as root;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

/// The packages of a `Cargo.lock`: each name with its versions.
fn locked(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut packages: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut name = None;
    for line in text.lines() {
        if let Some(value) = quoted(line, "name") {
            name = Some(value);
        } else if let (Some(value), Some(package)) = (quoted(line, "version"), name.take()) {
            packages.entry(package).or_default().insert(value);
        }
    }
    packages
}

/// The value of `key = "value"`.
fn quoted(line: &str, key: &str) -> Option<String> {
    let value = line
        .strip_prefix(key)?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    Some(value.strip_prefix('"')?.strip_suffix('"')?.to_string())
}

/// The names in a manifest's `[dependencies]` and `[target.….dependencies]` sections, but the
/// optional ones (`optional = true`), which a feature brings in.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        if !inside || line.is_empty() || line.starts_with('#') || line.contains("optional = true") {
            continue;
        }
        let end = line.find(['.', ' ', '=']).unwrap_or(line.len());
        names.push(line[..end].to_string());
    }
    names
}

#[test]
fn the_fuzz_lock_holds_every_dependency_of_the_fuzzed_crates() {
    let root = root();
    let read = |path: PathBuf| {
        fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
    };
    let main = locked(&read(root.join("Cargo.lock")));
    let fuzz = locked(&read(root.join("tests/fuzz/Cargo.lock")));
    let mut stale = BTreeSet::new();
    let mut checked = 0;
    for krate in ["shared", "server", "client"] {
        for name in dependencies(&read(root.join(krate).join("Cargo.toml"))) {
            checked += 1;
            match (fuzz.get(&name), main.get(&name)) {
                (None, _) => {
                    stale.insert(format!("{name} (a dependency of {krate}) is missing"));
                }
                (Some(have), Some(want)) if want.len() == 1 && have != want => {
                    stale.insert(format!(
                        "{name} is {have:?} in the fuzz lock, {want:?} in the main lock"
                    ));
                }
                _ => {}
            }
        }
    }
    assert!(checked > 40, "only {checked} dependencies read");
    assert!(
        stale.is_empty(),
        "tests/fuzz/Cargo.lock is stale; refresh it with `cp Cargo.lock tests/fuzz/ && cd \
         tests/fuzz && cargo update -w --offline`:\n{}",
        stale.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_lock_and_manifest_readers_read_what_cargo_writes() {
    let lock = "version = 4\n\n[[package]]\nname = \"zstd\"\nversion = \"0.13.5\"\n\
                source = \"registry\"\n\n[[package]]\nname = \"rand\"\nversion = \"0.8.8\"\n\n\
                [[package]]\nname = \"rand\"\nversion = \"0.9.5\"\n";
    let packages = locked(lock);
    assert_eq!(packages.len(), 2);
    assert_eq!(packages["rand"].len(), 2);
    assert!(packages["zstd"].contains("0.13.5"));
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nanyhow.workspace = true\n\
                    zstd = { version = \"0.13\" }\n# a comment\ntoml = \"1.2\"\n\
                    redis = { workspace = true, optional = true }\n\n\
                    [dev-dependencies]\nproptest = \"1\"\n\n\
                    [target.'cfg(unix)'.dependencies]\ntikv-jemallocator = \"0.6\"\n";
    assert_eq!(
        dependencies(manifest),
        ["anyhow", "zstd", "toml", "tikv-jemallocator"]
    );
}
