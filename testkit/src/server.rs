//! The real server started in the test's own process (`kingme_server::host::ServerHandle`) on a free
//! port of 127.0.0.1, with the configuration the tests use.

use kingme_server::host::{Config, ServerHandle};
use std::time::Duration;

/// The configuration the tests use: the defaults, with bots that answer at once.
#[must_use]
pub fn test_config() -> Config {
    Config {
        bot_think_time: Duration::from_millis(20),
        ..Config::default()
    }
}

/// Starts the real server on a free port of 127.0.0.1.
///
/// # Panics
/// When the server cannot start: the test fails there.
pub async fn start_server(config: Config) -> ServerHandle {
    ServerHandle::start("127.0.0.1:0", config)
        .await
        .expect("the server starts on 127.0.0.1:0")
}

/// Starts the real server on a free port of 127.0.0.1 with its HTTP door (the WebSocket and the
/// web page) on another.
///
/// # Panics
/// When the server cannot start: the test fails there.
pub async fn start_web_server(config: Config) -> ServerHandle {
    ServerHandle::start_with_http("127.0.0.1:0", "127.0.0.1:0", config)
        .await
        .expect("the server starts on 127.0.0.1:0 with its HTTP door")
}
