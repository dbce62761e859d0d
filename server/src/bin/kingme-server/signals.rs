//! The signals `kingme-server` answers: SIGHUP reads the certificate files and the
//! configuration file's live settings (the admins) again; Ctrl-C and SIGTERM stop it gracefully.

use kingme_server::host::{Admins, ConfigFile, ServerTls};
use std::path::PathBuf;
use std::sync::Arc;

/// What SIGHUP reads again besides the certificate: the configuration file's live settings.
pub(crate) struct LiveSettings {
    /// The configuration file (`--config`), if any.
    pub(crate) file: Option<PathBuf>,
    /// The admins in force, replaced by the file's `admins`...
    pub(crate) admins: Arc<Admins>,
    /// ...unless the command line named them (`--admin`), which overrides the file.
    pub(crate) admins_from_flags: bool,
}

impl LiveSettings {
    /// Reads the configuration file again and puts its live settings in force; a file that
    /// does not read is logged and the settings in force kept.
    async fn reload(&self) {
        let Some(path) = self.file.clone() else {
            return;
        };
        let read = tokio::task::spawn_blocking(move || ConfigFile::read(&path)).await;
        match read {
            Ok(Ok(_)) if self.admins_from_flags => tracing::info!(
                "SIGHUP: configuration re-read; the admins stay those of --admin, which override it"
            ),
            Ok(Ok(file)) => {
                let count = self.admins.replace(file.admins.unwrap_or_default());
                tracing::info!(
                    admins = count,
                    "SIGHUP: configuration re-read; admins replaced"
                );
            }
            Ok(Err(err)) => tracing::error!(
                %err,
                "SIGHUP: configuration not re-read; the settings in force stay"
            ),
            Err(err) => tracing::error!(%err, "SIGHUP: the configuration's reload failed"),
        }
    }
}

/// Reads the certificate files again on every SIGHUP (a renewed certificate), for the
/// connections made from then on, and the configuration file's live settings (the admins); a
/// bad file is logged and what is in use kept.
pub(crate) fn reload_on_hangup(tls: Arc<ServerTls>, live: LiveSettings) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = match signal(SignalKind::hangup()) {
            Ok(hangups) => hangups,
            Err(err) => return tracing::warn!(%err, "cannot listen for SIGHUP"),
        };
        tokio::spawn(async move {
            while hangups.recv().await.is_some() {
                let tls = Arc::clone(&tls);
                match tokio::task::spawn_blocking(move || tls.reload()).await {
                    Ok(Ok(Some(binding))) => tracing::info!(
                        fingerprint = %binding,
                        "SIGHUP: certificate reloaded; new connections get it"
                    ),
                    Ok(Ok(None)) => tracing::info!("SIGHUP: no TLS to reload (--plaintext)"),
                    Ok(Err(err)) => {
                        tracing::error!(%err, "SIGHUP: certificate not reloaded; the old one stays")
                    }
                    Err(err) => tracing::error!(%err, "SIGHUP: the reload failed"),
                }
                live.reload().await;
            }
        });
    }
    #[cfg(not(unix))]
    let _ = (tls, live);
}

/// Completes on Ctrl-C or, on Unix, SIGTERM.
pub(crate) async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
