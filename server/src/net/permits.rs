//! The connection permits both doors take before a connection is served, sized by the live
//! `max-connections`: when SIGHUP raises it, permits are added at once; when it lowers it, free
//! permits are withdrawn, and those held are withdrawn as their connections close. No
//! connection is closed for it: new ones wait (the TCP door) or are turned away (the HTTP door)
//! until fewer connections are held than the new limit.

use crate::config::Limits;
use std::sync::Arc;
use tokio::sync::{Semaphore, watch};
use tokio_util::sync::CancellationToken;

/// The permits for `limits`'s `max_connections` (at least one), resized by [`follow`].
#[must_use]
pub fn for_limits(limits: &Limits) -> Arc<Semaphore> {
    Arc::new(Semaphore::new(size(limits)))
}

/// The permits `limits` allow: at least one, and no more than a semaphore holds.
fn size(limits: &Limits) -> usize {
    limits.max_connections.clamp(1, Semaphore::MAX_PERMITS)
}

/// Keeps `permits` (made by [`for_limits`] from `made_for`) sized to `live`'s
/// `max_connections` until `stop` is cancelled or the limits are dropped. `live` may have
/// changed since: the first round catches up.
pub async fn follow(
    permits: Arc<Semaphore>,
    made_for: Limits,
    mut live: watch::Receiver<Limits>,
    stop: CancellationToken,
) {
    let mut held = size(&made_for);
    loop {
        let target = size(&live.borrow_and_update());
        if target > held {
            permits.add_permits(target - held);
            held = target;
        } else if target < held {
            held -= permits.forget_permits(held - target);
        }
        if held > target {
            // The rest as connections close; a change meanwhile is taken from the top.
            let excess = u32::try_from(held - target).unwrap_or(u32::MAX);
            tokio::select! {
                () = stop.cancelled() => return,
                changed = live.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    continue;
                }
                taken = permits.acquire_many(excess) => {
                    let Ok(taken) = taken else { return };
                    taken.forget();
                    held -= excess as usize;
                }
            }
        }
        tokio::select! {
            () = stop.cancelled() => return,
            changed = live.changed() => {
                if changed.is_err() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LiveLimits;

    fn limits(max_connections: usize) -> Limits {
        Limits {
            max_connections,
            ..Limits::default()
        }
    }

    #[tokio::test]
    async fn permits_follow_the_limit_up_and_down_without_taking_held_ones() {
        let live = LiveLimits::new(limits(3));
        let permits = for_limits(&live.current());
        let stop = CancellationToken::new();
        let task = tokio::spawn(follow(
            Arc::clone(&permits),
            live.current(),
            live.subscribe(),
            stop.clone(),
        ));
        let held = Arc::clone(&permits).acquire_many_owned(2).await.unwrap();
        live.replace(limits(5));
        tokio::task::yield_now().await;
        while permits.available_permits() != 3 {
            tokio::task::yield_now().await;
        }
        // Down to one: the three free ones go at once, one of the two held when they close.
        live.replace(limits(1));
        while permits.available_permits() != 0 {
            tokio::task::yield_now().await;
        }
        drop(held);
        while permits.available_permits() != 1 {
            tokio::task::yield_now().await;
        }
        // And one more makes two, which stay two.
        live.replace(limits(2));
        while permits.available_permits() != 2 {
            tokio::task::yield_now().await;
        }
        stop.cancel();
        task.await.unwrap();
        assert_eq!(permits.available_permits(), 2);
    }
}
