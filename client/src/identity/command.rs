//! `kingme identity show | export NAME | import FILE`: see the name and key this machine plays
//! under, and move a key to another machine.

use super::store::{KeyStore, fingerprint};
use anyhow::Context;
use std::path::PathBuf;

/// `kingme identity`: the key pairs that are this machine's identities.
#[derive(Debug, Clone, clap::Args)]
pub struct IdentityArgs {
    /// What to do with the identity.
    #[command(subcommand)]
    pub command: IdentityCommand,
}

/// What to do with the identities.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum IdentityCommand {
    /// Print the name you play under, its key's fingerprint and where the key is kept.
    Show,
    /// Write NAME's key file (PKCS#8 PEM) to standard output or --output, to copy it to
    /// another machine. It is the private key: keep it private.
    Export {
        /// The name whose key to export.
        name: String,
        /// Write to this file (readable only by you) instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Take a key file exported on another machine; the name is --name or the file's name
    /// (ann.pem is ann's key).
    Import {
        /// The key file.
        file: PathBuf,
    },
}

fn store() -> anyhow::Result<KeyStore> {
    KeyStore::default_store().context(
        "there is no config directory (no home directory): set KINGME_CONFIG_DIR to a folder",
    )
}

/// Runs the command; `name` is the global `--name`. Returns what to print.
pub fn run(args: &IdentityArgs, name: Option<&str>) -> anyhow::Result<String> {
    run_in(&store()?, args, name, super::name::default_name)
}

/// Runs the command on the key files of `store`.
pub(crate) fn run_in(
    store: &KeyStore,
    args: &IdentityArgs,
    name: Option<&str>,
    default_name: impl FnOnce() -> Option<String>,
) -> anyhow::Result<String> {
    match &args.command {
        IdentityCommand::Show => {
            let mut text = String::new();
            let name = name.map(str::to_owned).or_else(default_name);
            match &name {
                Some(name) => match store.load(name)? {
                    Some(key) => text.push_str(&format!(
                        "name: {name}\nfingerprint: {}\nkey file: {}\n",
                        fingerprint(&key),
                        store.path(name).display()
                    )),
                    None => text.push_str(&format!(
                        "name: {name}\nno key yet: one is made the first time you play as {name} \
                         (kept in {})\n",
                        store.path(name).display()
                    )),
                },
                None => text.push_str(&format!("{}\n", super::name::NO_NAME)),
            }
            let others: Vec<_> = store
                .list()?
                .into_iter()
                .filter(|listed| Some(&listed.name) != name.as_ref())
                .collect();
            if !others.is_empty() {
                text.push_str("other identities on this machine:\n");
                for listed in others {
                    let fingerprint = listed.fingerprint.unwrap_or_else(|err| err);
                    text.push_str(&format!("  {}  {fingerprint}\n", listed.name));
                }
            }
            Ok(text)
        }
        IdentityCommand::Export { name, output } => {
            let pem = store.export(name)?;
            match output {
                None => Ok(pem),
                Some(path) => {
                    crate::local::private_file::write(path, pem.as_bytes())?;
                    Ok(format!(
                        "wrote {name}'s key to {}; on the other machine run: kingme identity import {}\n",
                        path.display(),
                        path.display()
                    ))
                }
            }
        }
        IdentityCommand::Import { file } => {
            let (name, new) = store.import(file, name)?;
            let key = store
                .load(&name)?
                .with_context(|| format!("the key of {name} was not kept"))?;
            Ok(if new {
                format!(
                    "imported the key of {name} (fingerprint {}); play with --name {name:?}\n",
                    fingerprint(&key)
                )
            } else {
                format!(
                    "this machine already has that key for {name} (fingerprint {})\n",
                    fingerprint(&key)
                )
            })
        }
    }
}
