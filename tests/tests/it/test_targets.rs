//! The targets that `cargo test` does not build as tests (`test = false` in their manifest: the
//! load tools, the server's binary, the testkit) hold no tests, so none can be written there and
//! never run.

use kingme_tests::source_tree::{files_ending, workspace_root};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's crates, as its manifest lists them.
fn members(root: &Path) -> Vec<String> {
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    let list = manifest
        .lines()
        .find_map(|line| line.strip_prefix("members = ["))
        .expect("a members list on one line");
    list.trim_end_matches(']')
        .split(',')
        .map(|member| member.trim().trim_matches('"').to_owned())
        .filter(|member| !member.is_empty())
        .collect()
}

/// The source files of the targets a manifest marks `test = false`: a `[[bin]]`'s file (or its
/// folder), or a `[lib]`'s whole `src/` folder.
fn untested_sources(crate_dir: &Path) -> Vec<PathBuf> {
    let manifest = fs::read_to_string(crate_dir.join("Cargo.toml")).expect("a manifest");
    let mut found = Vec::new();
    for section in manifest.split("\n[").skip(1) {
        let (header, body) = section.split_once('\n').unwrap_or((section, ""));
        let value = |key: &str| {
            body.lines()
                .take_while(|line| !line.starts_with('['))
                .filter_map(|line| line.split_once('='))
                .find(|(name, _)| name.trim() == key)
                .map(|(_, value)| value.trim().trim_matches('"').to_owned())
        };
        if value("test").as_deref() != Some("false") {
            continue;
        }
        match header.trim_end_matches(']') {
            "[bin" => {
                let name = value("name").expect("a binary has a name");
                match value("path") {
                    Some(path) => found.push(crate_dir.join(path)),
                    // Cargo's places for it: a file, or a folder with its modules.
                    None => {
                        found.push(crate_dir.join(format!("src/bin/{name}.rs")));
                        found.extend(files_ending(
                            &crate_dir.join(format!("src/bin/{name}")),
                            ".rs",
                            &[],
                        ));
                    }
                }
            }
            "lib" => found.extend(files_ending(&crate_dir.join("src"), ".rs", &[])),
            other => panic!("test = false in [{other}] of {}", crate_dir.display()),
        }
    }
    found
}

#[test]
fn targets_built_without_tests_hold_none() {
    let root = workspace_root();
    let mut checked = 0;
    let mut with_tests = Vec::new();
    for crate_dir in members(&root) {
        for file in untested_sources(&root.join(crate_dir)) {
            let Ok(source) = fs::read_to_string(&file) else {
                continue;
            };
            checked += 1;
            if ["#[test]", "#[cfg(test)]", "#[tokio::test"]
                .iter()
                .any(|mark| source.contains(mark))
            {
                with_tests.push(file.display().to_string());
            }
        }
    }
    // The load tools, the server's binary and the testkit's files at least.
    assert!(checked >= 6, "only {checked} files are marked test = false");
    assert!(
        with_tests.is_empty(),
        "tests in targets built with test = false (they would never run): {with_tests:#?}"
    );
}
