//! A PostgreSQL server of the test's own, from the system's packages: `initdb` makes a cluster in
//! a temporary directory, `pg_ctl` starts it on a free loopback port (and a socket in that
//! directory, so it never meets a system instance), and dropping the guard stops it and removes
//! the directory, also when the test panics. PostgreSQL refuses to run as root, so as root (CI)
//! both run as the `postgres` user that the Debian package creates.
//!
//! Missing binaries fail loudly: the suites that start one run only behind a feature
//! (`postgres-tests`, `cluster-tests`) that promises a PostgreSQL to test against.

use crate::ports::free_port;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where Debian installs the binaries when they are not on PATH.
const DEBIAN_BIN: &str = "/usr/lib/postgresql";

/// The user the server runs as: whoever runs the test, or `postgres` for root.
const SUPERUSER: &str = "kingme";

/// A running PostgreSQL; stopped and removed when dropped.
pub struct TempPostgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    /// The uid and gid to run as (the `postgres` user), when running as root.
    run_as: Option<(u32, u32)>,
    port: u16,
    databases: usize,
}

/// The folder holding `initdb` and `pg_ctl`: PATH first, then the newest Debian version.
fn find_bin() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut debian: Vec<PathBuf> = std::fs::read_dir(DEBIAN_BIN)
        .map(|versions| {
            versions
                .filter_map(Result::ok)
                .map(|entry| entry.path().join("bin"))
                .collect()
        })
        .unwrap_or_default();
    debian.sort_by_key(|dir| {
        dir.parent()
            .and_then(Path::file_name)
            .and_then(|name| name.to_str())
            .and_then(|name| name.parse::<u32>().ok())
    });
    on_path
        .into_iter()
        .chain(debian.into_iter().rev())
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
        .unwrap_or_else(|| {
            panic!(
                "the postgres-tests feature needs PostgreSQL's initdb and pg_ctl, found neither \
                 on PATH nor in {DEBIAN_BIN}/*/bin: install PostgreSQL (Debian: apt-get install \
                 postgresql) or test without --features postgres-tests"
            )
        })
}

/// The uid and gid of the `postgres` user, from /etc/passwd.
fn postgres_user() -> (u32, u32) {
    let passwd = std::fs::read_to_string("/etc/passwd").expect("/etc/passwd is readable");
    passwd
        .lines()
        .map(|line| line.split(':').collect::<Vec<_>>())
        .find(|fields| fields.first() == Some(&"postgres") && fields.len() > 3)
        .and_then(|fields| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
        .expect(
            "running as root, the tests start PostgreSQL as the user postgres, and there is \
             none: install the postgresql package, which creates it",
        )
}

impl TempPostgres {
    /// Makes a cluster and starts it; panics with the tool's own output if that fails.
    pub fn start() -> TempPostgres {
        let bin = find_bin();
        let root = std::fs::metadata("/proc/self").is_ok_and(|me| me.uid() == 0);
        // As root, the directory must be one the postgres user can reach ($TMPDIR may be
        // below root's home).
        let dir = if root {
            tempfile::tempdir_in("/tmp")
        } else {
            tempfile::tempdir()
        }
        .expect("a temporary directory");
        let run_as = root.then(postgres_user);
        if let Some((uid, gid)) = run_as {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .expect("the directory is given to postgres");
        }
        let server = TempPostgres {
            dir,
            bin,
            run_as,
            port: free_port(),
            databases: 0,
        };
        let data = server.data();
        server.run(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-U".as_ref(),
                SUPERUSER.as_ref(),
                "--auth=trust".as_ref(),
                "--encoding=UTF8".as_ref(),
                "--no-locale".as_ref(),
                "--no-sync".as_ref(),
            ],
        );
        server.pg_start();
        server
    }

    /// `pg_ctl start` on the cluster's port, waiting until it accepts connections.
    fn pg_start(&self) {
        let data = self.data();
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("postgres.log");
        self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-l".as_ref(),
                log.as_os_str(),
                "-o".as_ref(),
                options.as_ref(),
                "-w".as_ref(),
                "start".as_ref(),
            ],
        );
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn command(&self, tool: &str) -> Command {
        let mut command = Command::new(self.bin.join(tool));
        if let Some((uid, gid)) = self.run_as {
            command.uid(uid).gid(gid).env("HOME", self.dir.path());
        }
        command.current_dir(self.dir.path());
        command
    }

    fn run(&self, tool: &str, args: &[&std::ffi::OsStr]) -> Output {
        let output = self
            .command(tool)
            .args(args)
            .output()
            .unwrap_or_else(|err| panic!("cannot run {tool}: {err}"));
        assert!(
            output.status.success(),
            "{tool} failed ({}):\n{}\n{}\nlog:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            std::fs::read_to_string(self.dir.path().join("postgres.log")).unwrap_or_default()
        );
        output
    }

    /// Stops the server (as a crash would, dropping every connection) and starts it again on
    /// the same port.
    pub fn restart(&self) {
        let data = self.data();
        // The log again: without it the new server would write into (and hold open) the pipe
        // this waits on.
        let log = self.dir.path().join("postgres.log");
        self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-l".as_ref(),
                log.as_os_str(),
                "-m".as_ref(),
                "immediate".as_ref(),
                "-w".as_ref(),
                "restart".as_ref(),
            ],
        );
    }

    /// Stops the server at once (every connection dropped), until [`TempPostgres::start_again`].
    pub fn stop(&self) {
        let data = self.data();
        self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-m".as_ref(),
                "immediate".as_ref(),
                "-w".as_ref(),
                "stop".as_ref(),
            ],
        );
    }

    /// Starts a stopped server again on the same port.
    pub fn start_again(&self) {
        self.pg_start();
    }

    /// The URL of database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates a new, empty database and returns its URL.
    pub fn create_database(&mut self) -> String {
        self.databases += 1;
        let name = format!("kingme_test_{}", self.databases);
        let admin = self.url("postgres");
        let sql = format!("CREATE DATABASE {name}");
        // The blocking client runs a runtime of its own: never on a tokio thread.
        std::thread::spawn(move || {
            let mut client =
                postgres::Client::connect(&admin, postgres::NoTls).expect("connect as admin");
            client.batch_execute(&sql).expect("create a database");
        })
        .join()
        .expect("the database is created");
        self.url(&name)
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let stopped = self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w", "stop"])
            .output();
        if !stopped.is_ok_and(|output| output.status.success()) {
            eprintln!(
                "could not stop the test PostgreSQL in {}",
                self.dir.path().display()
            );
        }
    }
}
