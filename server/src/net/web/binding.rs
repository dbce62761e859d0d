//! `GET /binding`: the channel binding the web page signs into a person's proof (PROTOCOL.md,
//! "Identities"). Other clients compute the binding from the certificate they saw, and MUST NOT
//! take it from the server: a relay would tell them the binding of the server it passes their
//! proof to. A page cannot see its connection's certificate, so the server tells it; that is
//! safe for the page alone, because the page's key lives in its origin's storage (IndexedDB, not
//! extractable), where only pages of this origin, which this server serves over TLS with this
//! certificate, can use it. A page served by another server is another origin with other keys,
//! so no server can have the page sign for a connection to a different server.
//!
//! The answer is the binding of the certificate the server presents to new connections now (or
//! the proxy's, with `--proxy-cert`): the page's WebSocket is a connection of its own, opened
//! just before it asks, while the request may come over an older keep-alive connection whose
//! certificate was replaced since (SIGHUP).

use super::WebDoor;
use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use kingme_shared::identity::ChannelBinding;
use serde::Serialize;

/// The page's view of a [`ChannelBinding`]: its label in the proof message and its bytes in
/// lowercase hex (empty when unencrypted).
#[derive(Debug, PartialEq, Eq, Serialize)]
struct BindingView {
    label: &'static str,
    hex: String,
}

impl From<ChannelBinding> for BindingView {
    fn from(binding: ChannelBinding) -> BindingView {
        let hex = match binding {
            // Its Display is the certificate's fingerprint in lowercase hex.
            ChannelBinding::TlsServerEndPoint(_) => binding.to_string(),
            ChannelBinding::Unencrypted => String::new(),
        };
        BindingView {
            label: binding.label(),
            hex,
        }
    }
}

/// The route `/binding`.
pub fn routes() -> Router<WebDoor> {
    Router::new().route(
        "/binding",
        get(|State(door): State<WebDoor>| async move {
            let tls = &door.context.tls;
            let view = BindingView::from(tls.binding(tls.current().as_deref()));
            (
                [
                    (header::CONTENT_TYPE, "application/json"),
                    // A renewed certificate changes it.
                    (header::CACHE_CONTROL, "no-store"),
                ],
                serde_json::to_string(&view).unwrap_or_else(|_| "{}".to_owned()),
            )
                .into_response()
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binding_is_shown_as_its_label_and_hex() {
        let tls = BindingView::from(ChannelBinding::TlsServerEndPoint([0xcd; 32]));
        assert_eq!(tls.label, "tls-server-end-point");
        assert_eq!(tls.hex, "cd".repeat(32));
        assert_eq!(
            BindingView::from(ChannelBinding::Unencrypted),
            BindingView {
                label: "unencrypted",
                hex: String::new()
            }
        );
    }
}
