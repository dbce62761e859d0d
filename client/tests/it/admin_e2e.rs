//! End to end, moderation: the real `kingme` binary's `admin` commands against the real server.
//! A person whose key is not an admin's is refused with its fingerprint; once the server names
//! that fingerprint, `kingme admin ban` bans, and `kingme admin log` lists it.

use crate::fixtures::run_kingme;
use kingme_server::host::{Admins, Config, Fingerprint, ServerHandle};
use std::sync::Arc;

#[tokio::test]
async fn kingme_admin_is_refused_until_the_server_names_the_key_then_bans_and_logs() {
    let admins = Arc::new(Admins::default());
    let config = Config {
        admins: Arc::clone(&admins),
        ..Config::default()
    };
    let server = ServerHandle::start("127.0.0.1:0", config).await.unwrap();
    let addr = server.addr().to_string();
    let home = tempfile::tempdir().unwrap();
    let kingme = |args: &'static [&'static str]| {
        let mut all = vec!["--server", addr.as_str(), "--name", "root"];
        all.extend_from_slice(args);
        all
    };
    // The first use makes root's key; it is no admin's yet.
    let refused = run_kingme(home.path(), &kingme(&["admin", "log"]), &[], "").await;
    assert!(
        refused.contains("not one of this server's admins"),
        "{refused}"
    );
    let shown = run_kingme(
        home.path(),
        &["--name", "root", "identity", "show"],
        &[],
        "",
    )
    .await;
    let fingerprint = shown
        .lines()
        .find_map(|line| line.strip_prefix("fingerprint: "))
        .unwrap_or_else(|| panic!("no fingerprint in {shown}"))
        .to_owned();
    assert!(refused.contains(&fingerprint), "{refused}");
    // The host names root's key.
    admins.replace([fingerprint.parse::<Fingerprint>().unwrap()]);
    let banned = run_kingme(
        home.path(),
        &kingme(&["admin", "ban", "mallory", "--reason", "spam in chat"]),
        &[],
        "",
    )
    .await;
    assert!(banned.starts_with("banned mallory"), "{banned}");
    let log = run_kingme(home.path(), &kingme(&["admin", "log"]), &[], "").await;
    assert!(
        log.contains(&format!(
            "  root  {fingerprint}  ban mallory (spam in chat)"
        )),
        "{log}"
    );
    let announced = run_kingme(
        home.path(),
        &kingme(&["admin", "announce", "back", "at", "five"]),
        &[],
        "",
    )
    .await;
    assert!(
        announced.starts_with("announced to 1 connection"),
        "{announced}"
    );
    server.shutdown().await;
}
