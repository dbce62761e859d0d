//! The bot client's own pace: a token bucket well inside the server's message limit, so a fast
//! bot (random moves, short games) never floods the server, however quickly games come and go.
//! Pure arithmetic on the `now` it is given, so tests need no clock.

use std::time::{Duration, Instant};

/// Messages a bot sends in a burst: half the server's default burst (PROTOCOL.md, "Limits").
pub(crate) const BOT_BURST: u32 = 100;
/// Messages a second a bot sends at most in the long run: half the server's default rate.
pub(crate) const BOT_PER_SECOND: u32 = 50;

/// Spaces outgoing messages: `burst` at once, then `per_second`.
#[derive(Debug, Clone)]
pub(crate) struct Pace {
    burst: f64,
    per_second: f64,
    tokens: f64,
    updated: Instant,
}

impl Pace {
    /// A full bucket at `now`.
    #[must_use]
    pub(crate) fn new(burst: u32, per_second: u32, now: Instant) -> Pace {
        let burst = f64::from(burst.max(1));
        Pace {
            burst,
            per_second: f64::from(per_second.max(1)),
            tokens: burst,
            updated: now,
        }
    }

    /// Takes a token for one message to be sent at `now`; returns how long to wait before
    /// sending it (zero when the bucket had a token).
    pub(crate) fn take(&mut self, now: Instant) -> Duration {
        let elapsed = now.saturating_duration_since(self.updated);
        self.updated = now;
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.per_second).min(self.burst);
        self.tokens -= 1.0;
        if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / self.per_second)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_goes_at_once_and_the_rest_is_spaced_at_the_rate() {
        let start = Instant::now();
        let mut pace = Pace::new(3, 10, start);
        let waits: Vec<Duration> = (0..5).map(|_| pace.take(start)).collect();
        assert_eq!(&waits[..3], &[Duration::ZERO; 3]);
        // 10 a second: the fourth waits 100 ms, the fifth 200 ms.
        assert_eq!(waits[3].as_millis(), 100);
        assert_eq!(waits[4].as_millis(), 200);
        // A long pause refills no more than the burst.
        let later = start + Duration::from_secs(60);
        let waits: Vec<Duration> = (0..4).map(|_| pace.take(later)).collect();
        assert_eq!(waits.iter().filter(|w| w.is_zero()).count(), 3);
    }

    #[test]
    fn the_bot_pace_stays_inside_the_server_default_limit() {
        // The server's defaults (server/src/config.rs): a burst of 200, 100 a second.
        let start = Instant::now();
        let mut pace = Pace::new(BOT_BURST, BOT_PER_SECOND, start);
        // Send as fast as the pace allows for 10 s and count against the server's bucket.
        let mut at = start;
        let mut sent = 0_u32;
        while at < start + Duration::from_secs(10) {
            at += pace.take(at);
            sent += 1;
        }
        let server_allows = 200 + 100 * 10;
        assert!(sent <= server_allows / 2 + 1, "{sent} messages in 10 s");
    }
}
