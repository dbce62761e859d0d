//! The health checks of the web door against the real server, over HTTPS: `/healthz` answers
//! while the process serves, `/readyz` while the database answers, and flips to 503 with the
//! reason once the SQLite file is removed under the running server.

use kingme_server::host::{Config, Database};
use kingme_testkit::http::get;
use kingme_testkit::{start_web_server, test_config};

#[tokio::test]
async fn readyz_flips_to_503_when_the_database_file_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.db");
    let server = start_web_server(Config {
        database: Database::File(path.clone()),
        ..test_config()
    })
    .await;
    let web = server.http_addr().unwrap();

    let (head, body) = get(web, "/healthz").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(body, "alive\n");
    let (head, body) = get(web, "/readyz").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("no-store"), "{head}");
    assert_eq!(body, "ready\n");

    std::fs::remove_file(&path).unwrap();
    let (head, body) = get(web, "/readyz").await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert!(
        body.starts_with("not ready: the database does not answer") && body.contains("was removed"),
        "{body}"
    );
    // Alive all the same: the process serves, it only cannot keep games.
    let (head, _) = get(web, "/healthz").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    server.shutdown().await;
}
