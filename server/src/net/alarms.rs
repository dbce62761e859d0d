//! The rare things a welcomed connection waits for beside its client's frames: the server
//! shutting down, the connection kicked for reading too slowly, its session taken over by a
//! newer connection, and the server's [`notices`](super::notices).
//!
//! A connection's loop wakes on every frame and every message queued to it, and `select!`
//! polls each of its waits on every wake-up. These four would each take a lock on every poll,
//! some of them shared by every connection (the shutdown token's, the notices channel's), for
//! things that almost never happen. Gathered here, each is polled only when it woke: polling
//! [`Alarms::next`] when none did costs a few atomic operations on this connection's own state.

use super::notices::{Notice, next_notice};
use futures::stream::{self, BoxStream, SelectAll, StreamExt};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

/// What rang.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Alarm {
    /// The server is shutting down.
    ShuttingDown,
    /// The connection was kicked: its client reads too slowly.
    Kicked,
    /// A newer connection took the session over.
    TakenOver,
    /// A notice to every connection.
    Notice(Notice),
}

/// A connection's rare waits, each polled only when woken.
pub struct Alarms {
    waits: SelectAll<BoxStream<'static, Alarm>>,
}

impl std::fmt::Debug for Alarms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Alarms")
            .field("waits", &self.waits.len())
            .finish()
    }
}

impl Alarms {
    /// Waits for `shutdown`, `kick` and `taken_over` to be cancelled, and for `notices`.
    #[must_use]
    pub fn new(
        shutdown: CancellationToken,
        kick: CancellationToken,
        taken_over: CancellationToken,
        notices: broadcast::Receiver<Notice>,
    ) -> Alarms {
        let cancelled = |token: CancellationToken, alarm: Alarm| {
            stream::once(async move {
                token.cancelled_owned().await;
                alarm
            })
            .boxed()
        };
        let notices = stream::unfold(notices, |mut notices| async move {
            let notice = next_notice(&mut notices).await;
            Some((Alarm::Notice(notice), notices))
        })
        .boxed();
        Alarms {
            waits: stream::select_all([
                cancelled(shutdown, Alarm::ShuttingDown),
                cancelled(kick, Alarm::Kicked),
                cancelled(taken_over, Alarm::TakenOver),
                notices,
            ]),
        }
    }

    /// The next alarm. Each cancellation rings once; notices ring for as long as they come.
    pub async fn next(&mut self) -> Alarm {
        match self.waits.next().await {
            Some(alarm) => alarm,
            // Only after every cancellation rang and the notices' sender went: nothing more
            // can come.
            None => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::notices;
    use std::time::Duration;

    struct Waits {
        shutdown: CancellationToken,
        kick: CancellationToken,
        taken_over: CancellationToken,
        notices: broadcast::Sender<Notice>,
        alarms: Alarms,
    }

    fn waits() -> Waits {
        let (shutdown, kick, taken_over) = (
            CancellationToken::new(),
            CancellationToken::new(),
            CancellationToken::new(),
        );
        let notices = notices::channel();
        let alarms = Alarms::new(
            shutdown.clone(),
            kick.clone(),
            taken_over.clone(),
            notices.subscribe(),
        );
        Waits {
            shutdown,
            kick,
            taken_over,
            notices,
            alarms,
        }
    }

    /// The next alarm, or `None` if none rings within a moment.
    async fn rung(alarms: &mut Alarms) -> Option<Alarm> {
        tokio::time::timeout(Duration::from_millis(50), alarms.next())
            .await
            .ok()
    }

    #[tokio::test]
    async fn nothing_rings_until_something_happens() {
        let mut waits = waits();
        assert_eq!(rung(&mut waits.alarms).await, None);
    }

    #[tokio::test]
    async fn each_cancellation_rings_as_what_it_is() {
        for (cancel, expected) in [
            (0, Alarm::ShuttingDown),
            (1, Alarm::Kicked),
            (2, Alarm::TakenOver),
        ] {
            let mut waits = waits();
            // Polled while pending first, so the ring must come through a wake-up.
            assert_eq!(rung(&mut waits.alarms).await, None);
            [&waits.shutdown, &waits.kick, &waits.taken_over][cancel].cancel();
            assert_eq!(rung(&mut waits.alarms).await, Some(expected));
        }
    }

    #[tokio::test]
    async fn every_notice_rings_in_order() {
        let mut waits = waits();
        assert_eq!(rung(&mut waits.alarms).await, None);
        let announcement = Notice::Announcement {
            from: "admin".to_owned(),
            text: "restart at noon".to_owned(),
        };
        let ban = Notice::Banned {
            name: "mallory".to_owned(),
            reason: None,
        };
        waits.notices.send(announcement.clone()).unwrap();
        waits.notices.send(ban.clone()).unwrap();
        assert_eq!(
            rung(&mut waits.alarms).await,
            Some(Alarm::Notice(announcement))
        );
        assert_eq!(rung(&mut waits.alarms).await, Some(Alarm::Notice(ban)));
        assert_eq!(rung(&mut waits.alarms).await, None);
    }
}
