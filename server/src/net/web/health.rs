//! `GET /healthz` and `GET /readyz` for a load balancer or an orchestrator. `/healthz` says the
//! process serves HTTP (200, always). `/readyz` says it can keep games: 200 when the database
//! answers a cheap question (for SQLite, also that its file is still the one opened) and, on a
//! cluster node, when its heartbeat holds its place in the cluster; else 503 with the reason.

use super::WebDoor;
use crate::net::context::ConnectionContext;
use crate::storage::StoreError;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::time::Duration;

/// How long `/readyz` waits for the database before calling it silent.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// Why the server is not ready.
#[derive(Debug, thiserror::Error)]
pub enum NotReady {
    /// The database answered with an error.
    #[error("the database does not answer: {0}")]
    Database(StoreError),
    /// The database did not answer in time.
    #[error("the database did not answer within {} s", READY_TIMEOUT.as_secs())]
    DatabaseSilent,
    /// A cluster node whose heartbeat has not held its place in the cluster.
    #[error("this node is not joined to its cluster (its Redis heartbeat lapsed)")]
    NotJoined,
}

/// The routes `/healthz` and `/readyz`.
pub fn routes() -> Router<WebDoor> {
    Router::new()
        .route(
            "/healthz",
            get(|| async { plain(StatusCode::OK, "alive\n".to_owned()) }),
        )
        .route(
            "/readyz",
            get(|State(door): State<WebDoor>| async move {
                match readiness(&door.context).await {
                    Ok(()) => plain(StatusCode::OK, "ready\n".to_owned()),
                    Err(reason) => plain(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!("not ready: {reason}\n"),
                    ),
                }
            }),
        )
}

/// Whether the server can keep games now.
///
/// # Errors
/// The first reason it cannot.
pub async fn readiness(context: &ConnectionContext) -> Result<(), NotReady> {
    #[cfg(feature = "cluster")]
    if let Some(membership) = &context.membership
        && !membership.joined()
    {
        return Err(NotReady::NotJoined);
    }
    match tokio::time::timeout(READY_TIMEOUT, context.storage.ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(err)) => Err(NotReady::Database(err)),
        Err(_) => Err(NotReady::DatabaseSilent),
    }
}

/// A plain-text answer nobody caches.
fn plain(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}
