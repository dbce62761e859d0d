//! What running a server takes, for the `kingme-server` binary and the load tools: opening the
//! database and TLS, serving both doors until a shutdown, the cluster's settings, and online
//! backups and safe restores of an SQLite file, and the configuration file. Everything
//! [`crate::embed`] offers is here too.

pub use crate::config::file::{ConfigFile, ConfigFileError, LogFormat, MAX_CONFIG_FILE_BYTES};
pub use crate::config::live::LIVE_KEYS;
pub use crate::config::{
    Admins, AnalysisLimits, BadFingerprint, ClusterSettings, Fingerprint, LimitChange, Limits,
    LiveLimits,
};
pub use crate::embed::*;
pub use crate::net::tls::{ServerTls, TlsError, self_signed_acceptor, self_signed_pem};
#[cfg(feature = "metrics")]
pub use crate::net::web::metrics::{MetricsError, install as install_metrics};
pub use crate::server::{
    Doors, ServeError, open_storage, open_tls, run, run_doors, run_with_storage,
};
pub use crate::storage::location::{IN_MEMORY, SERVER_DB_FILE};
pub use crate::storage::{Durability, Storage, StoreError, backup};
