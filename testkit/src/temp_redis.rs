//! A throwaway Redis for tests: `redis-server` from the system's packages (Debian:
//! `redis-server`) on a free loopback port in a temporary directory, without persistence, stopped
//! when dropped; restarting it loses everything, as a crashed Redis without persistence does.

use crate::ports::free_port;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running Redis; stopped when dropped.
pub struct TempRedis {
    dir: tempfile::TempDir,
    /// The loopback port it listens on.
    pub port: u16,
    child: Option<Child>,
}

impl TempRedis {
    /// Starts Redis and waits until it accepts connections.
    pub fn start() -> TempRedis {
        let mut redis = TempRedis {
            dir: tempfile::tempdir().expect("a temporary directory"),
            port: free_port(),
            child: None,
        };
        redis.launch();
        redis
    }

    fn launch(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .current_dir(self.dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "redis-server is not installed: the cluster tests start their own Redis; install \
                 it (Debian: apt-get install redis-server)",
            );
        let mut child = child;
        let log = child.stdout.take().expect("redis-server's log");
        self.child = Some(child);
        // Its log says when it accepts connections; the rest of it is read and dropped.
        let mut lines = BufReader::new(log).lines();
        let ready = lines
            .by_ref()
            .map_while(Result::ok)
            .any(|line| line.contains("Ready to accept connections"));
        assert!(ready, "redis-server ended without accepting connections");
        std::thread::spawn(move || lines.for_each(drop));
    }

    /// The URL nodes are given.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills Redis (its data is lost: no persistence).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again, empty, on the same port.
    pub fn restart(&mut self) {
        self.stop();
        self.launch();
    }

    /// Starts a stopped Redis again, empty, on the same port.
    pub fn start_again(&mut self) {
        self.launch();
    }
}

impl Drop for TempRedis {
    fn drop(&mut self) {
        self.stop();
    }
}
