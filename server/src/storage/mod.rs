//! Everything the server remembers: games from creation to result, accepted moves with their
//! clocks, identities, resume tokens and ratings.
//!
//! Files: `store` (the [`Store`] trait, the seam between the server and its database), `sqlite`
//! (the SQLite implementation), `checkpointer` (its log copied back into the file beside the
//! writer, not in its commits), `schema` (its schema and forward-only migrations), `postgres` and
//! `postgres_schema` (the PostgreSQL implementation and the same migrations in its dialect),
//! `postgres_error` (its errors in words), all three behind the `postgres` feature, `database_url`
//! (which `--db` values are PostgreSQL URLs), `conformance` (the suite every implementation
//! passes; tests and the `test-support` feature),
//! `records` (the stored values and their codes), `game_row` (a stored game's columns, decoded
//! once for both stores), `worker` (the storage worker and its async handle [`Storage`]),
//! `ratings` (Elo) and `rating_update` (a result applied to them), `identity` (names bound to
//! public keys), `sanctions` (a ban or a mute on a name), `moderation` (an admin's action stored and logged, and
//! the admin log's codes),
//! `durability` (what a commit survives), `fence` (fencing tokens: only a game's latest lease holder writes it), `location` (the default database path), `faulty` (a store that fails on demand,
//! for tests of the failure paths; tests and `test-support` only), `file_identity` (the database file must stay the one opened;
//! the seal that tells it at start), `stranded_log` (a write-ahead log is replayed only into its
//! own file), `integrity` (a damaged file is refused at start), `backup` (online backups and safe
//! restores of a database file), `token_retention` (how long a guest's resume token is kept).

pub mod backup;
pub mod checkpointer;
#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
pub mod database_url;
pub mod durability;
#[cfg(any(test, feature = "test-support"))]
pub mod faulty;
pub mod fence;
pub mod file_identity;
pub mod game_row;
pub mod identity;
pub mod integrity;
pub mod location;
pub mod moderation;
#[cfg(feature = "postgres")]
pub mod postgres;
#[cfg(feature = "postgres")]
pub mod postgres_error;
#[cfg(feature = "postgres")]
pub mod postgres_schema;
pub mod rating_update;
pub mod ratings;
pub mod records;
pub mod sanctions;
pub mod schema;
pub mod sqlite;
pub mod store;
pub mod stranded_log;
pub mod token_retention;
pub mod worker;

pub use durability::Durability;
#[cfg(any(test, feature = "test-support"))]
pub use faulty::{Faults, FaultyStore};
pub use fence::Fence;
pub use identity::{Claim, IdentityError};
#[cfg(feature = "postgres")]
pub use postgres::PgStore;
pub use records::{NewGame, Participant, StoredGame, StoredMove};
pub use sqlite::SqliteStore;
pub use store::{HistoryQuery, StoreError};
pub use worker::Storage;
