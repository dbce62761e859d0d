//! The web page: plain HTML, CSS and JavaScript modules from `server/web/`, compiled into the
//! binary (`include_bytes!`), so the server needs no files beside it, no build step and no
//! internet. Only the files listed in [`ASSETS`] are served; anything else is 404.

use super::WebDoor;
use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// Every file of the page: its name under `/`, its content type, its bytes.
pub const ASSETS: [(&str, &str, &[u8]); 10] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../../../web/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../web/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/app.js"),
    ),
    (
        "net.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/net.js"),
    ),
    (
        "identity.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/identity.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/board.js"),
    ),
    (
        "games.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/games.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/lobby.js"),
    ),
    (
        "ratings.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/ratings.js"),
    ),
    (
        "blocking.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/blocking.js"),
    ),
];

/// The routes of the page: `/` is `index.html`, `/NAME` one of the [`ASSETS`].
pub fn routes() -> Router<WebDoor> {
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route(
            "/{name}",
            get(|Path(name): Path<String>| async move { asset(&name) }),
        )
}

/// The file named `name`, or 404.
fn asset(name: &str) -> Response {
    match ASSETS.iter().find(|(file, _, _)| *file == name) {
        Some((_, content_type, bytes)) => (
            [
                (header::CONTENT_TYPE, *content_type),
                // The page changes with the server: a browser asks again rather than mixing
                // files of two versions.
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file; the page is at /").into_response(),
    }
}
