//! Games in play (and a finished one read back from the archive, [`archive`]): the table task that owns one game ([`table`]) and the handle that reaches it
//! ([`table_handle`]), the referee of its rules and clocks ([`judge`], [`clock`]), the seats and
//! the bots in them ([`seat`], [`bot`]), the offers players make each other ([`offers`]), the
//! register of open tables ([`registry`]), the game ids reserved from the database
//! ([`game_ids`]), the seams to a cluster's leases ([`ownership`]), to members at other nodes
//! ([`remote`]) and to the node a lost game moved to ([`handover`]), and what a table is given
//! to work with ([`context`]); and the review board's analyses of finished games ([`analysis`]).
//!
//! This layer knows players only as sessions (`crate::players`) and never reaches up into the
//! lobby or the connections.

pub mod analysis;
pub mod archive;
pub mod bot;
pub mod clock;
pub mod context;
pub mod game_ids;
pub mod handover;
pub mod judge;
pub mod offers;
pub mod ownership;
pub mod registry;
pub mod remote;
pub mod seat;
pub mod table;
pub mod table_handle;

pub use context::{TableContext, TableTiming};
pub use registry::TableRegistry;
pub use table_handle::{TableCommand, TableHandle};
