//! The second door: HTTP on its own port (`--http`), serving the WebSocket endpoint `/ws` (the
//! same connections as the TCP door, in JSON: [`socket`]), the web page ([`page`]) and what the
//! page is told about the games ([`catalogue`]). Built on
//! axum: the tokio project's own HTTP framework over hyper, with WebSocket support
//! (tokio-tungstenite) behind its `ws` feature, so one well-kept stack does the HTTP, the upgrade
//! and the WebSocket frames on the runtime the server already uses.
//!
//! A WebSocket connection takes a permit from the same pool as TCP connections (at the limit the
//! upgrade is refused with 503), is tracked with them for shutdown, and is served by the same
//! connection code.

pub mod catalogue;
pub mod page;
pub mod socket;

use crate::net::context::ConnectionContext;
use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::task::TaskTracker;

/// What the HTTP door hands each WebSocket: the connections' context, the connection permits
/// shared with the TCP door, and the tracker the server waits on at shutdown.
#[derive(Debug, Clone)]
pub struct WebDoor {
    pub context: Arc<ConnectionContext>,
    pub permits: Arc<Semaphore>,
    pub connections: TaskTracker,
}

/// Serves HTTP on `listener` until `stop` completes (upgraded WebSockets live on, tracked by
/// `door.connections`, until the server closes them).
pub async fn serve_http(
    listener: TcpListener,
    door: WebDoor,
    stop: impl Future<Output = ()> + Send + 'static,
) {
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "kingme web page and WebSocket listening");
    }
    let app = Router::new()
        .route("/ws", get(upgrade))
        .merge(catalogue::routes())
        .merge(page::routes())
        .with_state(door);
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stop)
    .await;
    if let Err(err) = served {
        tracing::error!(%err, "the HTTP door failed");
    }
}

/// `GET /ws`: upgrades to a WebSocket served as a kingme connection.
async fn upgrade(
    State(door): State<WebDoor>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
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
                socket::serve_websocket(websocket, peer, context).await;
                drop(permit);
            })
        })
}
