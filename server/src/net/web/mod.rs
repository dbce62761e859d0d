//! The second door: HTTP on its own port (`--http`), serving the WebSocket endpoint `/ws` (the
//! same connections as the TCP door, in JSON: [`socket`]), the web page ([`page`]), what the
//! page is told about the games ([`catalogue`]), the channel binding its proofs sign
//! ([`binding`]), the health checks `/healthz` and `/readyz` ([`health`]) and, with the
//! `metrics` feature, `/metrics` (unless the metrics door of `metrics_door` serves it). Built on
//! axum: the tokio project's own HTTP framework over hyper, with WebSocket support
//! (tokio-tungstenite) behind its `ws` feature, so one well-kept stack does the HTTP, the upgrade
//! and the WebSocket frames on the runtime the server already uses.
//!
//! A WebSocket connection takes a permit from the same pool as TCP connections (at the limit the
//! upgrade is refused with 503), is tracked with them for shutdown, and is served by the same
//! connection code.

pub mod binding;
pub mod catalogue;
pub mod health;
pub mod listener;
#[cfg(feature = "metrics")]
pub mod metrics;
#[cfg(feature = "metrics")]
pub mod metrics_door;
pub mod page;
pub mod socket;

use crate::net::connection::Peer;
use crate::net::context::ConnectionContext;
use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use listener::{WebListener, WebPeer};
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// What the HTTP door hands each WebSocket: the connections' context, the connection permits
/// shared with the TCP door, and the tracker the server waits on at shutdown.
#[derive(Debug, Clone)]
pub struct WebDoor {
    pub context: Arc<ConnectionContext>,
    pub permits: Arc<Semaphore>,
    pub connections: TaskTracker,
}

/// Serves HTTPS (HTTP with `--plaintext`) on `listener` until `stop` is cancelled (upgraded
/// WebSockets live on, tracked by `door.connections`, until the server closes them).
/// `/metrics` is served here only if `with_metrics` (no metrics door of its own).
pub async fn serve_http(
    listener: TcpListener,
    door: WebDoor,
    stop: CancellationToken,
    with_metrics: bool,
) {
    let tls = Arc::clone(&door.context.tls);
    let live = Arc::clone(&door.context.live);
    let listener = match WebListener::start(listener, tls, live, stop.clone()) {
        Ok(listener) => listener,
        Err(err) => return tracing::error!(%err, "the HTTP door cannot listen"),
    };
    if let Ok(peer) = axum::serve::Listener::local_addr(&listener) {
        let scheme = if door.context.tls.is_plaintext() {
            "http"
        } else {
            "https"
        };
        tracing::info!(addr = %peer.address, scheme, "kingme web page and WebSocket listening");
    }
    let app: Router<WebDoor> = Router::new()
        .route("/ws", get(upgrade))
        .merge(binding::routes())
        .merge(catalogue::routes())
        .merge(health::routes());
    #[cfg(feature = "metrics")]
    let app = if with_metrics {
        app.merge(metrics::routes())
    } else {
        app
    };
    #[cfg(not(feature = "metrics"))]
    let _ = with_metrics;
    let app = app.merge(page::routes()).with_state(door);
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<WebPeer>(),
    )
    .with_graceful_shutdown(stop.cancelled_owned())
    .await;
    if let Err(err) = served {
        tracing::error!(%err, "the HTTP door failed");
    }
}

/// `GET /ws`: upgrades to a WebSocket served as a kingme connection.
async fn upgrade(
    State(door): State<WebDoor>,
    ConnectInfo(peer): ConnectInfo<WebPeer>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Ok(permit) = Arc::clone(&door.permits).try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "the server holds as many connections as it may; try again in a moment",
        )
            .into_response();
    };
    let WebDoor {
        context,
        connections,
        ..
    } = door;
    upgrade
        .read_buffer_size(socket::READ_BUFFER)
        .max_message_size(socket::MAX_WEBSOCKET_MESSAGE)
        .max_frame_size(socket::MAX_WEBSOCKET_MESSAGE)
        .on_upgrade(move |websocket| {
            connections.track_future(async move {
                let peer = Peer {
                    address: peer.address,
                    binding: peer.binding,
                };
                socket::serve_websocket(websocket, peer, context).await;
                drop(permit);
            })
        })
}
