//! The fault suite's long tests, against the real `kingme-server` binary on a SQLite file:
//!
//! - [`kill_loop`]: one game against the bot, the server stopped 60 times in its middle;
//! - [`many_games`]: the same with many games at once, persons against the server's bots and
//!   `kingme bot` processes against each other, a spectator auditing them all;
//! - [`full_disk`]: the database on a small filesystem of its own that fills up (it mounts a
//!   tmpfs, so it runs as root, as `.ci/run` does).
//!
//! Behind the `fault-tests` feature (`cargo test -p kingme-server --features fault-tests --test
//! faults`), which `.ci/run` runs: they take tens of seconds, too long for `cargo test
//! --workspace`. What they survived is in `docs/faults.md`. The Redis and PostgreSQL outages
//! are in the cluster suite (`cluster.rs`), the replaced file and its restore in `restore.rs`, a
//! store that fails on demand in `storage_failure.rs`.

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

mod audit;
mod full_disk;
mod kill_loop;
mod many_games;

/// The server binary the tests start.
const SERVER: &str = env!("CARGO_BIN_EXE_kingme-server");
