//! Tidy tests, in the spirit of rust-analyzer's: the architecture's invariants checked by reading
//! the source, so that they cannot rot silently. Each test names the ARCHITECTURE.md invariant
//! it keeps. They read files only; nothing is built or run.

use kingme_tests::source_tree::{files_ending, workspace_root as root};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted (build output, fixtures and fuzz seeds left out).
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    files_ending(dir, ".rs", &["target", "fixtures", "seeds"])
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// Invariant: every source file starts with a `//!` comment saying what it is.
#[test]
fn every_source_file_starts_with_a_doc_comment() {
    let root = root();
    let mut missing = Vec::new();
    for crate_dir in [
        "shared",
        "server",
        "client",
        "testkit",
        "tests",
        "reference",
    ] {
        for file in rust_files(&root.join(crate_dir)) {
            if !read(&file).trim_start().starts_with("//!") {
                missing.push(
                    file.strip_prefix(&root)
                        .unwrap_or(&file)
                        .display()
                        .to_string(),
                );
            }
        }
    }
    assert!(
        missing.is_empty(),
        "files without a `//!` comment: {missing:#?}"
    );
}

/// Invariant: the workspace denies unsafe code, and two files allow it, each block with its
/// `// SAFETY:` comment: the endgame database's memory map (`shared/src/ai/egdb/storage.rs`), and
/// the call of the engine's build for processors with popcnt and BMI2 once they were detected and
/// the prefetch instruction (`shared/src/cpu.rs`). The fuzz crate (`tests/fuzz`, outside the
/// workspace) has its own for a counting allocator.
#[test]
fn only_the_memory_map_uses_unsafe_code() {
    let root = root();
    let allowed = [
        root.join("shared/src/ai/egdb/storage.rs"),
        root.join("shared/src/cpu.rs"),
    ];
    // Spelt in two parts so that this file does not name itself.
    let word = concat!("un", "safe");
    let mut found = Vec::new();
    for crate_dir in [
        "shared",
        "server",
        "client",
        "testkit",
        "tests",
        "reference",
    ] {
        for file in rust_files(&root.join(crate_dir)) {
            if allowed.contains(&file) || file.starts_with(root.join("tests/fuzz")) {
                continue;
            }
            let source = read(&file);
            let uses = source.lines().any(|line| {
                let code = line.split("//").next().unwrap_or("");
                code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|token| token == word || token == concat!("un", "safe_code"))
            });
            if uses {
                found.push(
                    file.strip_prefix(&root)
                        .unwrap_or(&file)
                        .display()
                        .to_string(),
                );
            }
        }
    }
    assert!(
        found.is_empty(),
        "{word} code outside storage.rs and cpu.rs: {found:#?}"
    );
    for file in &allowed {
        // One `// SAFETY:` argument a block: the memory map has one, cpu.rs two (the call of
        // the newer build, the prefetch).
        let source = read(file);
        let blocks = source.matches(&format!("{word} {{")).count();
        assert!(
            blocks >= 1 && source.matches("// SAFETY:").count() == blocks,
            "{} has each {word} block explained",
            file.display()
        );
    }
}

/// The server's layers, lowest first: a module may import its own layer and those below.
const SERVER_LAYERS: &[&[&str]] = &[
    &["storage", "telemetry"],
    &["config"],
    &["options", "refusal"],
    &["players"],
    &["game"],
    &["lobby"],
    &["cluster"],
    &["net"],
    &["server"],
    // The crate's doors, which only re-export.
    &["embed", "fuzzing", "host", "test_support"],
];

/// One source file of the server as a module: its path of module names (`game/table/mod.rs`
/// and `game/table.rs` are both `["game", "table"]`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Module {
    path: Vec<String>,
}

/// Every module file of the library under `src` (`lib.rs` is the root; binaries, `main.rs` and
/// `bin/`, are crates of their own and left out).
fn crate_modules(src: &Path) -> BTreeMap<Vec<String>, (PathBuf, Module)> {
    let mut modules = BTreeMap::new();
    for file in rust_files(src) {
        let relative = file.strip_prefix(src).expect("under src");
        let mut path: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
            .collect();
        if path.first().is_some_and(|first| first == "bin") || path == ["main"] {
            continue;
        }
        let last = path.pop().unwrap_or_default();
        if last != "mod" && !(path.is_empty() && last == "lib") {
            path.push(last);
        }
        modules.insert(path.clone(), (file, Module { path }));
    }
    modules
}

