//! The end-to-end tests of kingme-tests in one test binary (one link of the server, the client
//! and tokio instead of one a file): the real server over real TCP and WebSocket, the load
//! tools' short runs, the fuzz crate's inputs and lock, the tidy checks of the source and the
//! checks of the documents (the rules against their plain references are `kingme-reference`'s
//! tests). One module a former test file, so a test's path names its subject
//! (`tidy::server_layers_import_only_downwards`).
//!
//! Behind features, each in its own binary: `browser` and `python_bot` (they need Chromium and
//! Python) and `cluster_client` (its own `main`: it is also the cluster's node process).

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

mod absence;
mod database_file;
mod docs;
mod floor_tool;
mod fuzz_lock;
mod fuzz_regressions;
mod games;
mod health;
mod hostile;
mod hostile_attacks;
mod identity;
mod lobby;
mod older_client;
mod play_build;
mod ports;
mod requests;
mod storage_failure;
mod test_targets;
mod tidy;
mod watching;
mod websocket;
mod welcome_first;
