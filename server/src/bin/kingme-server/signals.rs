//! The signals `kingme-server` answers: SIGHUP reads the certificate files and the
//! configuration file's live settings (the admins and the limits, `LIVE_KEYS`) again; Ctrl-C
//! and SIGTERM stop it gracefully.

use crate::Args;
use clap::ArgMatches;
use kingme_server::host::{Admins, ConfigFile, LIVE_KEYS, LiveLimits, ServerTls};
use std::sync::Arc;

/// What SIGHUP reads again besides the certificate: the configuration file's live settings.
pub(crate) struct LiveSettings {
    /// The command line alone (its `--config` names the file)...
    pub(crate) flags: Args,
    /// ...and which flags it gave: those override the file, at a reload as at the start.
    pub(crate) matches: ArgMatches,
    /// The settings the server started with, to tell which changes take a restart.
    pub(crate) started: ConfigFile,
    /// The admins in force.
    pub(crate) admins: Arc<Admins>,
    /// The limits in force.
    pub(crate) limits: Arc<LiveLimits>,
}

impl LiveSettings {
    /// Reads the configuration file again and puts its live settings in force, logging what
    /// changed and which other changes wait for a restart; a file that does not read is logged
    /// and the settings in force kept.
    async fn reload(&self) {
        if self.flags.config.is_none() {
            return;
        }
        let (flags, matches) = (self.flags.clone(), self.matches.clone());
        let read = tokio::task::spawn_blocking(move || flags.with_file(&matches)).await;
        let args = match read {
            Ok(Ok(args)) => args,
            Ok(Err(err)) => {
                return tracing::error!(
                    err = format!("{err:#}"),
                    "SIGHUP: configuration not re-read; the settings in force stay"
                );
            }
            Err(err) => return tracing::error!(%err, "SIGHUP: the configuration's reload failed"),
        };
        let count = self.admins.replace(args.admins.clone());
        tracing::info!(
            admins = count,
            "SIGHUP: configuration re-read; admins replaced"
        );
        let changes = self.limits.replace(args.limits());
        if changes.is_empty() {
            tracing::info!("SIGHUP: the limits are unchanged");
        } else {
            let changed: Vec<String> = changes.iter().map(ToString::to_string).collect();
            tracing::info!(
                changed = changed.join(", "),
                "SIGHUP: limits changed, for new and open connections"
            );
        }
        let restart: Vec<String> = match args.effective() {
            Ok(now) => now
                .keys_differing(&self.started)
                .into_iter()
                .filter(|key| !LIVE_KEYS.contains(&key.as_str()))
                .collect(),
            Err(_) => Vec::new(),
        };
        if !restart.is_empty() {
            tracing::warn!(
                keys = restart.join(", "),
                "SIGHUP: these settings changed in the file but take effect only at a restart"
            );
        }
    }
}

/// Reads the certificate files again on every SIGHUP (a renewed certificate), for the
/// connections made from then on, and the configuration file's live settings (the admins and
/// the limits); a bad file is logged and what is in use kept.
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