/// The module paths a file's source refers to: `crate::a::b`, `super::c` and its own child
/// modules (`use child::X`), resolved to absolute paths of names.
fn referenced_paths(module: &Module, source: &str) -> Vec<Vec<String>> {
    let children: BTreeSet<String> = source
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("pub(crate) mod "))
                .or_else(|| line.strip_prefix("mod "))?;
            rest.strip_suffix(';').map(str::to_owned)
        })
        .collect();
    let here = module.path.clone();
    let parent = {
        let mut parent = here.clone();
        parent.pop();
        parent
    };
    // `super` of `a/b.rs` (module a::b) is `a`; of `a/mod.rs` (module a) it is the root.
    let mut found = Vec::new();
    // Comments may name paths (doc links) without importing anything.
    let code: String = source
        .lines()
        .map(|line| line.split_once("//").map_or(line, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n");
    let source = code.as_str();
    let bytes = source.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut at = 0;
    while at < bytes.len() {
        if !is_ident(bytes[at]) || (at > 0 && (is_ident(bytes[at - 1]) || bytes[at - 1] == b':')) {
            at += 1;
            continue;
        }
        // A path starting here: identifiers joined by `::`.
        let mut segments = Vec::new();
        let mut end = at;
        loop {
            let start = end;
            while end < bytes.len() && is_ident(bytes[end]) {
                end += 1;
            }
            if start == end {
                break;
            }
            segments.push(source[start..end].to_owned());
            if source[end..].starts_with("::") {
                end += 2;
            } else {
                break;
            }
        }
        at = end.max(at + 1);
        let Some(first) = segments.first() else {
            continue;
        };
        let base = match first.as_str() {
            "crate" => Vec::new(),
            "super" => parent.clone(),
            "self" => here.clone(),
            name if children.contains(name) => {
                let mut base = here.clone();
                base.push(name.to_owned());
                found.push(
                    base.iter()
                        .cloned()
                        .chain(segments[1..].iter().cloned())
                        .collect(),
                );
                continue;
            }
            _ => continue,
        };
        if segments.len() < 2 {
            continue;
        }
        found.push(
            base.into_iter()
                .chain(segments[1..].iter().cloned())
                .collect(),
        );
    }
    found
}

/// A library's import graph between files: an edge for each file a file refers to (the
/// longest module path that is a file), except to itself and to its own enclosing folders
/// (a child file implements part of its parent, and a folder's `mod.rs` is its namespace).
fn crate_imports(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules = crate_modules(src);
    let mut graph = BTreeMap::new();
    for (path, (file, module)) in &modules {
        // A file's inline tests may use anything of the crate: only its code counts.
        let source = read(file);
        let code_lines = non_test_lines(&source);
        let source: String = source
            .lines()
            .take(code_lines)
            .collect::<Vec<_>>()
            .join("\n");
        let mut edges = BTreeSet::new();
        for reference in referenced_paths(module, &source) {
            let target = (0..=reference.len())
                .rev()
                .map(|len| reference[..len].to_vec())
                .find(|prefix| modules.contains_key(prefix));
            let Some(target) = target else { continue };
            let is_enclosing = target.len() < path.len() && path.starts_with(&target);
            if &target != path && !is_enclosing {
                edges.insert(target);
            }
        }
        graph.insert(path.clone(), edges);
    }
    graph
}

/// The server's import graph between files.
fn server_imports() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    crate_imports(&root().join("server/src"))
}

fn layer_of(path: &[String]) -> Option<usize> {
    let top = path.first()?;
    SERVER_LAYERS
        .iter()
        .position(|layer| layer.contains(&top.as_str()))
}

