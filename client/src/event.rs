//! The one enum of everything the client reacts to: clock ticks, terminal input, and what the
//! connection reports. The terminal loop, the plain mode and the tests all feed
//! [`crate::app::App::update`] (or the plain mode's own loop) with these.

use kingme_shared::protocol::ServerMessage;
use ratatui::crossterm::event::Event as TerminalEvent;

/// Something happened.
// Server messages are most of the events and arrive one at a time through a bounded channel:
// boxing them would add an allocation per message to save a few hundred bytes per queued tick.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Event {
    /// Time passed (drives animations and the running clock).
    Tick,
    /// A key, a mouse action, a resize.
    Terminal(TerminalEvent),
    /// The server said something.
    Server(ServerMessage),
    /// The connection's state changed.
    Link(LinkEvent),
}

/// What the network layer reports about the connection itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// Connected and welcomed (again, after a reconnect).
    Connected { resumed: bool },
    /// The connection dropped; the client tries again in the background.
    Lost { reason: String, retry_in_secs: u64 },
    /// The server refused us for good or is gone; no more retries.
    Closed { reason: String },
}
