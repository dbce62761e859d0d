//! What kingme's tests share, in one crate that every test crate uses as a dev-dependency (and
//! the load tools of `kingme-tests` as a dependency):
//!
//! - the protocol test client ([`Client`], over the [`link`] of either door, also as a client
//!   of an older protocol version: [`older_version`]), and a plain HTTPS request to the web
//!   door ([`http`]);
//! - starting the server in the test's process ([`server`]) or as a process of its own with its
//!   log read ([`server_process`]), a cluster node ([`cluster_node`]), a PostgreSQL
//!   ([`temp_postgres`]) and a Redis ([`temp_redis`]) of the test's own, and `kingme bot`
//!   processes ([`bot`]);
//! - game options and whole games between two clients ([`games`]), and the kill-and-restart
//!   scenario two of the server's suites run ([`scenario`]);
//! - how long a test waits for each thing it waits for ([`patience`]);
//! - a scrape of `/metrics` read as Prometheus text ([`prometheus`]);
//! - WCAG's contrast ratio of two colours ([`contrast`]).
//!
//! A program's path is always the caller's: `CARGO_BIN_EXE_*` names only the binaries of the
//! test's own package.

pub mod bot;
pub mod client;
pub mod cluster_node;
pub mod contrast;
pub mod games;
pub mod http;
pub mod link;
pub mod older_version;
pub mod patience;
pub mod ports;
pub mod prometheus;
pub mod scenario;
pub mod server;
pub mod server_process;
pub mod temp_postgres;
pub mod temp_redis;

pub use client::Client;
pub use games::{
    against_bot, first_legal, free_square, open_game, options, play_first_moves, play_out,
    tictactoe_options, two_players,
};
pub use server::{start_server, start_web_server, test_config};
