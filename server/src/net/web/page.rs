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
pub const ASSETS: [(&str, &str, &[u8]); 11] = [
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
    (
        "review.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../web/review.js"),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour `--name` has in the page's style sheet, as red, green and blue.
    fn colour(name: &str) -> [u8; 3] {
        let css = std::str::from_utf8(ASSETS[1].2).unwrap();
        let value = css
            .lines()
            .find_map(|line| line.trim().strip_prefix(&format!("--{name}:")))
            .unwrap_or_else(|| panic!("style.css sets --{name}"));
        let hex = value.trim().trim_start_matches('#');
        [0, 2, 4].map(|at| u8::from_str_radix(&hex[at..at + 2], 16).unwrap())
    }

    fn contrast(a: &str, b: &str) -> f64 {
        kingme_testkit::contrast::contrast_ratio(colour(a), colour(b))
    }

    #[test]
    fn the_review_boards_best_move_stands_out_on_every_square_and_its_casing() {
        // WCAG's 3:1 for graphics, on whatever the mark is drawn over: checkers' dark squares,
        // noughts and crosses' light ones, Pente's wood, and its own light casing over pieces.
        for under in ["dark-square", "light-square", "wood", "second", "paper"] {
            let ratio = contrast("best", under);
            assert!(ratio >= 3.0, "--best on --{under}: {ratio:.2}:1");
        }
        assert_eq!(ASSETS[1].0, "style.css");
    }
}
