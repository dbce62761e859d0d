//! The network side: one task pair per client ([`connection`]: reading and routing, and
//! [`frames`]: writing), the handshake that admits a person or a guest ([`handshake`]), the rate
//! limit ([`rate_limit`]), the client's protocol version shared by both halves
//! ([`client_version`]), the connection permits ([`permits`]), the review board's `Analyse`
//! ([`analysing`]), an admin's messages and the sanctions at sign-in and chat
//! ([`moderation`]), the notices to every connection ([`notices`]), TLS and the server's
//! certificate ([`tls`]), what a connection runs over ([`transport`]), why a connection closed
//! ([`close_reason`]), what a connection is given ([`context`]), and the HTTP door with its
//! WebSockets and web page ([`web`]). The top of the server's layers: it routes to the lobby and
//! the tables.

pub mod analysing;
pub mod client_version;
pub mod close_reason;
pub mod connection;
pub mod context;
pub mod frames;
pub mod handshake;
pub mod moderation;
pub mod notices;
pub mod permits;
pub mod rate_limit;
pub mod tls;
pub mod transport;
#[cfg(feature = "web")]
pub mod web;

pub use context::{ConnectionContext, ConnectionLimits};
