//! Plain mode's session: the game followed, the numbered moves, and where the conversation
//! stands ([`Phase`]: connecting, waiting for an answer, idle, or asking for the player's
//! move). It reads events and typed lines and writes to `out`, with no I/O of its own;
//! [`super::run`] joins it to standard input and output. How it follows the server's news is
//! in `news`.

use super::Start;
use super::board_text::board_text;
use super::command::{COMMANDS, Command, LOBBY_COMMANDS, QUIT_MID_GAME, parse_line};
use super::stdin::Input;
use crate::game::intent::{Intent, resolve};
use crate::game::table::Table;
use crate::net::event::{Event, LinkEvent};
use kingme_shared::Side;
use kingme_shared::protocol::{ClientMessage, GameId, GameStatus};
use std::io::Write;

/// Where the conversation with the person and the server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Not connected yet: the start (create, watch, lobby) waits for the connection.
    Connecting,
    /// A request was sent whose answer has not come yet: input waits for it, so a script's
    /// lines are taken one answer at a time.
    Waiting,
    /// Nothing is asked of the player: lines are read where that is always right (the lobby,
    /// watching).
    Idle,
    /// The player's move is asked for: the prompt is up.
    YourMove,
    /// Plain mode is done; `ok` says whether it ended well (a refused game or a lost server
    /// does not).
    Ended {
        /// Whether it ended well.
        ok: bool,
    },
}

/// The plain mode's state. It writes to `out`; [`super::run`] connects it to standard input
/// and output.
pub struct Session<W: Write> {
    pub(super) start: Start,
    pub(super) table: Option<Table>,
    /// The legal moves from the last `YourTurn`, numbered from 1.
    pub(super) legal: Vec<String>,
    pub(super) phase: Phase,
    pub(super) colour: bool,
    /// The unfinished games the player is seated in, from the server's welcome.
    pub(super) in_progress: Vec<GameId>,
    out: W,
    /// Whether standard input ended: nothing more will be typed.
    input_ended: bool,
    /// Whether the server refused something: the session then ends with failure.
    pub(super) refused: bool,
    /// Whether a write to `out` failed (its reader went away, as with `kingme --plain | head`):
    /// plain mode then ends rather than play on unseen.
    output_lost: bool,
}

/// What a step asks for: messages to send, and whether plain mode is done.
pub type Step = (Vec<ClientMessage>, bool);

impl<W: Write> Session<W> {
    /// A session that will do `start` once connected, writing to `out`.
    pub fn new(start: Start, colour: bool, out: W) -> Session<W> {
        Session {
            start,
            table: None,
            legal: Vec::new(),
            phase: Phase::Connecting,
            colour,
            in_progress: Vec::new(),
            out,
            input_ended: false,
            refused: false,
            output_lost: false,
        }
    }

    /// Where the session stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether an input line is wanted now.
    #[must_use]
    pub fn wants_input(&self) -> bool {
        match self.phase {
            Phase::YourMove => true,
            Phase::Idle => self.reads_anytime(),
            Phase::Connecting | Phase::Waiting | Phase::Ended { .. } => false,
        }
    }

