//! How the floor's connections are carried: plaintext TCP, or TLS as kingme-server speaks it by
//! default, so the floor of a TLS server is measured with TLS too (issue 34). The relay presents
//! a self-signed certificate made and configured by kingme-server's own code
//! ([`kingme_server::host::self_signed_acceptor`]);
//! the players dial it with the terminal client's own code ([`kingme_client::net::dial`],
//! trusting the certificate on first use for the run), as `kingme-load` dials kingme-server.

use super::FloorError;
use kingme_client::net::dial::{self, Security};
use std::net::SocketAddr;
use tokio::io::{AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio_rustls::TlsAcceptor;
use tokio_util::either::Either;

/// Plaintext or TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wire {
    /// Plain TCP, as the earlier floor figures were measured.
    #[default]
    Plaintext,
    /// TLS, as kingme-server by default.
    Tls,
}

/// A connection the relay accepted: TLS over TCP, or TCP.
pub type RelayStream = Either<tokio_rustls::server::TlsStream<TcpStream>, TcpStream>;

/// A player's reading half.
pub type PlayerRead = Either<ReadHalf<tokio_rustls::client::TlsStream<TcpStream>>, OwnedReadHalf>;

/// A player's writing half.
pub type PlayerWrite =
    Either<WriteHalf<tokio_rustls::client::TlsStream<TcpStream>>, OwnedWriteHalf>;

/// The relay's TLS: a fresh self-signed certificate presented to every connection, configured
/// by kingme-server's own code.
///
/// # Errors
/// When the certificate cannot be made.
pub fn acceptor() -> Result<TlsAcceptor, FloorError> {
    kingme_server::host::self_signed_acceptor().map_err(|err| FloorError::Tls(err.to_string()))
}

/// Takes an accepted connection through the relay's TLS handshake, if it has TLS.
///
/// # Errors
/// When the handshake fails.
pub async fn accept(
    stream: TcpStream,
    tls: Option<&TlsAcceptor>,
) -> Result<RelayStream, FloorError> {
    stream.set_nodelay(true)?;
    Ok(match tls {
        Some(acceptor) => Either::Left(acceptor.accept(stream).await?),
        None => Either::Right(stream),
    })
}

/// Connects a player to the relay at `addr` over `wire`, split into its halves.
///
/// # Errors
/// When the relay cannot be reached or its handshake fails.
pub async fn connect(
    addr: SocketAddr,
    wire: Wire,
) -> Result<(PlayerRead, PlayerWrite), FloorError> {
    let security = match wire {
        Wire::Plaintext => Security::Plaintext { sign_in: false },
        Wire::Tls => Security::Tls {
            known_servers: None,
        },
    };
    let dialed = dial::dial(&addr.to_string(), &security)
        .await
        .map_err(|err| FloorError::Tls(err.to_string()))?;
    Ok(match dialed.stream {
        Either::Left(tls) => {
            let (read, write) = tokio::io::split(tls);
            (Either::Left(read), Either::Left(write))
        }
        Either::Right(tcp) => {
            let (read, write) = tcp.into_split();
            (Either::Right(read), Either::Right(write))
        }
    })
}

/// Sends `bytes` on a player's connection and flushes them (TLS records leave the session's
/// buffer).
///
/// # Errors
/// When the connection fails.
pub async fn send(writer: &mut PlayerWrite, bytes: &[u8]) -> Result<(), FloorError> {
    writer.write_all(bytes).await?;
    writer.flush().await?;
    Ok(())
}
