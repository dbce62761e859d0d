//! A free loopback port, for a process the test starts that must be told its port up front (a
//! cluster node advertises it, PostgreSQL and Redis are restarted on it).
//!
//! The port is taken below the kernel's ephemeral range (`ip_local_port_range`), from which
//! every outgoing connection gets its local port: a port of that range that was free when it was
//! chosen can be taken by any connection a test opens before the process binds it (PostgreSQL's
//! `initdb` takes a second or two), or while a restarted server is down, and the server then
//! fails with "Address already in use". Below the range only an explicit bind can take it, and
//! the ports this process hands out are never handed out twice (tested in kingme-tests:
//! `ports::ports_are_free_distinct_and_below_the_ephemeral_range`).

use std::net::TcpListener;
use std::sync::atomic::{AtomicU32, Ordering};

/// The lowest port handed out: above the well-known and most registered services' ports.
pub const LOWEST: u32 = 20_000;

/// Where the next search for a port starts, as an offset from [`LOWEST`]; each port handed out
/// moves it on, so two tests of one process never get the same port.
static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);

/// A port of 127.0.0.1 that nothing listened on a moment ago, below the ephemeral range.
///
/// # Panics
/// When no port there can be bound.
#[must_use]
pub fn free_port() -> u16 {
    let highest = ephemeral_start().saturating_sub(1).max(LOWEST + 1_000);
    let span = highest - LOWEST;
    // Processes start their search at different places, so test binaries run side by side
    // rarely try the same ports.
    let _ = NEXT.compare_exchange(
        u32::MAX,
        std::process::id().wrapping_mul(7_919) % span,
        Ordering::Relaxed,
        Ordering::Relaxed,
    );
    for _ in 0..span {
        let offset = NEXT.fetch_add(1, Ordering::Relaxed) % span;
        let Ok(port) = u16::try_from(LOWEST + offset) else {
            continue;
        };
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port from {LOWEST} to {highest}");
}

/// The first port of the kernel's ephemeral range (Linux's default 32768 when it cannot be read).
#[must_use]
pub fn ephemeral_start() -> u32 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse().ok())
        .unwrap_or(32_768)
}
