//! Notices to every connection of this server at once: an admin's announcement, and a ban,
//! which closes the banned person's connections. One broadcast channel; each connection takes
//! its own receiver once welcomed and acts on what concerns it. A connection that falls behind
//! skips the notices it missed rather than holding anyone up.

use tokio::sync::broadcast::{self, error::RecvError};

/// Notices held for the slowest connection before it misses some.
pub const NOTICE_QUEUE: usize = 64;

/// A notice to every connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// An admin's announcement, for every person (clients of protocol version 7 and later).
    Announcement {
        /// The admin's name.
        from: String,
        /// What the admin said.
        text: String,
    },
    /// `name` was banned: its connections close with the reason.
    Banned {
        /// The banned name.
        name: String,
        /// The reason the admin gave.
        reason: Option<String>,
    },
}

/// The sending end, kept by the server for as long as connections run.
#[must_use]
pub fn channel() -> broadcast::Sender<Notice> {
    broadcast::Sender::new(NOTICE_QUEUE)
}

/// The next notice; notices missed while the connection was behind are skipped, and once the
/// sending end is gone (never while the server runs) nothing comes.
pub async fn next_notice(notices: &mut broadcast::Receiver<Notice>) -> Notice {
    loop {
        match notices.recv().await {
            Ok(notice) => return notice,
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "a connection fell behind and missed notices");
            }
            Err(RecvError::Closed) => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_connection_behind_skips_what_it_missed_and_goes_on() {
        let sender = channel();
        let mut receiver = sender.subscribe();
        for n in 0..NOTICE_QUEUE + 5 {
            let _ = sender.send(Notice::Announcement {
                from: "root".into(),
                text: n.to_string(),
            });
        }
        let Notice::Announcement { text, .. } = next_notice(&mut receiver).await else {
            panic!("not an announcement");
        };
        assert_eq!(text, "5");
    }
}
