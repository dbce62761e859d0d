//! A free loopback port, for a process the test starts that must be told its port up front (a
//! cluster node advertises it, PostgreSQL and Redis are restarted on it).

use std::net::TcpListener;

/// A port of 127.0.0.1 that nothing listened on a moment ago.
///
/// # Panics
/// When the system has no free port.
#[must_use]
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}
