//! The suite's case about moderation: sanctions on names (a ban with its reason, a mute) put on,
//! replaced, lifted and seen by a second store on the database (another server, or the same one
//! restarted), and the admin log kept newest first and limited.

use super::*;
use crate::storage::moderation;
use crate::storage::sanctions::{SanctionKind, Sanctions};
use kingme_shared::domain::{AdminAction, AdminLogEntry};

fn entry(at_ms: i64, action: AdminAction) -> AdminLogEntry {
    AdminLogEntry {
        at_ms,
        admin: "root".into(),
        fingerprint: "0f".repeat(16),
        action,
    }
}

/// Bans and mutes hold per name, over a restart, until lifted; the log keeps who did what.
pub fn sanctions_and_the_admin_log_are_kept(database: &mut dyn TestDatabase) {
    let mut store = database.fresh();
    let store = store.as_mut();
    assert_eq!(
        ok(store.sanctions("mallory"), "none yet"),
        Sanctions::default()
    );
    ok(
        store.sanction("mallory", SanctionKind::Ban, Some("spam"), 1),
        "a ban",
    );
    ok(
        store.sanction("mallory", SanctionKind::Mute, None, 2),
        "a mute",
    );
    ok(store.sanction("eve", SanctionKind::Mute, None, 3), "a mute");
    // Banned again: the reason is replaced, not added.
    ok(
        store.sanction("mallory", SanctionKind::Ban, Some("abuse"), 4),
        "a ban again",
    );
    assert_eq!(
        ok(store.sanctions("mallory"), "sanctions"),
        Sanctions {
            ban: Some(Some("abuse".into())),
            muted: true
        }
    );
    // Names are exact: another name has none.
    assert_eq!(ok(store.sanctions("Mallory"), "none"), Sanctions::default());
    // The rules on top: what changed is said, and every action is logged.
    let actions = [
        AdminAction::Unmute {
            name: "mallory".into(),
        },
        AdminAction::Unmute {
            name: "mallory".into(),
        },
        AdminAction::Announce {
            text: "hello".into(),
        },
        AdminAction::Ban {
            name: "trent".into(),
            reason: None,
        },
    ];
    let changed: Vec<bool> = actions
        .iter()
        .enumerate()
        .map(|(at, action)| {
            ok(
                moderation::record(store, &entry(10 + at as i64, action.clone())),
                "an admin action",
            )
        })
        .collect();
    assert_eq!(changed, [true, false, true, true]);
    let log = ok(store.admin_log(3), "the log");
    let logged: Vec<(i64, AdminAction)> = log.into_iter().map(|e| (e.at_ms, e.action)).collect();
    assert_eq!(
        logged,
        [
            (13, actions[3].clone()),
            (12, actions[2].clone()),
            (11, actions[1].clone())
        ]
    );
    // Another store on the database (a second server, or a restart) sees all of it.
    let mut other = database.another();
    let other = other.as_mut();
    assert_eq!(
        ok(other.sanctions("mallory"), "sanctions"),
        Sanctions {
            ban: Some(Some("abuse".into())),
            muted: false
        }
    );
    assert_eq!(ok(other.sanctions("trent"), "sanctions").ban, Some(None));
    assert!(ok(
        other.lift_sanction("mallory", SanctionKind::Ban),
        "lifted"
    ));
    assert!(!ok(
        other.lift_sanction("mallory", SanctionKind::Ban),
        "none left"
    ));
    assert_eq!(ok(other.sanctions("mallory"), "none"), Sanctions::default());
    assert!(ok(other.sanctions("eve"), "eve").muted);
    let all = ok(other.admin_log(100), "the whole log");
    assert_eq!(all.len(), 4);
    assert_eq!(all[3], entry(10, actions[0].clone()));
}
