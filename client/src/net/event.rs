//! The one enum of everything the client reacts to: clock ticks, terminal input, and what the
//! connection reports. The terminal loop, the plain mode and the tests all feed
//! [`crate::tui::app::App::update`] (or the plain mode's own loop) with these.

use kingme_shared::protocol::{GameId, ServerMessage};
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
    Connected {
        /// Whether it was a reconnection.
        resumed: bool,
    },
    /// The connection to `node` dropped (or an attempt to reconnect there failed); the client
    /// tries again at `next` (the same node, or another of the cluster) in the background.
    Lost {
        /// The node that dropped.
        node: String,
        /// Why.
        reason: String,
        /// The node tried next.
        next: String,
        /// The seconds until the next try.
        retry_in_secs: u64,
    },
    /// Reconnected, but these games in progress were not given back yet (their node is gone
    /// and another is taking them over): the client asks for them until they come back.
    Reseating {
        /// The games not given back yet.
        games: Vec<GameId>,
    },
    /// These games did not come back within the grace period on any node.
    Unseated {
        /// The games lost.
        games: Vec<GameId>,
    },
    /// The server refused us for good or is gone; no more retries.
    Closed {
        /// Why, in words for the person.
        reason: String,
    },
    /// Something the person should know about the connection: a server's certificate
    /// trusted on first use, or a sign-in without encryption.
    Notice {
        /// What to tell the person.
        text: String,
    },
}

impl LinkEvent {
    /// What to tell the person about a lost connection or seat (one wording for the TUI and
    /// plain mode); `None` for the events each says its own way.
    #[must_use]
    pub fn notice(&self) -> Option<String> {
        match self {
            LinkEvent::Lost {
                node,
                reason,
                next,
                retry_in_secs,
            } => {
                let when = match retry_in_secs {
                    0 => String::from("…"),
                    secs => format!(" in {secs} s"),
                };
                Some(if node == next {
                    format!("connection to {node} lost ({reason}); reconnecting{when}")
                } else {
                    format!("node {node} lost ({reason}); reconnecting to {next}{when}")
                })
            }
            LinkEvent::Reseating { games } => Some(format!(
                "reconnected; waiting for {} to resume on this service (its node is gone and \
                 another takes it over)",
                game_list(games)
            )),
            LinkEvent::Unseated { games } => Some(format!(
                "{} did not come back on any node; it may have ended: the lobby and history say",
                game_list(games)
            )),
            LinkEvent::Notice { text } => Some(text.clone()),
            LinkEvent::Connected { .. } | LinkEvent::Closed { .. } => None,
        }
    }
}

/// "game 7" or "games 7, 9".
fn game_list(games: &[GameId]) -> String {
    let ids: Vec<String> = games.iter().map(ToString::to_string).collect();
    match ids.as_slice() {
        [one] => format!("game {one}"),
        _ => format!("games {}", ids.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lost(node: &str, next: &str, retry_in_secs: u64) -> Option<String> {
        LinkEvent::Lost {
            node: node.to_owned(),
            reason: "the server closed the connection".to_owned(),
            next: next.to_owned(),
            retry_in_secs,
        }
        .notice()
    }

    #[test]
    fn a_lost_node_names_the_node_tried_next() {
        assert_eq!(
            lost("127.0.0.1:7001", "127.0.0.1:7002", 1).unwrap(),
            "node 127.0.0.1:7001 lost (the server closed the connection); reconnecting to \
             127.0.0.1:7002 in 1 s"
        );
        assert_eq!(
            lost("a:1", "a:1", 2).unwrap(),
            "connection to a:1 lost (the server closed the connection); reconnecting in 2 s"
        );
        let seats = LinkEvent::Reseating {
            games: vec![GameId(7), GameId(9)],
        };
        assert!(seats.notice().unwrap().contains("games 7, 9 to resume"));
    }
}
