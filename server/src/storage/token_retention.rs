//! How long a guest's resume token is kept: every guest's hello stores one, so without an end
//! the table would grow with every guest that ever connected (bots that connect as guests make
//! thousands). A token is needed only while its guest might come back to a game: to resume a
//! game after a restart, or on another node of a cluster. So tokens older than
//! [`RESUME_TOKEN_RETENTION`] are forgotten as the server starts and every [`FORGET_EVERY`],
//! except those of guests seated in a game without a result.

use super::records::unix_ms;
use super::worker::Storage;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How long a resume token is kept once saved, unless its guest is in an unfinished game.
pub const RESUME_TOKEN_RETENTION: Duration = Duration::from_secs(7 * 24 * 3600);

/// How often old resume tokens are looked for.
pub const FORGET_EVERY: Duration = Duration::from_secs(3600);

/// The statement both stores run (`$1`: the time before which a token was saved, in ms): the
/// same SQL in SQLite and PostgreSQL. A guest's seat is stored as `guest:NAME`.
pub const FORGET_RESUME_TOKENS: &str = "DELETE FROM resume_tokens WHERE created_at_ms < $1 \
     AND NOT EXISTS (SELECT 1 FROM games WHERE finished_at_ms IS NULL \
     AND (first_seat = 'guest:' || resume_tokens.name \
     OR second_seat = 'guest:' || resume_tokens.name))";

/// Forgets the resume tokens older than [`RESUME_TOKEN_RETENTION`] now; a failure is logged
/// (and the next try is [`FORGET_EVERY`] later).
pub async fn forget_old_resume_tokens(storage: &Storage) {
    let retention = i64::try_from(RESUME_TOKEN_RETENTION.as_millis()).unwrap_or(i64::MAX);
    let saved_before_ms = unix_ms().saturating_sub(retention);
    match storage.forget_resume_tokens(saved_before_ms).await {
        Ok(0) => {}
        Ok(count) => tracing::info!(count, "forgot old resume tokens"),
        Err(err) => {
            tracing::warn!(%err, "could not forget old resume tokens; trying again later");
        }
    }
}

/// Forgets old resume tokens every [`FORGET_EVERY`] until `until` is cancelled.
pub async fn keep_forgetting_old_resume_tokens(storage: Storage, until: CancellationToken) {
    let mut every =
        tokio::time::interval_at(tokio::time::Instant::now() + FORGET_EVERY, FORGET_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = until.cancelled() => return,
            _ = every.tick() => forget_old_resume_tokens(&storage).await,
        }
    }
}
