//! The rules of moderation on the store: an admin's action carried out and logged in one
//! transaction ([`record`]), and the codes an [`AdminAction`] is stored under in the admin log
//! (an action's name, its target, its detail), decoded once for both stores. A stored row is
//! input like any other: a code this build does not know is refused as corrupt, not guessed at.
//! The sanctions themselves are [`super::sanctions`].

use super::sanctions::SanctionKind;
use super::store::{Store, StoreError};
use kingme_shared::domain::{AdminAction, AdminLogEntry, GameId};

/// An admin log entry's columns: the action's code, its target, its detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionColumns {
    /// `ban`, `unban`, `mute`, `unmute`, `close` or `announce`.
    pub action: &'static str,
    /// The name or the game acted on; `None` for an announcement.
    pub target: Option<String>,
    /// A ban's reason, an announcement's text.
    pub detail: Option<String>,
}

impl ActionColumns {
    /// The columns `action` is stored in.
    #[must_use]
    pub fn of(action: &AdminAction) -> ActionColumns {
        let columns = |action, target: Option<String>, detail: Option<String>| ActionColumns {
            action,
            target,
            detail,
        };
        match action {
            AdminAction::Ban { name, reason } => columns("ban", Some(name.clone()), reason.clone()),
            AdminAction::Unban { name } => columns("unban", Some(name.clone()), None),
            AdminAction::Mute { name } => columns("mute", Some(name.clone()), None),
            AdminAction::Unmute { name } => columns("unmute", Some(name.clone()), None),
            AdminAction::Close { game } => columns("close", Some(game.0.to_string()), None),
            AdminAction::Announce { text } => columns("announce", None, Some(text.clone())),
        }
    }
}

/// An admin log entry from its stored columns.
pub fn log_entry(
    at_ms: i64,
    admin: String,
    fingerprint: String,
    action: &str,
    target: Option<String>,
    detail: Option<String>,
) -> Result<AdminLogEntry, StoreError> {
    let corrupt = |what: &str| {
        StoreError::Corrupt(format!("an admin log entry ({action:?} at {at_ms}) {what}"))
    };
    let name = || target.clone().ok_or_else(|| corrupt("names nobody"));
    let action = match action {
        "ban" => AdminAction::Ban {
            name: name()?,
            reason: detail,
        },
        "unban" => AdminAction::Unban { name: name()? },
        "mute" => AdminAction::Mute { name: name()? },
        "unmute" => AdminAction::Unmute { name: name()? },
        "close" => AdminAction::Close {
            game: GameId(name()?.parse().map_err(|_| corrupt("names no game"))?),
        },
        "announce" => AdminAction::Announce {
            text: detail.ok_or_else(|| corrupt("has no text"))?,
        },
        _ => return Err(corrupt("is of an action this server does not know")),
    };
    Ok(AdminLogEntry {
        at_ms,
        admin,
        fingerprint,
        action,
    })
}

/// Carries out an admin's action on the database and logs it (the caller's batch makes both
/// one transaction). Returns whether the action changed anything: `false` for a ban or mute the
/// name already had, or an unban or unmute of a name that had none.
pub fn record(store: &mut dyn Store, entry: &AdminLogEntry) -> Result<bool, StoreError> {
    let at_ms = entry.at_ms;
    let changed = match &entry.action {
        AdminAction::Ban { name, reason } => {
            let had = store.sanctions(name)?.ban.is_some();
            store.sanction(name, SanctionKind::Ban, reason.as_deref(), at_ms)?;
            !had
        }
        AdminAction::Mute { name } => {
            let had = store.sanctions(name)?.muted;
            store.sanction(name, SanctionKind::Mute, None, at_ms)?;
            !had
        }
        AdminAction::Unban { name } => store.lift_sanction(name, SanctionKind::Ban)?,
        AdminAction::Unmute { name } => store.lift_sanction(name, SanctionKind::Mute)?,
        AdminAction::Close { .. } | AdminAction::Announce { .. } => true,
    };
    store.log_admin_action(entry)?;
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_from_its_columns() {
        let actions = [
            AdminAction::Ban {
                name: "ann".into(),
                reason: Some("spam".into()),
            },
            AdminAction::Ban {
                name: "ann".into(),
                reason: None,
            },
            AdminAction::Unban { name: "ann".into() },
            AdminAction::Mute { name: "bo".into() },
            AdminAction::Unmute { name: "bo".into() },
            AdminAction::Close { game: GameId(12) },
            AdminAction::Announce {
                text: "hello".into(),
            },
        ];
        for action in actions {
            let ActionColumns {
                action: code,
                target,
                detail,
            } = ActionColumns::of(&action);
            let entry = log_entry(5, "root".into(), "f".repeat(32), code, target, detail).unwrap();
            assert_eq!(entry.action, action);
        }
    }

    #[test]
    fn unknown_codes_are_corrupt_not_guessed() {
        let err = log_entry(1, "a".into(), "f".into(), "nuke", None, None).unwrap_err();
        assert!(err.to_string().contains("does not know"), "{err}");
        let err =
            log_entry(1, "a".into(), "f".into(), "close", Some("x".into()), None).unwrap_err();
        assert!(err.to_string().contains("names no game"), "{err}");
    }
}
