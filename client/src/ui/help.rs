//! The help overlay's rows come from the one key table, [`crate::keys::BINDINGS`]; README's key
//! table is checked against the same rows.

pub use crate::keys::help_rows;
