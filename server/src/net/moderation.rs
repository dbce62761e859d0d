//! Moderation on a connection: an admin's messages (`Admin`, `AdminLog`), allowed only to a
//! connection that proved a key the server names as an admin's (guests never), checked, stored
//! with the admin log in one transaction, and only then carried out on this server (a banned
//! person's connections close and their games end; a closed game ends; an announcement goes to
//! every connection); and the sanctions read from the database at sign-in (a ban refuses it) and
//! at each chat line (a mute refuses it), so every server sharing the database holds them.

use super::connection::Connection;
use super::notices::Notice;
use super::transport::Incoming;
use crate::game::TableCommand;
use crate::players::Session;
use crate::refusal::Refusal;
use crate::storage::StoreError;
use crate::storage::records::unix_ms;
use kingme_shared::identity::fingerprint;
use kingme_shared::protocol::{
    AdminAction, AdminLogEntry, GameStatus, MAX_ANNOUNCEMENT_CHARS, MAX_REASON_CHARS, ServerMessage,
};
use std::sync::Arc;

/// A text as shown to others: trimmed, control characters (which could redraw a terminal) made
/// spaces.
fn printable(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `action` checked and its texts made printable: a name as a hello's, a reason and an
/// announcement within their limits.
fn checked(action: AdminAction) -> Result<AdminAction, Refusal> {
    let name = |name: String| super::handshake::check_name(&name);
    Ok(match action {
        AdminAction::Ban { name: who, reason } => {
            let reason = reason.map(|reason| printable(&reason));
            if let Some(reason) = &reason {
                let chars = reason.chars().count();
                if chars > MAX_REASON_CHARS {
                    return Err(Refusal::ReasonTooLong { chars });
                }
            }
            AdminAction::Ban {
                name: name(who)?,
                reason: reason.filter(|reason| !reason.is_empty()),
            }
        }
        AdminAction::Unban { name: who } => AdminAction::Unban { name: name(who)? },
        AdminAction::Mute { name: who } => AdminAction::Mute { name: name(who)? },
        AdminAction::Unmute { name: who } => AdminAction::Unmute { name: name(who)? },
        AdminAction::Close { game } => AdminAction::Close { game },
        AdminAction::Announce { text } => {
            let text = printable(&text);
            let chars = text.chars().count();
            if chars == 0 {
                return Err(Refusal::EmptyAnnouncement);
            }
            if chars > MAX_ANNOUNCEMENT_CHARS {
                return Err(Refusal::AnnouncementTooLong { chars });
            }
            AdminAction::Announce { text }
        }
    })
}

/// `count` things in words: `1 game`, `2 games`.
fn count(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

impl<F: Incoming> Connection<F> {
    /// The fingerprint of the admin's key this connection proved, or why it is no admin's.
    fn admin_key(&self) -> Result<String, Refusal> {
        let Some(key) = &self.key else {
            return Err(Refusal::GuestNotAdmin);
        };
        let fingerprint = fingerprint(key);
        if self.context.admins.contains(&fingerprint) {
            Ok(fingerprint)
        } else {
            Err(Refusal::NotAdmin(fingerprint))
        }
    }

    /// An admin's `Admin`: checked, stored and logged, then carried out; the `AdminDone`.
    pub(super) async fn administer(
        &self,
        session: &Arc<Session>,
        action: AdminAction,
    ) -> Result<ServerMessage, Refusal> {
        let fingerprint = self.admin_key()?;
        let action = checked(action)?;
        // A game to close must be here and running before anything is logged.
        let table = match &action {
            AdminAction::Close { game } => {
                let table = self.context.lobby.table(*game)?;
                if matches!(table.summary().status, GameStatus::Over(_)) {
                    return Err(Refusal::AlreadyOver(*game));
                }
                Some(table)
            }
            _ => None,
        };
        let entry = AdminLogEntry {
            at_ms: unix_ms(),
            admin: session.name.clone(),
            fingerprint,
            action: action.clone(),
        };
        let changed = self
            .context
            .storage
            .record_admin_action(entry)
            .await
            .map_err(Refusal::ActionNotStored)?;
        tracing::info!(admin = %session.name, %action, changed, "admin action");
        let message = match &action {
            AdminAction::Ban { name, reason } => {
                let _ = self.context.notices.send(Notice::Banned {
                    name: name.clone(),
                    reason: reason.clone(),
                });
                let tables = self.context.lobby.registry().seating(name);
                for table in &tables {
                    table
                        .send(TableCommand::Banned { name: name.clone() })
                        .await;
                }
                let again = if changed { "" } else { " again" };
                format!(
                    "banned {name}{again}: their sign-in is refused from now on, their \
                     connections here close, and {} of theirs here end",
                    count(tables.len(), "game", "games")
                )
            }
            AdminAction::Unban { name } if changed => format!("unbanned {name}"),
            AdminAction::Unban { name } => format!("{name} was not banned; nothing changed"),
            AdminAction::Mute { name } if changed => {
                format!("muted {name}: their chat is refused from now on")
            }
            AdminAction::Mute { name } => format!("{name} was muted already"),
            AdminAction::Unmute { name } if changed => format!("unmuted {name}"),
            AdminAction::Unmute { name } => format!("{name} was not muted; nothing changed"),
            AdminAction::Close { game } => {
                if let Some(table) = table {
                    table.send(TableCommand::Close).await;
                }
                format!("closed game {game}: it ends without a result (aborted)")
            }
            AdminAction::Announce { text } => {
                let reached = self
                    .context
                    .notices
                    .send(Notice::Announcement {
                        from: session.name.clone(),
                        text: text.clone(),
                    })
                    .unwrap_or(0);
                format!(
                    "announced to {} on this server",
                    count(reached, "connection", "connections")
                )
            }
        };
        Ok(ServerMessage::AdminDone { action, message })
    }

    /// An admin's `AdminLog`: the log's latest entries.
    pub(super) async fn admin_log(&self) -> Result<ServerMessage, Refusal> {
        self.admin_key()?;
        let entries = self
            .context
            .storage
            .admin_log()
            .await
            .map_err(Refusal::StorageRead)?;
        Ok(ServerMessage::AdminLog { entries })
    }

    /// The refusal of `name`'s sign-in if it is banned, read from the database.
    pub(super) async fn ban_on(&self, name: &str) -> Result<Option<Refusal>, StoreError> {
        let sanctions = self.context.storage.sanctions(name.to_owned()).await?;
        Ok(sanctions.ban.map(|reason| Refusal::Banned {
            name: name.to_owned(),
            reason,
        }))
    }

    /// Refuses a chat line from a muted person, read from the database.
    pub(super) async fn unless_muted(&self, session: &Session) -> Result<(), Refusal> {
        let sanctions = self
            .context
            .storage
            .sanctions(session.name.clone())
            .await
            .map_err(Refusal::StorageRead)?;
        if sanctions.muted {
            return Err(Refusal::Muted);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_checked_and_made_printable() {
        let ban = checked(AdminAction::Ban {
            name: " ann ".into(),
            reason: Some("spam\u{1b}[2J".into()),
        });
        assert_eq!(
            ban,
            Ok(AdminAction::Ban {
                name: "ann".into(),
                reason: Some("spam [2J".into())
            })
        );
        let blank = checked(AdminAction::Ban {
            name: "ann".into(),
            reason: Some("  ".into()),
        });
        assert_eq!(
            blank,
            Ok(AdminAction::Ban {
                name: "ann".into(),
                reason: None
            })
        );
        let long = checked(AdminAction::Ban {
            name: "ann".into(),
            reason: Some("x".repeat(MAX_REASON_CHARS + 1)),
        });
        assert!(matches!(long, Err(Refusal::ReasonTooLong { .. })));
        assert!(matches!(
            checked(AdminAction::Mute { name: "".into() }),
            Err(Refusal::BadName(0))
        ));
        assert_eq!(
            checked(AdminAction::Announce {
                text: " \n ".into()
            }),
            Err(Refusal::EmptyAnnouncement)
        );
        let long = checked(AdminAction::Announce {
            text: "é".repeat(MAX_ANNOUNCEMENT_CHARS + 1),
        });
        assert!(matches!(long, Err(Refusal::AnnouncementTooLong { .. })));
    }
}
