//! For tests and benchmarks only (feature `test-support`): the storage layer and the judge,
//! reached directly, below the protocol. The storage conformance suite every store passes, the
//! store that fails its commits on demand (a full disk), and what the hot-path benchmark times.

pub use crate::game::judge::Judge;
pub use crate::net::tls::accept as accept_tls;
pub use crate::options::{GameSetup, OptionsError, validate as validate_options};
#[cfg(feature = "postgres")]
pub use crate::storage::PgStore;
pub use crate::storage::conformance;
pub use crate::storage::schema::CURRENT_VERSION;
pub use crate::storage::store::Store;
pub use crate::storage::{
    Durability, Faults, FaultyStore, NewGame, Participant, SqliteStore, Storage, StoreError,
    StoredMove, backup,
};
