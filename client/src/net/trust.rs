//! `kingme trust HOST:PORT`: accepts the certificate a server shows now, replacing the one
//! pinned for it in `known_servers` (after its host renewed or replaced it). It connects,
//! shows the old and the new fingerprint, and pins the new one; with `--fingerprint` only if it
//! is the one the host gave out of band.

use crate::local::known_servers::{self, KnownServers};
use crate::net::dial;
use anyhow::{Context, bail};

/// `kingme trust`'s arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct TrustArgs {
    /// The server, as you connect to it (`--server`): HOST:PORT.
    pub address: String,
    /// Pin only if the server shows this certificate (its SHA-256 fingerprint in hex, as
    /// `kingme-server` prints at start); compare it with what the host told you.
    #[arg(long, value_name = "HEX")]
    pub fingerprint: Option<String>,
}

/// Pins what the server shows now; returns what to tell the person.
///
/// # Errors
/// The server cannot be reached, shows another certificate than `--fingerprint`, or
/// `known_servers` cannot be read or written.
pub async fn run(args: &TrustArgs) -> anyhow::Result<String> {
    let path = known_servers::default_path()
        .context("this system has no config directory for known_servers")?;
    let Some(address) = known_servers::normal_address(&args.address) else {
        bail!("{:?} is not HOST:PORT", args.address);
    };
    let shown = dial::certificate_of(&address).await?;
    if let Some(expected) = &args.fingerprint {
        let expected = expected.replace(':', "").to_ascii_lowercase();
        if expected != shown.to_string() {
            bail!(
                "{address} shows the certificate {shown}, not {expected}: nothing was pinned; \
                 ask its host which is right"
            );
        }
    }
    let file = path.clone();
    let old = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let mut known = KnownServers::load(&file)?;
        let old = known.pin(&address);
        known.insert(&address, shown);
        known.save(&file)?;
        Ok(old)
    })
    .await??;
    Ok(match old {
        Some(old) if old == shown => {
            format!(
                "{} already trusted with certificate {shown}\n",
                args.address
            )
        }
        Some(old) => format!(
            "{} now trusted with certificate {shown} (was {old}), in {}\n",
            args.address,
            path.display()
        ),
        None => format!(
            "{} trusted with certificate {shown}, in {}\n",
            args.address,
            path.display()
        ),
    })
}
