//! The README documents every key of the key table, and its picture of the game screen is
//! the snapshot the rendering test checks, so neither can drift from the program.

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap()
}

#[test]
fn every_key_is_in_the_readme() {
    let readme = readme();
    for (place, keys, what) in kingme_client::keys::rows() {
        let row = format!("| {place} | `{keys}` | {what} |");
        assert!(readme.contains(&row), "README lacks the key row {row}");
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
        readme().contains(snapshot.trim_end()),
        "README's game screen differs from tests/snapshots/checkers_selection.txt"
    );
}
