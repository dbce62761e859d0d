//! kingme-server: the judge. It owns every game, seats players and bots, runs the clocks, and is
//! the only authority on what happened.
//!
//! Embed it with [`run`] on a bound listener, or [`ServerHandle::start`] for a background server
//! on an address (tests and the client's local mode use the latter).
//!
//! Map: [`server`] (accept loop, shutdown), [`connection`] (one client), [`outbox`] (its send
//! queue), [`session`] (a player across connections), [`lobby`] (the tables, game creation),
//! [`table`] (the task owning one game), [`resume`] (games rebuilt after a restart), [`judge`] (the rules' referee and clocks), [`seat`]
//! (person or bot), [`bot`], [`clock`], [`options`], [`rate_limit`], [`config`], [`error`], and [`storage`] (the
//! database: games, moves, identities, ratings).

pub mod bot;
pub mod clock;
pub mod config;
pub mod connection;
pub mod error;
pub mod judge;
pub mod lobby;
pub mod options;
pub mod outbox;
pub mod rate_limit;
pub mod resume;
pub mod seat;
pub mod server;
pub mod session;
pub mod storage;
pub mod table;

pub use config::{Config, Database};
pub use server::{ServerHandle, open_storage, run, run_with_storage};
