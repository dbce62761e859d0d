//! The help overlay's rows come from the one key table, [`crate::tui::keys::BINDINGS`]; the key
//! table of docs/player-guide.md is checked against the same rows.

pub use crate::tui::keys::help_rows;
