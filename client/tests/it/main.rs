//! The client's integration tests in one test binary: the app's state machine, key table,
//! intents and plain session on scripted messages; its screens as snapshots; the connection
//! task against a scripted server; and the real `kingme` binary against the real server (plain
//! mode, the embedded server, bots, identity, trust on first use, a relay attack, `kingme
//! admin`). One module a
//! former test file; what several share is in [`fixtures`] and `kingme-testkit`.
//!
//! Apart, with a `main` of its own: `bot_restart` (the test binary is also the server process
//! it kills).

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

mod admin_e2e;
mod app_input;
mod bot_client;
mod broken_pipe;
mod e2e;
mod fixtures;
mod identity_e2e;
mod identity_tui;
mod intent;
mod keys;
mod net_reconnect;
mod plain_session;
mod ratings;
mod readme;
mod relay_attack;
mod returning;
mod review_board;
mod snapshots;
mod stale_views;
mod trust_e2e;
mod watch_finished;
mod yardstick;

/// The `kingme` binary the tests run.
const KINGME: &str = env!("CARGO_BIN_EXE_kingme");
