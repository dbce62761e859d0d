//! Invariants of `kingme-shared` a program can check, in the spirit of rust-analyzer's tidy
//! tests: they fail the build when a rule of ARCHITECTURE.md stops being true.

use std::process::Command;

/// The packages no build of the rules, the AI and the protocol may pull in: `shared` is pure
/// and runs under no async runtime. (The `codec` feature adds the tokio-util adaptors for the
/// crates that do run tokio; it is optional, so it is not counted here.)
const FORBIDDEN: [&str; 2] = ["tokio", "tokio-util"];

#[test]
fn shared_depends_on_no_tokio_unless_asked() {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let shared = metadata["packages"]
        .as_array()
        .expect("a package list")
        .iter()
        .find(|package| package["name"] == "kingme-shared")
        .expect("kingme-shared is a workspace member");
    let dependencies = shared["dependencies"]
        .as_array()
        .expect("a dependency list");
    let normal: Vec<&str> = dependencies
        .iter()
        // Normal dependencies have no kind; dev and build ones say so.
        .filter(|dependency| dependency["kind"].is_null())
        .filter(|dependency| dependency["optional"] != true)
        .filter_map(|dependency| dependency["name"].as_str())
        .collect();
    assert!(
        normal.contains(&"serde"),
        "the list is read right: {normal:?}"
    );
    for forbidden in FORBIDDEN {
        assert!(
            !normal.contains(&forbidden),
            "kingme-shared depends on {forbidden}; keep it behind an optional feature"
        );
    }
    // The adaptors are there for those who ask.
    let codec = shared["features"]["codec"]
        .as_array()
        .expect("a codec feature");
    assert!(
        codec.iter().any(|item| item == "dep:tokio-util"),
        "{codec:?}"
    );
}
