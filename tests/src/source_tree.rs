//! Reading the repository's own files, for the tests that check the source and the documents
//! (`tests/tests/docs.rs`): every file under a folder whose name ends a given way.

use std::fs;
use std::path::{Path, PathBuf};

/// Every file under `dir` whose name ends with `suffix` (`".rs"`, `".md"`), sorted, leaving out
/// the folders named in `skip` (build output such as `target`, test data) wherever they are.
#[must_use]
pub fn files_ending(dir: &Path, suffix: &str, skip: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                let skipped = skip.iter().any(|name| entry.file_name() == **name);
                if !skipped {
                    folders.push(path);
                }
            } else if entry.file_name().to_string_lossy().ends_with(suffix) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}
