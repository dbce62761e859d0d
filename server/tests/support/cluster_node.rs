//! A `kingme-server` node process of a test cluster: started on a free loopback port with
//! one-second leases, its log lines read (and echoed with `KINGME_NODE_LOG=1`), killed with
//! SIGKILL or sent a signal. Shared by the server's cluster suite and the client's failover test
//! (`tests/tests/cluster_client.rs`); each says how a node is started with a
//! `crate::node_command()` that takes the server's flags.

use crate::server_log::{PATIENCE, spawn_logged};
use std::path::PathBuf;
use std::sync::OnceLock;
use tokio::process::Child;
use tokio::sync::mpsc;

/// The one certificate every node of the test's clusters presents (`--tls-cert`, `--tls-key`),
/// as docs/tls.md recommends for a cluster: made once a process, in a folder of its own.
fn shared_certificate() -> &'static (PathBuf, PathBuf) {
    static FILES: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("kingme-cluster-tls")
            .tempdir()
            .unwrap()
            .keep();
        let (cert, key) = kingme_server::net::tls::self_signed_pem().unwrap();
        let files = (dir.join("cluster.crt"), dir.join("cluster.key"));
        std::fs::write(&files.0, cert).unwrap();
        std::fs::write(&files.1, key).unwrap();
        files
    })
}

/// One node process, its address and its log lines.
pub struct Node {
    child: Child,
    pub addr: String,
    log: mpsc::UnboundedReceiver<String>,
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .unwrap()
        .port()
}

impl Node {
    /// A node on database `db` and Redis `redis`, with one-second leases.
    pub async fn start(db: &str, redis: &str) -> Node {
        Node::with_lease(db, redis, 1000).await
    }

    /// A node on database `db` and Redis `redis`, with leases (and heartbeats) of `lease_ms`.
    pub async fn with_lease(db: &str, redis: &str, lease_ms: u32) -> Node {
        let port = free_port();
        let addr = format!("127.0.0.1:{port}");
        let (child, mut lines) = spawn_logged(
            crate::node_command()
                .args(["--listen", &addr, "--db", db, "--cluster", redis])
                .args(["--advertise", &addr, "--lease-ms", &lease_ms.to_string()])
                .args(["--bot-think-ms", "50"])
                .arg("--tls-cert")
                .arg(&shared_certificate().0)
                .arg("--tls-key")
                .arg(&shared_certificate().1)
                .env("NO_COLOR", "1"),
        );
        let (sender, log) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let echo = std::env::var_os("KINGME_NODE_LOG").is_some();
            while let Ok(Some(line)) = lines.next_line().await {
                if echo {
                    eprintln!("[{port}] {line}");
                }
                let _ = sender.send(line);
            }
        });
        let mut node = Node { child, addr, log };
        node.wait_for("kingme server listening").await;
        node
    }

    /// Waits for a log line containing `text`.
    pub async fn wait_for(&mut self, text: &str) -> String {
        tokio::time::timeout(PATIENCE, async {
            while let Some(line) = self.log.recv().await {
                if line.contains(text) {
                    return line;
                }
            }
            panic!("the node ended without logging {text:?}");
        })
        .await
        .unwrap_or_else(|_| panic!("no {text:?} in the node's log"))
    }

    /// SIGKILL: no goodbye, nothing released.
    pub async fn kill(&mut self) {
        self.child.start_kill().unwrap();
        self.child.wait().await.unwrap();
    }

    /// Sends a signal (`STOP`, `CONT`) to the node.
    pub fn signal(&self, name: &str) {
        let pid = self.child.id().unwrap().to_string();
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .unwrap();
        assert!(status.success());
    }
}
