//! What the client may start: a server inside its own process, on a loopback address, with its
//! database in the user's data directory (`kingme-local.db`, or `$KINGME_DATA_DIR`). The
//! client's seam to the server: it uses nothing else of this crate.

pub use crate::config::{Config, Database, TlsSettings, TlsSource};
pub use crate::server::ServerHandle;
pub use crate::storage::location::{DATA_DIR_VARIABLE, EMBEDDED_DB_FILE, default_db_path};
