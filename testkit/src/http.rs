//! A plain HTTP/1.1 request to the web door over TLS (or to the metrics door without it), as
//! raw as a test wants it: the status line and headers as text, and the body.

use crate::link::{Wire, dial};
use std::fmt::Display;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An HTTP/1.1 GET of `path` over HTTPS to `addr`: the status line with the headers, and the
/// body.
///
/// # Panics
/// When the server cannot be reached or its answer is not HTTP.
pub async fn get(addr: impl Display, path: &str) -> (String, String) {
    get_over(addr, path, Wire::Tls).await
}

/// An HTTP/1.1 GET of `path` to `addr` over `wire` (HTTP without TLS: [`Wire::Plaintext`]):
/// the status line with the headers, and the body.
///
/// # Panics
/// When the server cannot be reached or its answer is not HTTP.
pub async fn get_over(addr: impl Display, path: &str, wire: Wire) -> (String, String) {
    let mut stream = dial(&addr, wire).await.stream;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("the request is sent");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .expect("the answer is read");
    let (head, body) = response
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("not an HTTP answer: {response:?}"));
    (head.to_owned(), body.to_owned())
}
