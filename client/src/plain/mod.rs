//! Plain line mode: the board as text after every move, the legal moves numbered, and a prompt
//! that takes a number, a move's text, `resign`, `draw` or `quit`. Bad input gets a clear
//! message and the prompt again, never a crash. It makes kingme usable from scripts, screen
//! readers and tests, and is chosen automatically when standard input or output is not a
//! terminal.
//!
//! Input lines are read only while the prompt is up (on the player's turn, or in the lobby or
//! while watching), so a script can write all its moves at once and each is taken in turn.
//! [`stdin`] reads the lines (a line that is not UTF-8 text is refused, not the end),
//! [`command`] reads a line, [`session`] is the state machine (no I/O of its own), and
//! [`board_text()`] draws the board; [`run`] joins them to standard input and output.

pub(crate) mod board_text;
pub(crate) mod command;
mod news;
pub(crate) mod session;
pub(crate) mod stdin;

pub use board_text::board_text;
pub use command::{Command, parse_line};
pub use session::{Phase, Session, Step};
pub use stdin::Input;

use crate::net::Net;
use crate::net::event::Event;
use kingme_shared::protocol::{GameId, GameOptions};
use tokio::sync::mpsc;

/// What to do once connected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Show the lobby and take commands.
    Lobby,
    /// Create this game and play it.
    Create(Box<GameOptions>),
    /// Watch a game.
    Watch(GameId),
}

/// Runs plain mode until the game (or the lobby session) ends; returns whether it ended well.
pub async fn run(
    net: Net,
    mut events: mpsc::Receiver<Event>,
    start: Start,
    colour: bool,
) -> anyhow::Result<bool> {
    let mut lines = stdin::lines(std::io::BufReader::new(std::io::stdin()));
    let mut stdin_open = true;
    let mut session = Session::new(start, colour, std::io::stdout());
    loop {
        let reading = session.wants_input();
        tokio::select! {
            event = events.recv() => {
                let Some(event) = event else { break };
                let (send, done) = session.event(event);
                for message in send {
                    let _ = net.outgoing.send(message).await;
                }
                if done {
                    break;
                }
            }
            line = lines.recv(), if reading && stdin_open => {
                let (send, done) = match line {
                    Some(Input::Line(line)) => session.line(&line),
                    Some(bad) => session.bad_line(&bad),
                    None => {
                        stdin_open = false;
                        session.end_of_input()
                    }
                };
                for message in send {
                    let _ = net.outgoing.send(message).await;
                }
                if done {
                    break;
                }
            }
        }
        session.flush();
        if session.output_lost() {
            // Nobody reads what is said any more (`kingme --plain ... | head`): end quietly.
            break;
        }
    }
    session.flush();
    net.close().await;
    Ok(session.is_ok())
}
