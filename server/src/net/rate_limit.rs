//! A token bucket per connection: a burst of messages is fine, a flood is not. Pure arithmetic
//! on the `now` it is given, so tests need no clock.

use tokio::time::{Duration, Instant};

/// Allows `burst` messages at once, refilled at `per_second`.
#[derive(Debug, Clone)]
pub struct RateLimiter {
    burst: f64,
    per_second: f64,
    tokens: f64,
    updated: Instant,
}

impl RateLimiter {
    /// A full bucket at `now`.
    #[must_use]
    pub fn new(burst: u32, per_second: u32, now: Instant) -> RateLimiter {
        let burst = f64::from(burst.max(1));
        RateLimiter {
            burst,
            per_second: f64::from(per_second),
            tokens: burst,
            updated: now,
        }
    }

    /// Holds to `burst` and `per_second` from now on (SIGHUP changed them): a smaller burst
    /// drops the tokens above it, a larger one fills in at the new rate.
    pub fn adjust(&mut self, burst: u32, per_second: u32) {
        self.burst = f64::from(burst.max(1));
        self.per_second = f64::from(per_second);
        self.tokens = self.tokens.min(self.burst);
    }

    /// Takes a token for one message at `now`; `false` when the bucket is empty.
    pub fn allow(&mut self, now: Instant) -> bool {
        let elapsed: Duration = now.saturating_duration_since(self.updated);
        self.updated = now;
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_a_flood_is_refused_until_the_bucket_refills() {
        let start = Instant::now();
        let mut limiter = RateLimiter::new(5, 10, start);
        let allowed = (0..8).filter(|_| limiter.allow(start)).count();
        assert_eq!(allowed, 5);
        // 10 per second: one token every 100 ms.
        assert!(!limiter.allow(start + Duration::from_millis(50)));
        assert!(limiter.allow(start + Duration::from_millis(160)));
        assert!(!limiter.allow(start + Duration::from_millis(170)));
        // A long pause refills no more than the burst.
        let later = start + Duration::from_secs(60);
        let allowed = (0..8).filter(|_| limiter.allow(later)).count();
        assert_eq!(allowed, 5);
    }

    #[test]
    fn an_adjusted_bucket_holds_to_its_new_burst_and_rate() {
        let start = Instant::now();
        let mut limiter = RateLimiter::new(100, 100, start);
        assert!(limiter.allow(start));
        limiter.adjust(3, 1);
        let allowed = (0..10).filter(|_| limiter.allow(start)).count();
        assert_eq!(allowed, 3);
        // One a second now: nothing after half a second, one after a second.
        assert!(!limiter.allow(start + Duration::from_millis(500)));
        assert!(limiter.allow(start + Duration::from_millis(1000)));
        // A larger burst fills in at the rate, not at once.
        limiter.adjust(50, 10);
        let later = start + Duration::from_millis(1300);
        let allowed = (0..10).filter(|_| limiter.allow(later)).count();
        assert_eq!(allowed, 3);
    }
}
