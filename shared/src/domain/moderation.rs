//! What a server's admins do (`AdminAction`: ban, unban, mute, unmute, close a game, announce)
//! and the log of it (`AdminLogEntry`), as the store keeps them and the wire carries them, with
//! the limits on the text an admin may give.

use super::GameId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Longest reason given with a ban, in characters.
pub const MAX_REASON_CHARS: usize = 200;
/// Longest announcement, in characters.
pub const MAX_ANNOUNCEMENT_CHARS: usize = 500;
/// Most entries an admin log answer lists.
pub const MAX_ADMIN_LOG_ENTRIES: usize = 100;

/// One thing an admin does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdminAction {
    /// Refuse the person's sign-in from now on (with the reason, told to them); their games in
    /// progress end as lost, their open games close, and a connection of theirs is closed.
    Ban {
        /// The person's name (or a guest's).
        name: String,
        /// Why, told to the person; at most [`MAX_REASON_CHARS`] characters.
        reason: Option<String>,
    },
    /// Lift a ban.
    Unban {
        /// The person's name.
        name: String,
    },
    /// Refuse the person's chat from now on.
    Mute {
        /// The person's name.
        name: String,
    },
    /// Lift a mute.
    Unmute {
        /// The person's name.
        name: String,
    },
    /// End a game at once, without a result (aborted).
    Close {
        /// The game.
        game: GameId,
    },
    /// Tell every connected person something; at most [`MAX_ANNOUNCEMENT_CHARS`] characters.
    Announce {
        /// What to tell.
        text: String,
    },
}

/// The action in words, as the admin log shows it: `ban ann (spam)`, `close game 7`.
impl fmt::Display for AdminAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdminAction::Ban { name, reason: None } => write!(f, "ban {name}"),
            AdminAction::Ban {
                name,
                reason: Some(reason),
            } => write!(f, "ban {name} ({reason})"),
            AdminAction::Unban { name } => write!(f, "unban {name}"),
            AdminAction::Mute { name } => write!(f, "mute {name}"),
            AdminAction::Unmute { name } => write!(f, "unmute {name}"),
            AdminAction::Close { game } => write!(f, "close game {game}"),
            AdminAction::Announce { text } => write!(f, "announce {text:?}"),
        }
    }
}

/// One line of the admin log: who did what, when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdminLogEntry {
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The admin's name.
    pub admin: String,
    /// The fingerprint of the key the admin proved.
    pub fingerprint: String,
    /// What the admin did.
    pub action: AdminAction,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_read_as_the_log_shows_them() {
        let cases = [
            (
                AdminAction::Ban {
                    name: "ann".into(),
                    reason: Some("spam".into()),
                },
                "ban ann (spam)",
            ),
            (
                AdminAction::Ban {
                    name: "ann".into(),
                    reason: None,
                },
                "ban ann",
            ),
            (AdminAction::Unmute { name: "bo".into() }, "unmute bo"),
            (AdminAction::Close { game: GameId(7) }, "close game 7"),
            (
                AdminAction::Announce {
                    text: "back at 5".into(),
                },
                "announce \"back at 5\"",
            ),
        ];
        for (action, words) in cases {
            assert_eq!(action.to_string(), words);
        }
    }
}
