//! The metrics door (`--metrics HOST:PORT`): `/metrics` ([`super::metrics`]), `/healthz` and
//! `/readyz` ([`super::health`]) on a listener of their own, so a host can keep the metrics off
//! the public door (the HTTP door then serves no `/metrics`) and probe a server that has no HTTP
//! door at all. Plain HTTP whatever the other doors speak: what is served here is counts and
//! states, no sign-in and no secret, read by a scraper that is simplest without certificates;
//! the host binds it to loopback or a private network.

use super::WebDoor;
use super::{health, metrics};
use axum::Router;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Serves the metrics door's routes in plain HTTP on `listener` until `stop` is cancelled.
pub async fn serve_metrics(listener: TcpListener, door: WebDoor, stop: CancellationToken) {
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "kingme metrics door open");
    }
    let app: Router = Router::new()
        .merge(metrics::routes())
        .merge(health::routes())
        .with_state(door);
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(stop.cancelled_owned())
        .await;
    if let Err(err) = served {
        tracing::error!(%err, "the metrics door failed");
    }
}
