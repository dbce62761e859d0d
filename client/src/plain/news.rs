//! How plain mode follows the server: the lobby's list, a game's state and moves, the player's
//! turn, errors and the end of a game, each written as lines, and the [`Phase`] moved on.

use super::Start;
use super::session::{Phase, Session, Step};
use crate::game::move_list::MoveList;
use crate::game::ratings::Ratings;
use crate::game::table::{Table, clock_text, seat_text, time_control_text};
use crate::game::words::result_sentence;
use kingme_shared::Side;
use kingme_shared::protocol::{
    ClientMessage, ErrorKind, GameState, GameStatus, GameSummary, ServerMessage,
};
use std::io::Write;
use std::time::{Duration, Instant};

impl<W: Write> Session<W> {
    /// Handles a message of the server.
    pub(super) fn server(&mut self, message: ServerMessage) -> Step {
        let now = Instant::now();
        let answers = matches!(
            message,
            ServerMessage::GameList { .. }
                | ServerMessage::State(_)
                | ServerMessage::Error { .. }
                | ServerMessage::YourTurn { .. }
                | ServerMessage::Left { .. }
        );
        if answers && self.phase == Phase::Waiting {
            self.phase = Phase::Idle;
        }
        match &message {
            ServerMessage::Welcome { games, .. } => {
                self.in_progress = games.clone();
                Self::go_on()
            }
            ServerMessage::State(state)
                if self.in_progress.contains(&state.id)
                    && self
                        .table
                        .as_ref()
                        .is_some_and(|t| t.id > state.id && self.in_progress.contains(&t.id)) =>
            {
                // Several games in progress: the most recent one is played here.
                Self::go_on()
            }
            ServerMessage::State(state)
                if matches!(state.status, GameStatus::Over(_))
                    && self.table.as_ref().is_some_and(|t| t.id != state.id) =>
            {
                // A finished game sent again (its player came back while it waits for a
                // rematch) does not take the place of the game being played, whichever
                // arrives first.
                Self::go_on()
            }
            ServerMessage::GameList { games } => {
                self.list(games);
                Self::go_on()
            }
            ServerMessage::State(state) => self.state(state, now),
            ServerMessage::YourTurn {
                game, legal_moves, ..
            } => {
                let Some(table) = self.table.as_mut().filter(|t| t.id == *game) else {
                    return Self::go_on();
                };
                table.apply(&message, now);
                let line = MoveList::new(&table.game, legal_moves).line();
                // The first move's own deadline, as the screen shows it: the clock starts after.
                let deadline = table
                    .first_move_deadline(now)
                    .map(|(_, left)| format!("first move within {}", clock_text(left)));
                self.legal = legal_moves.clone();
                self.say(&line);
                if let Some(deadline) = deadline {
                    self.say(&deadline);
                }
                self.phase = Phase::YourMove;
                self.prompt();
                Self::go_on()
            }
            ServerMessage::Error {
                message,
                fatal,
                kind,
            } => {
                self.say(&format!("error: {message}"));
                self.refused = true;
                if *kind == ErrorKind::NoSuchGame && self.table.is_none() {
                    self.say("type list to see the games, then join ID or watch ID");
                }
                if self.table.is_none() && matches!(self.start, Start::Create(_)) || *fatal {
                    return self.end(false, Vec::new());
                }
                if self.wants_input() {
                    self.prompt();
                }
                Self::go_on()
            }
            ServerMessage::Announcement { from, text } => {
                self.say(&format!("announcement from {from}: {text}"));
                Self::go_on()
            }
            ServerMessage::ShuttingDown { message } => {
                // The game is kept: the connection comes back to it once the server is back.
                self.say(&format!(
                    "the server is shutting down: {message}; reconnecting when it is back"
                ));
                Self::go_on()
            }
            ServerMessage::Left { .. } => {
                self.table = None;
                self.stop_asking();
                if !matches!(self.start, Start::Lobby) {
                    return self.end(true, Vec::new());
                }
                self.prompt();
                Self::go_on()
            }
            _ => self.game_news(&message, now),
        }
    }

    /// The lobby's list of games, one line each.
    fn list(&mut self, games: &[GameSummary]) {
        if games.is_empty() {
            self.say("no games yet");
        }
        for game in games {
            let status = match game.status {
                GameStatus::Open => "open seat".to_owned(),
                GameStatus::Playing => "playing".to_owned(),
                GameStatus::Over(result) => result_sentence(game.spec.kind(), result),
            };
            self.say(&format!(
                "{:>4}  {:<10} {} vs {}  {}  {}  {status}",
                game.id,
                game.spec.name(),
                seat_text(
                    game.spec.kind(),
                    &game.status,
                    &game.seats[0],
                    Duration::ZERO,
                    &Ratings::default()
                ),
                seat_text(
                    game.spec.kind(),
                    &game.status,
                    &game.seats[1],
                    Duration::ZERO,
                    &Ratings::default()
                ),
                time_control_text(game.time_control),
                crate::game::words::count(game.moves as usize, "ply", "plies")
            ));
        }
        if self.table.is_none() {
            self.prompt();
        }
    }

    /// A game's whole state: who plays whom, and the board.
    fn state(&mut self, state: &GameState, now: Instant) -> Step {
        let table = match Table::from_state(state, now) {
            Ok(table) => table,
            Err(err) => {
                self.say(&format!("error: {err}"));
                return self.end(false, Vec::new());
            }
        };
        let you = match table.your_side {
            Some(side) => format!("you play {}", table.game.side_name(side)),
            None => "you are watching".to_owned(),
        };
        let players = format!(
            "{} {} vs {} {}",
            table.game.side_name(Side::First),
            table.seat_text(Side::First, now, &Ratings::default()),
            table.game.side_name(Side::Second),
            table.seat_text(Side::Second, now, &Ratings::default())
        );
        self.say(&format!(
            "game {}: {}, {players}, {}; {you}",
            state.id,
            state.spec,
            time_control_text(state.time_control)
        ));
        self.table = Some(table);
        self.show_board();
        if self.is_watching() {
            self.prompt();
        }
        Self::go_on()
    }

    /// News of the game followed: a move, a refusal, an offer, the end.
    fn game_news(&mut self, message: &ServerMessage, now: Instant) -> Step {
        let Some(table) = self
            .table
            .as_mut()
            .filter(|t| Some(t.id) == crate::game::game_of(message))
        else {
            return Self::go_on();
        };
        if let Some(line) = table.apply(message, now) {
            self.say(&line);
        }
        match message {
            ServerMessage::MovePlayed { .. } => {
                self.show_board();
                if self.is_watching() {
                    self.prompt();
                }
            }
            ServerMessage::MoveRejected { .. } => {
                self.phase = Phase::YourMove;
                self.prompt();
            }
            ServerMessage::GameOver { .. } => {
                self.stop_asking();
                if !matches!(self.start, Start::Lobby) {
                    return self.end(true, Vec::new());
                }
                if let Some(table) = self.table.take() {
                    self.prompt();
                    return (vec![ClientMessage::Leave { game: table.id }], false);
                }
            }
            _ => {}
        }
        Self::go_on()
    }
}
