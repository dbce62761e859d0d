//! Everything the server remembers: games from creation to result, accepted moves with their
//! clocks, identities, resume tokens and ratings.
//!
//! Files: `store` (the [`Store`] trait, the seam between the server and its database), `sqlite`
//! (the SQLite implementation), `checkpointer` (its log copied back into the file beside the
//! writer, not in its commits), `schema` (its schema and forward-only migrations), `postgres` and
//! `postgres_schema` (the PostgreSQL implementation and the same migrations in its dialect),
//! `postgres_error` (its errors in words), `conformance` (the suite every implementation passes),
//! `records` (the stored values and their codes), `game_row` (a stored game's columns, decoded
//! once for both stores), `worker` (the storage worker and its async handle [`Storage`]),
//! `ratings` (Elo) and `rating_update` (a result applied to them), `identity` (names bound to
//! public keys), `durability` (what a commit survives), `fence` (fencing tokens: only a game's latest lease holder writes it), `location` (the default database path), `faulty` (a store that fails on demand,
//! for tests of the failure paths), `file_identity` (the database file must stay the one opened;
//! the seal that tells it at start), `stranded_log` (a write-ahead log is replayed only into its
//! own file), `integrity` (a damaged file is refused at start), `backup` (online backups and safe
//! restores of a database file).

pub mod backup;
pub mod checkpointer;
pub mod conformance;
pub mod durability;
pub mod faulty;
pub mod fence;
pub mod file_identity;
pub mod game_row;
pub mod identity;
pub mod integrity;
pub mod location;
pub mod postgres;
pub mod postgres_error;
pub mod postgres_schema;
pub mod rating_update;
pub mod ratings;
pub mod records;
pub mod schema;
pub mod sqlite;
pub mod store;
pub mod stranded_log;
pub mod worker;

pub use durability::Durability;
pub use faulty::{Faults, FaultyStore};
pub use fence::Fence;
pub use identity::{Admission, Claim, IdentityError};
pub use postgres::PgStore;
pub use ratings::{Rated, Rating, RatingChange};
pub use records::{NewGame, Participant, StoredGame, StoredMove};
pub use sqlite::SqliteStore;
pub use store::StoredIdentity;
pub use store::{HistoryQuery, Store, StoreError};
pub use worker::Storage;