    /// Whether everything went well so far (a refused game or a lost server is not).
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.phase != Phase::Ended { ok: false }
    }

    /// The output written so far.
    #[must_use]
    pub fn output(&self) -> &W {
        &self.out
    }

    /// Whether a write to the output failed (its reader went away): plain mode then ends.
    #[must_use]
    pub fn output_lost(&self) -> bool {
        self.output_lost
    }

    /// Writes to the output, noting a failure.
    fn write_out(&mut self, text: std::fmt::Arguments<'_>) {
        let written = self.out.write_fmt(text);
        self.output_lost |= written.is_err();
    }

    pub(super) fn say(&mut self, text: &str) {
        self.write_out(format_args!("{text}\n"));
    }

    pub(super) fn flush(&mut self) {
        let flushed = self.out.flush();
        self.output_lost |= flushed.is_err();
    }

    /// Nothing to send, and the session goes on.
    pub(super) fn go_on() -> Step {
        (Vec::new(), false)
    }

    /// Ends the session, sending `send` first.
    pub(super) fn end(&mut self, ok: bool, send: Vec<ClientMessage>) -> Step {
        self.phase = Phase::Ended { ok };
        (send, true)
    }

    /// The player's prompt is down (a move was sent, or the game ended).
    pub(super) fn stop_asking(&mut self) {
        if self.phase == Phase::YourMove {
            self.phase = Phase::Idle;
        }
    }

    pub(super) fn reads_anytime(&self) -> bool {
        match &self.start {
            Start::Lobby => self.table.is_none() || self.is_watching(),
            Start::Watch(_) => true,
            Start::Create(_) => false,
        }
    }

    pub(super) fn is_watching(&self) -> bool {
        self.table.as_ref().is_some_and(|t| t.your_side.is_none())
    }

    pub(super) fn prompt(&mut self) {
        let text = match (&self.start, &self.table) {
            (_, Some(table)) if table.your_side.is_some() => {
                "your move (or resign, draw, quit, help)> ".to_owned()
            }
            (_, Some(_)) => "watching (quit leaves)> ".to_owned(),
            _ => format!("lobby ({LOBBY_COMMANDS})> "),
        };
        self.write_out(format_args!("{text}"));
        self.flush();
    }

    /// Says `text` and shows the prompt again; nothing is sent.
    fn again(&mut self, text: &str) -> Step {
        self.say(text);
        self.prompt();
        Self::go_on()
    }

    pub(super) fn show_board(&mut self) {
        let Some(table) = &self.table else { return };
        let text = board_text(&table.game, table.flipped, self.colour);
        let mut lines = vec![text];
        for tally in table.game.tallies() {
            lines.push(format!(
                "{}: {} {} · {} {}",
                tally.label,
                table.game.side_name(Side::First),
                tally.counts[0],
                table.game.side_name(Side::Second),
                tally.counts[1]
            ));
        }
        match table.status {
            _ if table.game.outcome().is_some() => {}
            GameStatus::Playing => lines.push(format!(
                "{} to move",
                table.game.side_name(table.game.side_to_move())
            )),
            GameStatus::Open => lines.push("waiting for an opponent to join".to_owned()),
            GameStatus::Over(_) => {}
        }
        for line in lines {
            self.say(line.trim_end_matches('\n'));
        }
    }

    /// Handles an event of the connection. Once input has ended, the session ends as soon
    /// as it would wait for a line (a spectator follows its game to the end first).
    pub fn event(&mut self, event: Event) -> Step {
        let (mut send, done) = self.follow(event);
        if done || !self.input_ended || !self.wants_input() || self.follows_a_live_game() {
            return (send, done);
        }
        let (more, done) = self.end(!self.refused, Vec::new());
        send.extend(more);
        (send, done)
    }

    fn follow(&mut self, event: Event) -> Step {
        match event {
            Event::Link(LinkEvent::Connected { resumed: true }) => {
                self.say("reconnected");
                Self::go_on()
            }
            Event::Link(LinkEvent::Connected { resumed: false }) => self.connected(),
            Event::Link(
                link @ (LinkEvent::Lost { .. }
                | LinkEvent::Reseating { .. }
                | LinkEvent::Unseated { .. }
                | LinkEvent::Notice { .. }),
            ) => {
                self.say(&link.notice().unwrap_or_default());
                Self::go_on()
            }
            Event::Link(LinkEvent::Closed { reason }) => {
                self.say(&format!("disconnected: {reason}"));
                self.end(false, Vec::new())
            }
            Event::Server(message) => self.server(message),
            Event::Tick | Event::Terminal(_) => Self::go_on(),
        }
    }

    /// The first welcome: does what the session was started for.
    fn connected(&mut self) -> Step {
        if self.phase != Phase::Connecting {
            return Self::go_on();
        }
        self.phase = Phase::Waiting;
        if let Some(&game) = self.in_progress.iter().max()
            && !matches!(self.start, Start::Watch(_))
        {
            // Back after a restart: the game goes on where it was. `kingme play` says so
            // instead of creating another game.
            if matches!(self.start, Start::Create(_)) {
                self.say(&format!(
                    "game {game} is in progress: back to it (finish or resign it, then kingme \
                     play starts the new game)"
                ));
            } else {
                self.say(&format!("game {game} is in progress: back to it"));
            }
            return Self::go_on();
        }
        match self.start.clone() {
            Start::Create(options) => (vec![ClientMessage::CreateGame(*options)], false),
            Start::Watch(game) => (vec![ClientMessage::Watch { game }], false),
            Start::Lobby => {
                self.say("connected to the lobby");
                (vec![ClientMessage::ListGames], false)
            }
        }
    }

    /// Handles a line typed at the prompt.
    pub fn line(&mut self, line: &str) -> Step {
        let command = match parse_line(line) {
            Ok(command) => command,
            Err(err) => return self.again(&format!("error: {err}")),
        };
        let Some(table) = &self.table else {
            return self.lobby_line(command);
        };
        let playing = table.your_side.is_some() && table.result().is_none();
        let watching = table.your_side.is_none();
        match command {
            Command::Empty => {
                self.prompt();
                Self::go_on()
            }
            Command::Help => self.again(&format!("type {COMMANDS}")),
            Command::Quit if playing => {
                // Closing the client is not resigning: the seat waits for the player's return.
                self.say(QUIT_MID_GAME);
                self.end(true, Vec::new())
            }
            Command::Quit => {
                self.say("leaving the game");
                let send = self.game_request(Intent::Leave).into_iter().collect();
                self.end(true, send)
            }
            _ if watching => self.again("you are watching: only quit and help work here"),
            Command::List | Command::Join(_) | Command::Watch(_) => {
                self.again("finish or quit this game first")
            }
            Command::Number(_) | Command::Move(_) if self.phase != Phase::YourMove => {
                self.say("wait for your turn");
                Self::go_on()
            }
            command => {
                let Some(intent) = command.intent() else {
                    return self.again(&format!("type {COMMANDS}"));
                };
                let Some(message) = self.game_request(intent) else {
                    self.prompt();
                    return Self::go_on();
                };
                // A move or a resignation waits for the server; anything else asks again.
                if matches!(
                    message,
                    ClientMessage::Resign { .. } | ClientMessage::Move { .. }
                ) {
                    self.stop_asking();
                } else {
                    self.prompt();
                }
                (vec![message], false)
            }
        }
    }

    /// Resolves an intent about the game followed: the message to send, or `None` after saying
    /// why not. What was done is said, except for moves (the board follows at once).
    fn game_request(&mut self, intent: Intent) -> Option<ClientMessage> {
        let table = self.table.as_mut()?;
        let moving = matches!(intent, Intent::Move(_));
        match resolve(intent, table, &self.legal) {
            Ok(request) => {
                table.sent(&request.message);
                if let Some(note) = request.note.filter(|_| !moving) {
                    self.say(&note);
                }
                Some(request.message)
            }
            Err(err) => {
                self.say(&format!("error: {err}"));
                None
            }
        }
    }

    fn lobby_line(&mut self, command: Command) -> Step {
        let message = match command {
            Command::Quit => return self.end(true, Vec::new()),
            Command::List => ClientMessage::ListGames,
            Command::Join(game) => ClientMessage::Join { game },
            Command::Watch(game) => ClientMessage::Watch { game },
            Command::Empty => {
                self.prompt();
                return Self::go_on();
            }
            _ => return self.again(&format!("in the lobby type {LOBBY_COMMANDS}")),
        };
        self.phase = Phase::Waiting;
        (vec![message], false)
    }

    /// A line that could not be read: says why, and asks again.
    pub fn bad_line(&mut self, input: &Input) -> Step {
        let why = match input {
            Input::NotUtf8 => "that line is not UTF-8 text; type it again",
            Input::TooLong => "that line is too long to be a move or a command; type it again",
            Input::Line(_) => return Self::go_on(),
        };
        self.again(&format!("error: {why}"))
    }

    /// Standard input ended: a player leaves its game (which waits for its return), a
    /// spectator watches on to the end of the game, and anyone else is done; the session
    /// fails if the server refused something.
    pub fn end_of_input(&mut self) -> Step {
        self.input_ended = true;
        if self.follows_a_live_game() {
            self.say("end of input: watching on to the end of the game");
            return Self::go_on();
        }
        if self.table.as_ref().is_some_and(|t| t.result().is_none()) {
            self.say(&format!("end of input: {QUIT_MID_GAME}"));
        }
        self.end(!self.refused, Vec::new())
    }

    /// Whether a game still going on is watched.
    fn follows_a_live_game(&self) -> bool {
        self.is_watching() && self.table.as_ref().is_some_and(|t| t.result().is_none())
    }
}
