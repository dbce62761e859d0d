//! kingme-client: the terminal client of kingme as a library, so its state machine, drawing and
//! plain mode can be tested without a terminal; `main.rs` is the thin binary.
//!
//! The TUI follows ratatui's template: [`app`] holds the state and its `update`, [`event`] is
//! the one enum of inputs, [`ui`] draws the state without changing it, [`tui`] owns the
//! terminal. Around them: [`board_geometry`] and [`selection`] (moving pieces with keys and
//! mouse), [`animation`], [`theme`], [`create_form`] and [`setup_board`] (the create dialog).

pub mod animation;
pub mod app;
pub mod board_geometry;
pub mod create_form;
pub mod event;
pub mod selection;
pub mod setup_board;
pub mod table;
pub mod theme;
pub mod ui;
