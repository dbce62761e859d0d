//! The full-screen client, after ratatui's template: [`app`] holds the state and its `update`,
//! [`ui`] draws the state without changing it, [`keys`] is the one key table (dispatch, footer,
//! dialogs' key lines and help read it), [`terminal`] owns the terminal and its loop. The
//! dialogs and widgets: the create dialog ([`create_form`], with [`setup_board`] for placing
//! pieces), the first start's [`name_prompt`], the one-line [`text_field`] and the colour
//! [`theme`]s.

pub mod app;
pub mod create_form;
pub mod keys;
pub(crate) mod name_prompt;
pub(crate) mod setup_board;
pub(crate) mod terminal;
pub(crate) mod text_field;
pub(crate) mod theme;
pub mod ui;
