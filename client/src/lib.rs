//! kingme-client: the terminal client of kingme as a library, so its state machine, drawing and
//! plain mode can be tested without a terminal; `main.rs` is the thin binary, and the engine
//! tools (`tools/`: perft, analyze, match, ladder, egdb, book) are modules of the binary.
//!
//! Folders, lower ones first:
//! - [`local`]: the files in the config and data directories (paths, private files, name
//!   secrets, resume tokens, settings, known servers, endgame files); [`identity`]: the key
//!   pairs and names this machine plays under.
//! - [`net`]: the connection (dialling and TLS trust, the hello, reconnection, the cluster's
//!   node list, the embedded server, `kingme trust`), with [`net::event`] the one `Event` enum.
//! - [`game`]: one game as the client holds it: the table, the `Intent` a key, click or line
//!   means (resolved the same way for the TUI and plain mode), piece selection, animation,
//!   board geometry, move lists, review and results in words.
//! - The modes: [`tui`] the full-screen client (app state and `update`, drawing, the key
//!   table, the terminal, dialogs and widgets), [`plain`] the line mode, [`bot`] `kingme bot`,
//!   [`archive`] the commands on stored games (history, leaderboard, export, import, replay),
//!   [`admin`] `kingme admin` (a server's admin moderating it).
//! - [`launch`]: the command line, which picks a mode, and the quiet end of a broken pipe.
//!   [`fuzzing`]: the client's fuzz target bodies.

// What no other crate can reach is `pub(crate)`, so `pub` marks the library's real surface.
#![warn(unreachable_pub)]

pub mod admin;
pub mod archive;
pub mod bot;
pub mod fuzzing;
pub mod game;
pub mod identity;
pub mod launch;
pub mod local;
pub mod net;
pub mod plain;
pub mod tui;
