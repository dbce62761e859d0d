//! A node process of a test cluster: started on a free loopback port with one-second leases
//! (or leases of the test's choosing), presenting the one certificate of every test cluster of
//! the process, its log lines read (and echoed with `KINGME_NODE_LOG=1`), killed with SIGKILL or
//! sent a signal. The caller gives the program: the server's `kingme-server` binary, or a test
//! binary that serves as a node when started again (`tests/tests/cluster_client.rs`); it is
//! passed the `kingme-server` flags.

use crate::patience;
use crate::ports::free_port;
use crate::server_process::spawn_logged;
use std::path::PathBuf;
use std::sync::OnceLock;
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

/// The one certificate every node of the test's clusters presents (`--tls-cert`, `--tls-key`),
/// as docs/tls.md recommends for a cluster: made once a process, in a folder of its own.
fn shared_certificate() -> &'static (PathBuf, PathBuf) {
    static FILES: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("kingme-cluster-tls")
            .tempdir()
            .expect("a temporary directory")
            .keep();
        let names = ["localhost", "127.0.0.1", "::1"]
            .map(str::to_owned)
            .to_vec();
        let made = rcgen::generate_simple_self_signed(names).expect("a self-signed certificate");
        let files = (dir.join("cluster.crt"), dir.join("cluster.key"));
        std::fs::write(&files.0, made.cert.pem()).expect("the certificate is written");
        std::fs::write(&files.1, made.signing_key.serialize_pem()).expect("the key is written");
        files
    })
}

/// One node process, its address and its log lines.
pub struct Node {
    child: Child,
    /// The address it listens on and advertises.
    pub addr: String,
    log: mpsc::UnboundedReceiver<String>,
}

impl Node {
    /// `program` as a node on database `db` and Redis `redis`, with one-second leases.
    pub async fn start(program: Command, db: &str, redis: &str) -> Node {
        Node::with_lease(program, db, redis, 1000).await
    }

    /// `program` as a node on database `db` and Redis `redis`, with leases (and heartbeats) of
    /// `lease_ms`; returns once it listens.
    ///
    /// # Panics
    /// When it does not start and listen in time.
    pub async fn with_lease(mut program: Command, db: &str, redis: &str, lease_ms: u32) -> Node {
        let port = free_port();
        let addr = format!("127.0.0.1:{port}");
        let (certificate, key) = shared_certificate();
        let (child, mut lines) = spawn_logged(
            program
                .args(["--listen", &addr, "--db", db, "--cluster", redis])
                .args(["--advertise", &addr, "--lease-ms", &lease_ms.to_string()])
                .args(["--bot-think-ms", "50"])
                .arg("--tls-cert")
                .arg(certificate)
                .arg("--tls-key")
                .arg(key)
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
    ///
    /// # Panics
    /// When the node ends, or [`patience::SERVER_LOG`] passes, first.
    pub async fn wait_for(&mut self, text: &str) -> String {
        tokio::time::timeout(patience::SERVER_LOG, async {
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
    ///
    /// # Panics
    /// When the process cannot be killed.
    pub async fn kill(&mut self) {
        self.child.start_kill().expect("the node is killed");
        self.child.wait().await.expect("the killed node is reaped");
    }

    /// Sends a signal (`STOP`, `CONT`) to the node.
    ///
    /// # Panics
    /// When the node has ended, or `kill` fails.
    pub fn signal(&self, name: &str) {
        let pid = self.child.id().expect("the node runs").to_string();
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{name} {pid}: {status}");
    }
}
