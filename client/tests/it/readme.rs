//! The documents show the program as it is: the player's guide (`docs/player-guide.md`) lists
//! every row of the key table, and the README's picture of the game screen is the snapshot the
//! rendering test checks, so neither can drift from the program.

/// A document of the repository, by its path from the workspace's root.
fn document(path: &str) -> String {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|err| panic!("cannot read {full}: {err}"))
}

#[test]
fn every_key_is_in_the_player_guide() {
    let guide = document("docs/player-guide.md");
    for (place, keys, what) in kingme_client::tui::keys::rows() {
        let row = format!("| {place} | `{keys}` | {what} |");
        assert!(
            guide.contains(&row),
            "docs/player-guide.md lacks the key row {row}"
        );
    }
}

#[test]
fn the_readme_picture_is_the_rendered_screen() {
    let snapshot = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/snapshots/checkers_selection.txt"
    ))
    .unwrap();
    assert!(
        document("README.md").contains(snapshot.trim_end()),
        "README's game screen differs from tests/snapshots/checkers_selection.txt"
    );
}
