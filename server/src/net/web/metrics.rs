//! `GET /metrics`: the server's metrics ([`crate::telemetry`]) in Prometheus text, rendered by
//! `metrics-exporter-prometheus` from the recorder the binary installs once per process
//! ([`install`]); nothing is formatted by hand. The durations are histograms with fixed buckets
//! (from half a millisecond to five seconds), so they add up across nodes.

use super::WebDoor;
use crate::telemetry;
use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

/// The bucket bounds of every duration, in seconds.
const SECONDS_BUCKETS: [f64; 13] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// How often the recorder's histograms are drained into their buckets.
const UPKEEP: Duration = Duration::from_secs(5);

/// The process's recorder, once installed.
static RECORDER: OnceLock<PrometheusHandle> = OnceLock::new();

/// Why the recorder could not be installed.
#[derive(Debug, thiserror::Error)]
#[error("cannot record metrics: {0}")]
pub struct MetricsError(#[from] BuildError);

/// Installs the Prometheus recorder as this process's (once: later calls keep the first), and
/// keeps its upkeep running. Call it within a tokio runtime, before the server starts, so the
/// games it resumes are counted.
///
/// # Errors
/// When another recorder is installed already.
pub fn install() -> Result<(), MetricsError> {
    if RECORDER.get().is_some() {
        return Ok(());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &SECONDS_BUCKETS)?
        .install_recorder()?;
    describe();
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(UPKEEP);
        loop {
            every.tick().await;
            upkeep.run_upkeep();
        }
    });
    let _ = RECORDER.set(handle);
    Ok(())
}

/// The `# HELP` lines.
fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_gauge!(telemetry::CONNECTIONS, "Connections held now, by door.");
    describe_gauge!(telemetry::GAMES, "Games held now, by kind and state.");
    describe_counter!(
        telemetry::MOVES,
        "Moves judged, stored and announced, by kind."
    );
    describe_histogram!(
        telemetry::MOVE_RELAY,
        Unit::Seconds,
        "A move received by its table to its announcement sent."
    );
    describe_histogram!(
        telemetry::STORAGE_COMMIT,
        Unit::Seconds,
        "One batch of the database, begun to committed."
    );
    describe_counter!(telemetry::REFUSALS, "Requests refused, by error kind.");
    describe_histogram!(
        telemetry::BOT_SEARCH,
        Unit::Seconds,
        "One bot search, handed to a blocking thread to its answer, by kind and level."
    );
    describe_gauge!(
        telemetry::LEASES,
        "Leases on games this cluster node holds now."
    );
    describe_counter!(
        telemetry::TAKEOVERS,
        "Games this cluster node took over from a node that died."
    );
    describe_counter!(
        telemetry::REDIS_ERRORS,
        "Requests to the cluster's Redis that failed."
    );
}

/// The route `/metrics`.
pub fn routes() -> Router<WebDoor> {
    Router::new().route("/metrics", get(|| async { render() }))
}

fn render() -> Response {
    match RECORDER.get() {
        Some(handle) => (
            [(
                header::CONTENT_TYPE,
                "text/plain; version=0.0.4; charset=utf-8",
            )],
            handle.render(),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            "no metrics are recorded in this process (the kingme-server binary records them)\n",
        )
            .into_response(),
    }
}
