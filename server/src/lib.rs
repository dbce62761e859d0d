//! kingme-server: the judge. It owns every game, seats players and bots, runs the clocks, and is
//! the only authority on what happened. (The server itself arrives with its issue; this crate
//! exists now so the workspace has its final shape.)

pub mod storage;
