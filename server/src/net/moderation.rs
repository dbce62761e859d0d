//! Moderation on a connection: an admin's messages (`Admin`, `AdminLog`), allowed only to a
//! connection that proved a key the server names as an admin's (guests never), checked, stored
//! with the admin log in one transaction, and only then carried out on this server (a banned
//! person's connections close and their games end; a closed game ends; an announcement goes to
//! every connection) and, on a cluster, published for every other node to carry out for its own
//! connections and games (`from_other_nodes`); and the sanctions read from the database at
//! sign-in (a ban refuses it) and at each chat line (a mute refuses it), so every server sharing
//! the database holds them.

use super::connection::Connection;
use super::context::ConnectionContext;
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

/// Carries out `admin`'s stored `action` at this node: a ban closes the person's connections
/// here and ends the games of theirs this node runs (a forfeit, by their tables), a close ends
/// the game if this node runs it, an announcement goes to every connection here. How many games
/// a ban ended, or how many connections an announcement reached.
async fn carry_out(context: &ConnectionContext, admin: &str, action: &AdminAction) -> usize {
    match action {
        AdminAction::Ban { name, reason } => {
            let _ = context.notices.send(Notice::Banned {
                name: name.clone(),
                reason: reason.clone(),
            });
            let tables = context.lobby.registry().seating(name);
            for table in &tables {
                table
                    .send(TableCommand::Banned { name: name.clone() })
                    .await;
            }
            tables.len()
        }
        AdminAction::Close { game } => match context.lobby.table(*game) {
            Ok(table) if !matches!(table.summary().status, GameStatus::Over(_)) => {
                table.send(TableCommand::Close).await;
                1
            }
            _ => 0,
        },
        AdminAction::Announce { text } => context
            .notices
            .send(Notice::Announcement {
                from: admin.to_owned(),
                text: text.clone(),
            })
            .unwrap_or(0),
        AdminAction::Unban { .. } | AdminAction::Mute { .. } | AdminAction::Unmute { .. } => 0,
    }
}

/// Carries out here the admins' actions made at other nodes of the cluster, as they come, until
/// the server stops.
#[cfg(feature = "cluster")]
pub async fn from_other_nodes(
    context: Arc<ConnectionContext>,
    mut actions: tokio::sync::mpsc::Receiver<crate::cluster::relay::Moderation>,
) {
    loop {
        let moderation = tokio::select! {
            () = context.connections.cancelled() => return,
            moderation = actions.recv() => match moderation {
                Some(moderation) => moderation,
                None => return,
            },
        };
        let done = carry_out(&context, &moderation.admin, &moderation.action).await;
        tracing::info!(
            admin = %moderation.admin,
            action = %moderation.action,
            done,
            "carried out an admin action made at another node"
        );
    }
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
        // A game to close must be running, here or (on a cluster) at another node, before
        // anything is logged: the node running it closes it.
        if let AdminAction::Close { game } = &action {
            match self.context.lobby.registry().status(*game) {
                None => return Err(Refusal::NoSuchGame(*game)),
                Some(GameStatus::Over(_)) => return Err(Refusal::AlreadyOver(*game)),
                Some(_) => {}
            }
        }
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
        let done = carry_out(&self.context, &session.name, &action).await;
        let elsewhere = self.elsewhere(&session.name, &action).await;
        let message = match &action {
            AdminAction::Ban { name, .. } => {
                let again = if changed { "" } else { " again" };
                format!(
                    "banned {name}{again}: their sign-in is refused from now on, their \
                     connections here close, and {} of theirs here end{elsewhere}",
                    count(done, "game", "games")
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
                format!("closed game {game}: it ends without a result (aborted){elsewhere}")
            }
            AdminAction::Announce { .. } => format!(
                "announced to {} on this server{elsewhere}",
                count(done, "connection", "connections")
            ),
        };
        Ok(ServerMessage::AdminDone { action, message })
    }

    /// On a cluster node, `action` (carried out here) published for every other node to carry
    /// out; what the admin is told of it (nothing alone, or for an action with nothing to do
    /// there).
    #[cfg(feature = "cluster")]
    async fn elsewhere(&self, admin: &str, action: &AdminAction) -> String {
        let Some(relay) = &self.context.relay else {
            return String::new();
        };
        if !matches!(
            action,
            AdminAction::Ban { .. } | AdminAction::Close { .. } | AdminAction::Announce { .. }
        ) {
            return String::new();
        }
        match relay.moderate(admin, action).await {
            Ok(nodes) => format!(
                "; sent to {}",
                count(nodes as usize, "other node", "other nodes")
            ),
            Err(err) => {
                tracing::error!(%err, %action, "an admin action was not sent to the other nodes");
                format!(
                    "; NOT sent to the other nodes ({err}): it holds on this node only (a ban \
                     still refuses sign-ins everywhere); try again once Redis answers"
                )
            }
        }
    }

    /// Without a cluster there is no other node.
    #[cfg(not(feature = "cluster"))]
    #[allow(clippy::unused_async)]
    async fn elsewhere(&self, _admin: &str, _action: &AdminAction) -> String {
        String::new()
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
