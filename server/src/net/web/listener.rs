//! The HTTP door's listener: HTTPS (and so WSS) unless the server runs `--plaintext`. A task
//! accepts sockets and runs each TLS handshake in a task of its own, bounded in number and in
//! time, so one slow client never holds up another; finished connections reach axum through
//! a bounded channel, each with the [`WebPeer`] its WebSocket's proofs are checked against.

use crate::config::LiveLimits;
use crate::net::tls::{self, ServerTls};
use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use kingme_shared::identity::ChannelBinding;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc};
use tokio_rustls::server::TlsStream;
use tokio_util::either::Either;
use tokio_util::sync::CancellationToken;

/// TLS handshakes in progress at once on the HTTP door; more wait in the kernel's backlog.
const HANDSHAKES: usize = 256;
/// Connections handshaken and not yet taken by the HTTP server.
const READY: usize = 64;

/// A connection to the HTTP door: TLS, or a plain socket with `--plaintext`.
pub type WebIo = Either<TlsStream<TcpStream>, TcpStream>;

/// Who is at the other end of an HTTP connection: its address and what a proof made over a
/// WebSocket on it must sign.
#[derive(Debug, Clone, Copy)]
pub struct WebPeer {
    pub address: SocketAddr,
    pub binding: ChannelBinding,
}

impl Connected<IncomingStream<'_, WebListener>> for WebPeer {
    fn connect_info(stream: IncomingStream<'_, WebListener>) -> Self {
        *stream.remote_addr()
    }
}

/// The HTTP door's listener as axum takes it.
#[derive(Debug)]
pub struct WebListener {
    local: SocketAddr,
    ready: mpsc::Receiver<(WebIo, WebPeer)>,
}

impl WebListener {
    /// Accepts on `listener` until `stop` is cancelled, with `tls`'s certificate at the time of
    /// each connection, each handshake within the `live` handshake timeout at its start.
    ///
    /// # Errors
    /// The listener has no local address.
    pub fn start(
        listener: TcpListener,
        tls: Arc<ServerTls>,
        live: Arc<LiveLimits>,
        stop: CancellationToken,
    ) -> std::io::Result<WebListener> {
        let local = listener.local_addr()?;
        let (sender, ready) = mpsc::channel(READY);
        tokio::spawn(accept_loop(listener, tls, live, sender, stop));
        Ok(WebListener { local, ready })
    }
}

async fn accept_loop(
    listener: TcpListener,
    tls: Arc<ServerTls>,
    live: Arc<LiveLimits>,
    ready: mpsc::Sender<(WebIo, WebPeer)>,
    stop: CancellationToken,
) {
    let handshakes = Arc::new(Semaphore::new(HANDSHAKES));
    loop {
        let permit = tokio::select! {
            () = stop.cancelled() => return,
            permit = Arc::clone(&handshakes).acquire_owned() => permit,
        };
        let Ok(permit) = permit else { return };
        let accepted = tokio::select! {
            () = stop.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        let (stream, address) = match accepted {
            Ok(accepted) => accepted,
            Err(err) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!(%err, "the HTTP door's accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Some(certified) = tls.current() else {
            drop(permit);
            let peer = WebPeer {
                address,
                binding: tls.binding(None),
            };
            if ready.send((Either::Right(stream), peer)).await.is_err() {
                return;
            }
            continue;
        };
        let (ready, tls) = (ready.clone(), Arc::clone(&tls));
        let limit = live.current().handshake_timeout;
        tokio::spawn(async move {
            let handshake = tokio::time::timeout(limit, tls::accept(&certified, stream)).await;
            drop(permit);
            match handshake {
                Ok(Ok(stream)) => {
                    let peer = WebPeer {
                        address,
                        binding: tls.binding(Some(&certified)),
                    };
                    let _ = ready.send((Either::Left(stream), peer)).await;
                }
                Ok(Err(err)) => {
                    tracing::debug!(%address, %err, "an HTTPS handshake failed");
                }
                Err(_elapsed) => tracing::debug!(%address, "no HTTPS handshake in time"),
            }
        });
    }
}

impl Listener for WebListener {
    type Io = WebIo;
    type Addr = WebPeer;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(accepted) => accepted,
            // The door stopped accepting: the server is shutting down, which ends the
            // serving loop that waits here.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(WebPeer {
            address: self.local,
            binding: ChannelBinding::Unencrypted,
        })
    }
}
