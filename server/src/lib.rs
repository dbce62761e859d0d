//! kingme-server: the judge. It owns every game, seats players and bots, runs the clocks, and is
//! the only authority on what happened.
//!
//! Four doors lead in, and everything else is private to the crate:
//! - [`embed`]: what the client starts inside its own process (a background server on an
//!   address, [`embed::ServerHandle::start`]);
//! - [`host`]: what the `kingme-server` binary and the load tools use to run one (the database,
//!   TLS, the doors, backups);
//! - `test_support` (feature `test-support`): the storage layer and the judge, reached directly
//!   by other crates' tests and the benchmark;
//! - [`fuzzing`]: the fuzz target bodies of the server's parsers (the configuration file), for
//!   `tests/fuzz/` and the regression test.
//!
//! Features: `postgres`, `cluster`, `web` (the HTTP door on axum) and `metrics` (its
//! `/metrics`) are on by default; the client leaves them out.
//!
//! Its layers, each importing only those below it (`kingme-tests: tidy::server_layers_import_only_downwards`
//! checks):
//! 1. `storage` (the database: games, moves, identities, ratings) and `telemetry` (the metrics);
//! 2. `config` (what an operator tunes, the database's location among it);
//! 3. `options` (a game's checked setup) and `refusal` (why a request was refused);
//! 4. `players` (a player across connections, and how it is reached);
//! 5. `game` (the table task owning one game, the judge, clocks, seats, bots, offers);
//! 6. `lobby` (the game list, game creation, the games resumed at start);
//! 7. `cluster` (nodes sharing Redis: membership, leases on games, failover);
//! 8. `net` (connections: handshake, routing, frames, rate limit);
//! 9. `server` (the accept loop, the contexts each part is given, shutdown);
//! 10. the doors above, which only re-export.

// A build without a cluster or the HTTP door (the client's) leaves the seams only they use
// unused; the full build, which CI lints with `-D warnings`, still finds dead code.
#![cfg_attr(
    not(all(feature = "postgres", feature = "cluster", feature = "web")),
    allow(dead_code, unused_imports)
)]

#[cfg(feature = "cluster")]
mod cluster;
mod config;
mod game;
mod lobby;
mod net;
mod options;
mod players;
mod refusal;
mod server;
mod storage;
mod telemetry;

pub mod embed;
pub mod fuzzing;
pub mod host;
#[cfg(feature = "test-support")]
pub mod test_support;
