//! `contrib/kingme-server.service` checked by systemd itself: a copy whose `ExecStart` names the
//! `kingme-server` binary just built is given to `systemd-analyze verify`, which must accept it
//! without a word (systemd only warns about an unknown key or a bad value, so any output fails
//! the test); a copy with a misspelt key shows that such a warning is caught. The hardening the
//! unit promises is checked to be there, and the example configuration it starts with keeps its
//! database in the unit's state directory. `contrib/certbot-deploy-hook` is run against a
//! certificate of its own, a state directory in a temporary folder and a `systemctl` that notes
//! what it was asked.
//!
//! Behind the `systemd-tests` feature: `cargo test -p kingme-server --features systemd-tests
//! --test systemd`. Without `systemd-analyze` (Debian's `systemd` package) the test fails, saying
//! what to install; it never passes quietly.

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

use kingme_server::host::ConfigFile;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The server binary the unit's copy starts.
const SERVER: &str = env!("CARGO_BIN_EXE_kingme-server");

/// Where the unit expects the binary (`cargo install --root /usr/local`, or copied there).
const INSTALLED: &str = "/usr/local/bin/kingme-server";

/// A file of the repository.
fn repository_file(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// `systemd-analyze verify` on `unit` (written as `kingme-server.service` in a folder of its
/// own): whether it succeeded, and everything it said.
fn verify(unit: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("kingme-server.service");
    std::fs::write(&path, unit).unwrap();
    let output = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap_or_else(|err| {
            panic!(
                "cannot run systemd-analyze ({err}): install Debian's systemd package \
                 (apt-get install systemd), then run: cargo test -p kingme-server --features \
                 systemd-tests --test systemd"
            )
        });
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), said)
}

/// The unit, starting the binary of this build.
fn unit_for_this_build() -> String {
    let unit = repository_file("contrib/kingme-server.service");
    let exec = format!("ExecStart={INSTALLED} --config /etc/kingme/kingme.toml");
    assert!(
        unit.lines().any(|line| line == exec),
        "the unit should start `{exec}`"
    );
    unit.replace(INSTALLED, SERVER)
}

#[test]
fn systemd_accepts_the_unit_without_a_warning() {
    let (ok, said) = verify(&unit_for_this_build());
    assert!(ok && said.is_empty(), "systemd-analyze verify: {said}");
}

#[test]
fn a_misspelt_key_or_a_missing_binary_is_caught() {
    let unit = unit_for_this_build();
    let misspelt = unit.replace("NoNewPrivileges=", "NoNewPrivilege=");
    let (_, said) = verify(&misspelt);
    assert!(said.contains("Unknown key 'NoNewPrivilege'"), "{said}");
    let missing = unit.replace(SERVER, "/nonexistent/kingme-server");
    let (ok, said) = verify(&missing);
    assert!(!ok && said.contains("/nonexistent/kingme-server"), "{said}");
}

#[test]
fn the_unit_is_hardened_and_keeps_the_database_in_its_state_directory() {
    let unit = repository_file("contrib/kingme-server.service");
    for line in [
        "Type=simple",
        "DynamicUser=yes",
        "StateDirectory=kingme",
        "ConfigurationDirectory=kingme",
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "PrivateDevices=yes",
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
        "SystemCallFilter=@system-service",
        "MemoryDenyWriteExecute=yes",
        "ExecReload=/bin/kill -HUP $MAINPID",
    ] {
        assert!(
            unit.lines().any(|have| have == line),
            "contrib/kingme-server.service has no `{line}`"
        );
    }
    // The example configuration the unit is installed with keeps the database, its seal and
    // the self-signed certificate (beside the database) in the state directory, the one place
    // the service may write.
    let example =
        ConfigFile::parse_bytes(repository_file("contrib/kingme.toml").as_bytes()).unwrap();
    let db = example.db.expect("contrib/kingme.toml names its db");
    assert!(db.starts_with("/var/lib/kingme/"), "{db}");
}

#[test]
fn the_certbot_hook_hands_the_service_its_certificate_and_reloads_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let lineage = dir.path().join("live/game.example.org");
    std::fs::create_dir_all(&lineage).unwrap();
    std::fs::write(lineage.join("fullchain.pem"), "the chain").unwrap();
    std::fs::write(lineage.join("privkey.pem"), "the key").unwrap();
    // A systemctl that writes down what it was asked.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let asked = dir.path().join("asked");
    let systemctl = bin.join("systemctl");
    std::fs::write(
        &systemctl,
        format!("#!/bin/sh\necho \"$@\" >> {}\n", asked.display()),
    )
    .unwrap();
    std::fs::set_permissions(&systemctl, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Before the service's first start its state directory does not exist.
    let state = dir.path().join("private/kingme");
    let hook = Path::new(env!("CARGO_MANIFEST_DIR")).join("../contrib/certbot-deploy-hook");
    for round in 1..=2 {
        let output = Command::new("sh")
            .arg(&hook)
            .env("RENEWED_LINEAGE", &lineage)
            .env("KINGME_STATE_DIR", &state)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(output.status.success(), "round {round}: {output:?}");
    }
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&state), 0o700);
    assert_eq!(
        std::fs::read_to_string(state.join("fullchain.pem")).unwrap(),
        "the chain"
    );
    assert_eq!(
        std::fs::read_to_string(state.join("privkey.pem")).unwrap(),
        "the key"
    );
    assert_eq!(mode(&state.join("privkey.pem")), 0o600);
    assert_eq!(
        std::fs::read_to_string(&asked).unwrap(),
        "try-reload-or-restart kingme-server.service\n".repeat(2)
    );
    // Without certbot's variable it says what is missing.
    let output = Command::new("sh").arg(&hook).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("RENEWED_LINEAGE"));
}
