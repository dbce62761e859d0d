//! The ports `kingme_testkit::ports::free_port` hands out to the services tests start
//! (PostgreSQL, Redis, cluster nodes): free, never the same twice, and below the kernel's
//! ephemeral range, so no test's outgoing connection can take one before it is bound.

use kingme_testkit::ports::{LOWEST, ephemeral_start, free_port};
use std::net::TcpListener;

#[test]
fn ports_are_free_distinct_and_below_the_ephemeral_range() {
    let ports: Vec<u16> = (0..50).map(|_| free_port()).collect();
    for &port in &ports {
        assert!(
            u32::from(port) >= LOWEST && u32::from(port) < ephemeral_start(),
            "{port}"
        );
        TcpListener::bind(("127.0.0.1", port)).expect("the port is free");
    }
    let mut distinct = ports.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), ports.len(), "{ports:?}");
}
