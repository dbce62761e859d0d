//! The server's integration tests in one test binary: the real `kingme-server` binary killed
//! and restarted on its database ([`restart`]), reloading its certificate on SIGHUP
//! ([`certificate_reload`]) and its limits ([`live_limits`]), configured by a file
//! ([`config_file`]), its log in a pipe
//! ([`log_colour`]), its Prometheus metrics after real games ([`metrics`]), moderation by its
//! admins kept over a restart ([`moderation`]), a database restored from a backup
//! ([`restore`]), and the review board's `Analyse` on a server in the test's process
//! ([`analysis`]). One module a former test file.
//!
//! Behind features, each in its own binary: `postgres` (the stores against a real PostgreSQL),
//! `cluster` (nodes on PostgreSQL and Redis) and `faults` (the long kill loop).

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

mod analysis;
mod arguments;
mod certificate_reload;
mod config_file;
mod live_limits;
mod log_colour;
mod metrics;
mod moderation;
mod restart;
mod restore;

/// The server binary the tests start.
const SERVER: &str = env!("CARGO_BIN_EXE_kingme-server");
