//! The AI: strategies for every game behind one interface, used alike by the server's built-in
//! bots and the client's bot mode.

pub mod level;

pub use level::{Level, UnknownLevel};
