//! What the play command builds: `cargo run --release --bin kingme`, typed at the workspace's
//! root, builds the client with the embedded server and none of the hosting parts (PostgreSQL,
//! Redis, the HTTP door's axum, the server binary's jemalloc and log filters). The workspace's
//! `default-members` and the server's features make it so; `cargo tree` at the root, with no
//! package named, resolves exactly what that command compiles.

use kingme_tests::source_tree::workspace_root;
use std::collections::BTreeSet;
use std::process::Command;

/// Packages only a hosted server needs.
const HOSTING_ONLY: [&str; 7] = [
    "postgres",
    "redis",
    "axum",
    "tungstenite",
    "tikv-jemalloc-sys",
    "tracing-subscriber",
    "icu_segmenter",
];

/// The packages `cargo tree` lists for the normal dependencies of what is selected by `args`,
/// run at the workspace's root.
fn packages(args: &[&str]) -> BTreeSet<String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_play_command_builds_none_of_the_hosting_parts() {
    let played = packages(&[]);
    assert!(
        played.contains("kingme-client") && played.contains("kingme-server"),
        "the play command builds the client and its embedded server: {played:?}"
    );
    let hosting: Vec<&str> = HOSTING_ONLY
        .into_iter()
        .filter(|name| played.contains(*name))
        .collect();
    assert!(
        hosting.is_empty(),
        "`cargo run --release --bin kingme` would build these hosting parts: {hosting:?}"
    );
    // The check sees them where they are: the hosted server has them.
    let hosted = packages(&["-p", "kingme-server"]);
    for name in ["postgres", "redis", "axum", "tikv-jemalloc-sys"] {
        assert!(hosted.contains(name), "the server has {name}");
    }
}