/// Invariant: the server's layers import only downwards.
#[test]
fn server_layers_import_only_downwards() {
    let graph = server_imports();
    let mut wrong = Vec::new();
    for (from, edges) in &graph {
        if from.is_empty() {
            continue;
        }
        let from_layer = layer_of(from).unwrap_or_else(|| {
            panic!(
                "server/src/{} is in no layer of SERVER_LAYERS",
                from.join("/")
            )
        });
        for to in edges {
            if let Some(to_layer) = layer_of(to)
                && to_layer > from_layer
            {
                wrong.push(format!("{} imports {}", from.join("::"), to.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers: {wrong:#?}");
    // The check itself sees imports: the table uses the judge, the connection the lobby.
    let edge = |from: &[&str], to: &[&str]| {
        let from: Vec<String> = from.iter().map(|s| (*s).to_owned()).collect();
        let to: Vec<String> = to.iter().map(|s| (*s).to_owned()).collect();
        graph.get(&from).is_some_and(|edges| edges.contains(&to))
    };
    assert!(edge(&["game", "table", "course"], &["game", "bot"]));
    assert!(edge(&["net", "connection"], &["lobby", "feed"]));
}

/// The first import circle of `graph`, if there is one, as the files around it.
fn import_circle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    // Depth-first search keeping the current path; a back edge is a circle.
    fn visit(
        node: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        done: &mut BTreeSet<Vec<String>>,
        path: &mut Vec<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        if let Some(at) = path.iter().position(|step| step == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.clone());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, done, path) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| {
        visit(node, graph, &mut done, &mut Vec::new())
            .map(|circle| circle.iter().map(|path| path.join("::")).collect())
    })
}

/// Imports the circle check looks past, each with its reason: (library, importing module,
/// imported module, why). Each entry is a debt; the check fails when one no longer matches an
/// import, so that it is removed with the circle.
const KNOWN_CIRCLES: &[(&str, &str, &str, &str)] = &[];

/// Invariant: no import circle between the files of shared, the server or the client (each
/// library's modules, as the source says, whatever its folders), but the debts in
/// `KNOWN_CIRCLES`.
#[test]
fn files_import_no_circle() {
    let root = root();
    let mut circles = Vec::new();
    for src in ["shared/src", "server/src", "client/src"] {
        let mut graph = crate_imports(&root.join(src));
        for (library, from, to, _) in KNOWN_CIRCLES.iter().filter(|known| known.0 == src) {
            let mut removed = false;
            for (module, edges) in graph.iter_mut() {
                if module.first().is_some_and(|top| top == from) {
                    removed |= edges.remove(&vec![(*to).to_owned()]);
                }
            }
            assert!(
                removed,
                "{library}: no import of {to} by {from} any more: remove it from KNOWN_CIRCLES"
            );
        }
        assert!(graph.len() > 20, "{src}: the modules are found");
        if let Some(circle) = import_circle(&graph) {
            circles.push(format!("{src}: {}", circle.join(" -> ")));
        }
    }
    assert!(circles.is_empty(), "import circles: {circles:#?}");
}

/// Invariant: one module style: a folder's module is its `mod.rs`, never a `name.rs` beside the
/// folder `name/`.
#[test]
fn a_folder_module_is_its_mod_rs() {
    let root = root();
    let mut beside = Vec::new();
    for src in [
        "shared/src",
        "server/src",
        "client/src",
        "testkit/src",
        "tests/src",
    ] {
        let files = rust_files(&root.join(src));
        assert!(files.len() > 3, "{src}: the files are found");
        for file in files {
            if file.with_extension("").is_dir() {
                beside.push(
                    file.strip_prefix(&root)
                        .unwrap_or(&file)
                        .display()
                        .to_string(),
                );
            }
        }
    }
    assert!(
        beside.is_empty(),
        "files beside their folder (move each into the folder as mod.rs): {beside:#?}"
    );
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let path = |name: &str| vec![name.to_owned()];
    let mut graph = BTreeMap::new();
    graph.insert(path("a"), BTreeSet::from([path("b")]));
    graph.insert(path("b"), BTreeSet::from([path("c")]));
    graph.insert(path("c"), BTreeSet::new());
    assert_eq!(import_circle(&graph), None);
    graph.insert(path("c"), BTreeSet::from([path("a")]));
    assert_eq!(
        import_circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

/// Invariant: the table asks the seat; only the seat's own file names a seat's variants.
#[test]
fn only_the_seat_names_a_seat_variant() {
    let src = root().join("server/src");
    let mut naming = Vec::new();
    for file in rust_files(&src) {
        if file.ends_with("game/seat.rs") {
            continue;
        }
        let source = read(&file);
        for variant in ["Seat::Empty", "Seat::Human", "Seat::Bot"] {
            if source.contains(variant) {
                naming.push(format!("{} names {variant}", file.display()));
            }
        }
    }
    assert!(naming.is_empty(), "{naming:#?}");
}

/// Invariant: errors across the server's boundaries are typed; no `Result<_, String>`.
#[test]
fn the_server_returns_no_string_errors() {
    let src = root().join("server/src");
    let mut found = Vec::new();
    for file in rust_files(&src) {
        let source = read(&file);
        let flat: String = source.split_whitespace().collect();
        if flat.contains(",String>") && flat.contains("Result<") {
            for (number, line) in source.lines().enumerate() {
                let compact: String = line.split_whitespace().collect();
                if compact.contains("Result<") && compact.contains(",String>") {
                    found.push(format!(
                        "{}:{}: {}",
                        file.display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_path_reader_resolves_crate_super_and_child_paths() {
    let module = Module {
        path: vec!["game".into(), "table".into()],
    };
    let source = "mod course;\nuse super::seat::Seat;\nuse crate::players::Session;\nuse course::X;\nlet a = kingme_shared::protocol::GameId(1);\n//! [`crate::lobby::Lobby`]";
    let found = referenced_paths(&module, source);
    let joined: Vec<String> = found.iter().map(|path| path.join("::")).collect();
    assert!(
        joined.contains(&"game::seat::Seat".to_owned()),
        "{joined:?}"
    );
    assert!(
        joined.contains(&"players::Session".to_owned()),
        "{joined:?}"
    );
    assert!(
        joined.contains(&"game::table::course::X".to_owned()),
        "{joined:?}"
    );
    assert!(
        !joined.iter().any(|path| path.contains("protocol")),
        "{joined:?}"
    );
}

/// Where a particular game may be named: its own folder, and the parts that draw a board, write
/// notation, run an engine or list the games once.
const MAY_NAME_A_GAME: &[(&str, &str)] = &[
    ("shared/src/games/", "the games themselves"),
    (
        "shared/src/any_game.rs",
        "the one list of the games (`dispatch!`)",
    ),
    (
        "shared/src/game_kind.rs",
        "the one list of the games' names",
    ),
    (
        "shared/src/conformance.rs",
        "the one line per game of the conformance suite",
    ),
    (
        "shared/src/ai/",
        "the engines: one search per game behind `think`",
    ),
    (
        "shared/src/record/",
        "notation: record formats (PDN is checkers' own)",
    ),
    ("shared/src/fuzzing/", "fuzz bodies: one per text format"),
    (
        "shared/src/review/",
        "the review: each game's evaluation scale and marks, checkers' exact results",
    ),
    ("client/src/tui/ui/", "drawing"),
    (
        "client/src/game/board_geometry.rs",
        "drawing: squares to cells",
    ),
    ("client/src/game/animation.rs", "drawing: a move sliding"),
    ("client/src/tui/setup_board.rs", "drawing: the setup board"),
    (
        "client/src/game/selection.rs",
        "drawing: picking pieces up and putting them down",
    ),
    ("client/src/plain/board_text.rs", "drawing: the plain board"),
    ("client/src/game/move_list.rs", "notation: the move lists"),
    ("client/src/game/words.rs", "notation: results in words"),
    (
        "client/src/tools/",
        "engine tools (perft, endgame databases, ballots are checkers')",
    ),
    (
        "client/src/archive/mod.rs",
        "notation: which record format a game is exported in",
    ),
    (
        "server/src/storage/schema.rs",
        "migrations: the columns of older schemas",
    ),
    (
        "server/src/storage/postgres_schema.rs",
        "migrations: the columns of older schemas, in PostgreSQL's dialect",
    ),
    (
        "server/src/storage/conformance/",
        "the store conformance suite: test code that stores games of each kind",
    ),
];

/// Invariant: game-specific code stays behind `Game`: outside the allowed places no source
/// (tests aside) names a particular game.
#[test]
fn only_games_drawing_notation_and_engines_name_a_particular_game() {
    let root = root();
    let names = [
        "GameKind::Checkers",
        "GameKind::Pente",
        "GameKind::TicTacToe",
        "games::checkers",
        "games::pente",
        "games::tictactoe",
        "PenteRules",
        "pente_tournament_rule",
    ];
    let mut naming = Vec::new();
    for crate_dir in ["shared/src", "server/src", "client/src"] {
        for file in rust_files(&root.join(crate_dir)) {
            let relative = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .display()
                .to_string();
            if MAY_NAME_A_GAME
                .iter()
                .any(|(allowed, _)| relative.starts_with(allowed))
                || relative.ends_with("/tests.rs")
            {
                continue;
            }
            let source = read(&file);
            // Tests may name the game they test.
            let code = source.split("#[cfg(test)]").next().unwrap_or_default();
            for name in names {
                if code.contains(name) {
                    naming.push(format!("{relative} names {name}"));
                }
            }
        }
    }
    assert!(naming.is_empty(), "{naming:#?}");
}

/// Invariant: the referee, the clock and storage speak the judge's vocabulary (`domain`), not the
/// wire's: none of them imports `protocol`, so the wire can change without touching them.
#[test]
fn the_referee_the_clock_and_storage_do_not_use_the_wire() {
    let root = root();
    let mut files = rust_files(&root.join("server/src/storage"));
    files.push(root.join("server/src/game/judge.rs"));
    files.push(root.join("server/src/game/clock.rs"));
    assert!(files.len() > 3, "the files are found: {files:?}");
    let wired: Vec<String> = files
        .iter()
        .filter(|file| read(file).contains("protocol::"))
        .map(|file| file.display().to_string())
        .collect();
    assert!(wired.is_empty(), "these use the wire module: {wired:#?}");
}

/// Invariant: every cluster message on Redis is encoded and decoded by `cluster/wire.rs`, with
/// its size limit both ways: no other file of the cluster calls serde_json.
#[test]
fn cluster_messages_are_encoded_in_one_place() {
    let root = root();
    let cluster = root.join("server/src/cluster");
    let files = rust_files(&cluster);
    let wire = cluster.join("wire.rs");
    assert!(files.contains(&wire), "server/src/cluster/wire.rs exists");
    let encoding: Vec<String> = files
        .iter()
        .filter(|file| **file != wire && read(file).contains("serde_json"))
        .map(|file| file.display().to_string())
        .collect();
    assert!(
        encoding.is_empty(),
        "these cluster files use serde_json instead of cluster::wire: {encoding:#?}"
    );
    let source = read(&wire);
    assert!(
        source.contains("pub fn encode<") && source.contains("pub fn decode<"),
        "cluster/wire.rs has the encode/decode pair"
    );
}

/// Invariant: client messages are encoded only by `protocol/codec.rs` (bincode frames) and
/// `protocol/json.rs` (the WebSocket's JSON). Outside them no source code names bincode, and
/// serde_json serves only what is not a protocol message: the page's catalogue and binding, and
/// the cluster's envelopes (`cluster/wire.rs`, checked on its own).
#[test]
fn client_messages_are_encoded_only_by_the_codecs() {
    let root = root();
    let codec = "shared/src/protocol/codec.rs";
    let json = "shared/src/protocol/json.rs";
    let other_json = [
        "server/src/net/web/catalogue.rs",
        "server/src/net/web/binding.rs",
        "server/src/cluster/wire.rs",
    ];
    let mut wrong = Vec::new();
    for crate_dir in [
        "shared/src",
        "server/src",
        "client/src",
        "testkit/src",
        "tests/src",
    ] {
        for file in rust_files(&root.join(crate_dir)) {
            let relative = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .display()
                .to_string();
            let code = code_of(&read(&file));
            if code.contains("bincode::") && relative != codec {
                wrong.push(format!("{relative} uses bincode"));
            }
            if code.contains("serde_json::")
                && relative != json
                && !other_json.contains(&relative.as_str())
            {
                wrong.push(format!("{relative} uses serde_json"));
            }
        }
    }
    for (file, crate_name) in [(codec, "bincode::"), (json, "serde_json::")] {
        assert!(
            code_of(&read(&root.join(file))).contains(crate_name),
            "{file} encodes with {crate_name}"
        );
    }
    assert!(wrong.is_empty(), "encoding outside the codecs: {wrong:#?}");
}

/// Invariant: only its table task changes a game, and nothing holds a lock around one: no
/// `Mutex` or `RwLock` in the server wraps a `Judge` or a game's position (`AnyGame`), and the
/// judge is owned by the table's own module.
#[test]
fn no_lock_is_held_around_a_game() {
    let root = root();
    let src = root.join("server/src");
    let mut wrong = Vec::new();
    let mut judges = Vec::new();
    for file in rust_files(&src) {
        let code: String = code_of(&read(&file)).split_whitespace().collect();
        for lock in ["Mutex<", "RwLock<"] {
            for game in ["Judge", "AnyGame"] {
                let pattern = format!("{lock}{game}");
                if code.contains(&pattern)
                    || code.contains(&format!("{lock}Option<{game}"))
                    || code.contains(&format!("{lock}Box<{game}"))
                {
                    wrong.push(format!("{}: {pattern}", file.display()));
                }
            }
        }
        if code.contains("judge:Judge") {
            judges.push(
                file.strip_prefix(&src)
                    .unwrap_or(&file)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(wrong.is_empty(), "a lock around a game: {wrong:#?}");
    assert!(
        !judges.is_empty() && judges.iter().all(|file| file.starts_with("game/table")),
        "a Judge is held only by the table: {judges:?}"
    );
}

/// Invariant: the server reaches its database only through the `Store` seam: no file outside
/// `server/src/storage/` names `rusqlite` or the `postgres` crate.
#[test]
fn the_database_is_reached_only_from_storage() {
    let root = root();
    let src = root.join("server/src");
    let storage = src.join("storage");
    let mut outside = Vec::new();
    let mut inside = 0;
    for file in rust_files(&src) {
        let code = code_of(&read(&file));
        let names_a_driver = code.contains("rusqlite") || code.contains("postgres::");
        if file.starts_with(&storage) {
            inside += usize::from(names_a_driver);
        } else if names_a_driver {
            outside.push(file.display().to_string());
        }
    }
    assert!(
        inside >= 2,
        "the SQLite and PostgreSQL stores are found in storage/"
    );
    assert!(
        outside.is_empty(),
        "these files reach a database driver outside storage/ (go through `Store`): {outside:#?}"
    );
}

/// The lines of `source` that are not test code: those before the first `#[cfg(test)]` that
/// opens an inline test module (`mod NAME {`, maybe after more attributes). A file whose tests
/// sit in a sibling file (`mod tests;`) counts whole.
fn non_test_lines(source: &str) -> usize {
    let lines: Vec<&str> = source.lines().collect();
    for (at, line) in lines.iter().enumerate() {
        if line.trim() != "#[cfg(test)]" {
            continue;
        }
        let item = lines[at + 1..]
            .iter()
            .map(|line| line.trim())
            .find(|line| !line.starts_with("#[") && !line.starts_with("//"));
        if item.is_some_and(|item| {
            let item = item.strip_prefix("pub(crate) ").unwrap_or(item);
            item.starts_with("mod ") && item.ends_with('{')
        }) {
            return at;
        }
    }
    lines.len()
}

/// Invariant: no source file has over 600 lines of non-test code; a longer one is split by
/// concept into a folder.
#[test]
fn no_file_has_over_600_lines_of_non_test_code() {
    let root = root();
    let mut long = Vec::new();
    let mut counted = 0;
    for crate_dir in [
        "shared/src",
        "server/src",
        "client/src",
        "tests/src",
        "testkit/src",
    ] {
        for file in rust_files(&root.join(crate_dir)) {
            counted += 1;
            let lines = non_test_lines(&read(&file));
            if lines > 600 {
                long.push(format!(
                    "{}: {lines}",
                    file.strip_prefix(&root).unwrap_or(&file).display()
                ));
            }
        }
    }
    assert!(counted > 100, "the sources are found ({counted} files)");
    assert!(
        long.is_empty(),
        "files over 600 lines of non-test code: {long:#?}"
    );
}

#[test]
fn the_line_counter_stops_at_an_inline_test_module() {
    let code = "fn a() {}\n#[cfg(test)]\nfn helper() {}\n";
    assert_eq!(non_test_lines(code), 3);
    let inline = "fn a() {}\n\n#[cfg(test)]\n#[allow(unused)]\nmod tests {\n    fn t() {}\n}\n";
    assert_eq!(non_test_lines(inline), 2);
    let sibling = "fn a() {}\n#[cfg(test)]\nmod tests;\n";
    assert_eq!(non_test_lines(sibling), 3);
}

/// What reads a clock, the OS or the outside world: files, sockets, the clock, OS randomness,
/// tokio, the environment and processes.
const IO_AND_CLOCK: &[&str] = &[
    "std::fs",
    "fs::",
    "File::",
    "std::net",
    "TcpStream",
    "Instant::now",
    "SystemTime",
    "getrandom",
    "tokio",
    "rand::rng()",
    "thread_rng",
    "OsRng",
    "std::env",
    "std::process",
];

/// Where shared, outside its rules, may do what [`IO_AND_CLOCK`] names, and why.
const SHARED_MAY_DO_IO: &[(&str, &[&str], &str)] = &[
    (
        "shared/src/ai/clock.rs",
        &["Instant::now"],
        "the engine's one clock, handed to every search with its limits",
    ),
    (
        "shared/src/ai/egdb/",
        &["std::fs", "fs::", "File::"],
        "endgame databases are files, mapped or read where they lie",
    ),
    (
        "shared/src/identity.rs",
        &["getrandom"],
        "keys and nonces come from the OS random source",
    ),
    (
        "shared/src/tokio_codec.rs",
        &["tokio"],
        "the frame codec's tokio-util adaptors, behind the `codec` feature",
    ),
    ("shared/src/lib.rs", &["tokio"], "declares tokio_codec"),
];

/// The non-comment code of `source` before its inline tests.
fn code_of(source: &str) -> String {
    source
        .lines()
        .take(non_test_lines(source))
        .map(|line| line.split_once("//").map_or(line, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Invariant: shared's rules, records and protocol (`games/`, `record/`, `protocol/`, `domain/`
/// and the games' vocabulary beside them) do no I/O and read no clock: no files, sockets, clock, OS randomness or tokio, tests included; elsewhere
/// in shared only the places in `SHARED_MAY_DO_IO` do, each for its reason.
#[test]
fn shared_rules_do_no_io_and_read_no_clock() {
    let root = root();
    let mut found = Vec::new();
    let rules = [
        "games",
        "record",
        "protocol",
        "domain",
        "game.rs",
        "game_kind.rs",
        "side.rs",
        "any_game.rs",
        "board_view.rs",
    ];
    for part in rules {
        let path = root.join("shared/src").join(part);
        let files = if part.ends_with(".rs") {
            vec![path]
        } else {
            rust_files(&path)
        };
        assert!(
            files.iter().all(|file| file.exists()) && !files.is_empty(),
            "shared/src/{part} is there"
        );
        for file in files {
            let source = read(&file);
            let code: String = source
                .lines()
                .map(|line| line.split_once("//").map_or(line, |(code, _)| code))
                .collect::<Vec<_>>()
                .join("\n");
            for name in IO_AND_CLOCK {
                if code.contains(name) {
                    found.push(format!("{} uses {name}", file.display()));
                }
            }
        }
    }
    for file in rust_files(&root.join("shared/src")) {
        let relative = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        let code = code_of(&read(&file));
        for name in IO_AND_CLOCK {
            let allowed = SHARED_MAY_DO_IO
                .iter()
                .any(|(place, what, _)| relative.starts_with(place) && what.contains(name));
            if code.contains(name) && !allowed {
                found.push(format!("{relative} uses {name}"));
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "I/O or a clock where shared allows none: {found:#?}"
    );
}
