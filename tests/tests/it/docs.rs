//! Checks of the documents, in the spirit of the tidy tests: the README and ARCHITECTURE.md stay
//! short enough to read whole, every invariant of ARCHITECTURE.md names a test that exists in the
//! crate it names (or says plainly that nothing checks it), every relative link of the documents
//! leads to a file and heading that exist, and the index of `docs/` lists every document there.
//! They read files only; nothing is built or run.

use kingme_tests::source_tree::{self, workspace_root as root};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines the README may have: a newcomer reads it whole.
const README_LINES: usize = 400;

/// The most lines ARCHITECTURE.md may have: a map, not an inventory.
const ARCHITECTURE_LINES: usize = 300;

/// Test names that stand for a test still to be written, each with the reason it may stand.
/// Remove an entry when its test exists; the check then requires the real name.
const PLACEHOLDERS: &[(&str, &str)] = &[];

/// The words by which an invariant says that no test keeps it.
const UNCHECKED: &[&str] = &["unchecked", "nothing checks"];

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// Every file under `dir` whose name ends with `suffix`; build output is skipped.
fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    source_tree::files_ending(dir, suffix, &["target"])
}

/// Lines as `wc -l` counts them.
fn lines(path: &Path) -> usize {
    read(path).matches('\n').count()
}

#[test]
fn the_readme_and_the_architecture_stay_short() {
    let root = root();
    for (name, most) in [
        ("README.md", README_LINES),
        ("ARCHITECTURE.md", ARCHITECTURE_LINES),
    ] {
        let count = lines(&root.join(name));
        assert!(
            count <= most,
            "{name} has {count} lines, more than {most}: move detail into docs/"
        );
    }
}

/// The workspace's crates by package name, each with its folder.
fn crates() -> BTreeMap<String, PathBuf> {
    let root = root();
    let mut crates = BTreeMap::new();
    let Ok(entries) = fs::read_dir(&root) else {
        panic!("cannot list {}", root.display());
    };
    for entry in entries.flatten() {
        let manifest = entry.path().join("Cargo.toml");
        let Ok(text) = fs::read_to_string(&manifest) else {
            continue;
        };
        let name = text.lines().find_map(|line| {
            let value = line.trim().strip_prefix("name = \"")?;
            value.strip_suffix('"').map(str::to_owned)
        });
        if let Some(name) = name {
            crates.insert(name, entry.path());
        }
    }
    crates
}

/// The names of every function defined under `dir`.
fn functions_in(dir: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for file in files_ending(dir, ".rs") {
        let source = read(&file);
        let mut rest = source.as_str();
        while let Some(at) = rest.find("fn ") {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + 3..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

/// Each `**Invariant:**` of the text with the lines that continue it (up to the next item,
/// heading or blank line), joined into one line.
fn invariants(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let ends = line.trim().is_empty() || line.starts_with("- ") || line.starts_with('#');
        if ends && let Some(done) = current.take() {
            found.push(done);
        }
        if line.contains("**Invariant:**") {
            if let Some(done) = current.take() {
                found.push(done);
            }
            current = Some(line.trim().to_owned());
        } else if let Some(item) = &mut current {
            item.push(' ');
            item.push_str(line.trim());
        }
    }
    found.extend(current);
    found
}

/// A test as an invariant names it: `crate: module::test`, or `module::test` after an earlier
/// name of the same invariant gave the crate.
#[derive(Debug, PartialEq)]
struct TestName {
    krate: Option<String>,
    path: String,
}

impl TestName {
    /// The test named by a code span, if it names one: a path of snake_case segments with at
    /// least one `::`, or anything after a `kingme-…: ` crate prefix.
    fn read(span: &str) -> Option<TestName> {
        let (krate, path) = match span.split_once(": ") {
            Some((krate, path)) if krate.starts_with("kingme-") => {
                (Some(krate.to_owned()), path.to_owned())
            }
            _ => (None, span.to_owned()),
        };
        let snake = path.split("::").all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        });
        (krate.is_some() || (snake && path.contains("::"))).then_some(TestName { krate, path })
    }

    /// The function's own name: the last segment of the path.
    fn function(&self) -> &str {
        self.path.rsplit("::").next().unwrap_or(&self.path)
    }
}

/// The code spans (between backticks) of a line of Markdown.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn every_invariant_names_a_test_or_says_none_checks_it() {
    let root = root();
    let crates = crates();
    let mut defined: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (name, dir) in &crates {
        defined.insert(name, functions_in(dir));
    }
    let architecture = read(&root.join("ARCHITECTURE.md"));
    let invariants = invariants(&architecture);
    assert!(
        invariants.len() >= 20,
        "found only {} invariants in ARCHITECTURE.md: is the list's form broken?",
        invariants.len()
    );
    let mut wrong = Vec::new();
    for invariant in &invariants {
        let mut krate: Option<String> = None;
        let mut named = 0;
        for name in code_spans(invariant).into_iter().filter_map(TestName::read) {
            if name.krate.is_some() {
                krate.clone_from(&name.krate);
            }
            // A path before any crate was named is a module of the prose (`std::fs`), not a test.
            let Some(krate) = &krate else {
                continue;
            };
            named += 1;
            if PLACEHOLDERS
                .iter()
                .any(|(placeholder, _)| *placeholder == name.path)
            {
                eprintln!(
                    "a placeholder stands for a test still to come: {}",
                    name.path
                );
                continue;
            }
            match defined.get(krate.as_str()) {
                None => wrong.push(format!("no crate {krate}: {invariant}")),
                Some(functions) if !functions.contains(name.function()) => {
                    wrong.push(format!("no fn {} in {krate}: {invariant}", name.function()))
                }
                Some(_) => {}
            }
        }
        let lower = invariant.to_lowercase();
        if named == 0 && !UNCHECKED.iter().any(|words| lower.contains(words)) {
            wrong.push(format!(
                "names no test and does not say it is unchecked: {invariant}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside fenced code).
fn anchors(text: &str) -> BTreeSet<String> {
    prose_lines(text)
        .filter_map(|line| line.strip_prefix('#'))
        .map(|heading| anchor(heading.trim_start_matches('#')))
        .collect()
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        // Code spans hold no links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                targets.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
    targets
}

/// The documents whose links are checked: the three at the root and everything in `docs/`.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut documents: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "PROTOCOL.md"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    documents.extend(files_ending(&root.join("docs"), ".md"));
    documents
}

#[test]
fn every_relative_link_points_to_a_file() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let text = read(&document);
        let folder = document.parent().unwrap_or(Path::new("."));
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() {
                document.clone()
            } else {
                folder.join(file)
            };
            if !path.exists() {
                broken.push(format!("{}: {target}: no such file", document.display()));
            } else if !fragment.is_empty()
                && path.extension().is_some_and(|ext| ext == "md")
                && !anchors(&read(&path)).contains(fragment)
            {
                broken.push(format!("{}: {target}: no such heading", document.display()));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the reader broken?"
    );
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn every_document_is_in_the_index() {
    let docs = root().join("docs");
    let index = read(&docs.join("README.md"));
    let listed: BTreeSet<String> = link_targets(&index)
        .into_iter()
        .map(|target| target.split('#').next().unwrap_or_default().to_owned())
        .collect();
    let missing: Vec<String> = files_ending(&docs, ".md")
        .iter()
        .filter_map(|path| path.strip_prefix(&docs).ok())
        .map(|path| path.to_string_lossy().replace('\\', "/"))
        .filter(|path| path != "README.md" && !listed.contains(path))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/README.md does not list {missing:?}"
    );
}

#[test]
fn a_test_name_is_read_with_or_without_its_crate() {
    assert_eq!(
        TestName::read("kingme-tests: tidy::server_files_import_no_circle"),
        Some(TestName {
            krate: Some("kingme-tests".to_owned()),
            path: "tidy::server_files_import_no_circle".to_owned(),
        })
    );
    assert_eq!(
        TestName::read("tidy::x").map(|name| name.function().to_owned()),
        Some("x".to_owned())
    );
    for not_a_test in [
        "Judge::play",
        "shared/src/ai/",
        "MAX_CLIENT_FRAME",
        "ai::think()",
    ] {
        assert_eq!(TestName::read(not_a_test), None, "{not_a_test}");
    }
    assert_eq!(
        anchor("The web door: a browser, or a bot in any language"),
        "the-web-door-a-browser-or-a-bot-in-any-language"
    );
    assert_eq!(
        anchor("Every game: the `Game` conformance suite"),
        "every-game-the-game-conformance-suite"
    );
}
