//! Plain line mode: the board as text after every move, the legal moves numbered, and a prompt
//! that takes a number, a move's text, `resign`, `draw` or `quit`. Bad input gets a clear
//! message and the prompt again, never a crash. It makes kingme usable from scripts, screen
//! readers and tests, and is chosen automatically when standard input or output is not a
//! terminal.
//!
//! Input lines are read only while the prompt is up (on the player's turn, or in the lobby or
//! while watching), so a script can write all its moves at once and each is taken in turn.

use crate::board_geometry::{BoardGeometry, Cell};
use crate::event::{Event, LinkEvent};
use crate::move_list::MoveList;
use crate::net::Net;
use crate::table::{Table, seat_text, time_control_text};
use crate::words::result_sentence;
use kingme_shared::board_view::Surface;
use kingme_shared::protocol::{
    ClientMessage, ErrorKind, GameId, GameOptions, GameStatus, MAX_MOVE_TEXT, ServerMessage,
};
use kingme_shared::{AnyGame, Side};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};
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

/// A line typed at the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Nothing typed.
    Empty,
    /// A number from the list of legal moves.
    Number(usize),
    /// A move's text.
    Move(String),
    Resign,
    Draw,
    Quit,
    Help,
    /// Lobby: show the games.
    List,
    /// Lobby: take the open seat of a game.
    Join(GameId),
    /// Lobby: watch a game.
    Watch(GameId),
}

/// The commands, for `help` and for errors.
pub const COMMANDS: &str =
    "a move's number, a move's text (like 11-15, K10 or 5), resign, draw, quit, help";
/// What quitting in the middle of a game says.
pub const QUIT_MID_GAME: &str = "quitting; the game waits for you: run kingme again within the \
                                 grace period to go on (resign gives it up)";
/// The lobby's commands.
pub const LOBBY_COMMANDS: &str = "list, join ID, watch ID, quit, help";

/// Reads one input line. Everything that is not a command is taken as a move's text, checked
/// against the position later.
pub fn parse_line(line: &str) -> Result<Command, String> {
    let text = line.trim();
    if text.len() > MAX_MOVE_TEXT {
        return Err(format!(
            "that line is {} characters long; a move is at most {MAX_MOVE_TEXT}",
            text.len()
        ));
    }
    let lower = text.to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next().unwrap_or("");
    let game_id = |word: Option<&str>| -> Result<GameId, String> {
        let word = word.ok_or_else(|| format!("{first} needs a game number, like {first} 3"))?;
        word.parse::<u64>()
            .map(GameId)
            .map_err(|_| format!("expected a game number after {first}, got {word:?}"))
    };
    let alone = |command: Command| -> Result<Command, String> {
        match words.clone().next() {
            None => Ok(command),
            Some(extra) => Err(format!(
                "{first} takes nothing after it, got {extra:?}; type just {first}"
            )),
        }
    };
    Ok(match first {
        "" => Command::Empty,
        "resign" => alone(Command::Resign)?,
        "draw" => alone(Command::Draw)?,
        "quit" | "exit" => alone(Command::Quit)?,
        "help" | "?" => alone(Command::Help)?,
        "list" => alone(Command::List)?,
        "join" => Command::Join(game_id(words.next())?),
        "watch" => Command::Watch(game_id(words.next())?),
        _ if text.bytes().all(|b| b.is_ascii_digit()) => match text.parse::<usize>() {
            Ok(number) => Command::Number(number),
            Err(_) => return Err(format!("{text} is not a move number")),
        },
        _ => Command::Move(text.to_owned()),
    })
}

/// Turns a command into the move text to send, checked against the legal moves.
pub fn resolve_move(command: &Command, game: &AnyGame, legal: &[String]) -> Result<String, String> {
    let list = MoveList::new(game, legal);
    match command {
        Command::Number(number) => list.choose(game, &number.to_string()),
        Command::Move(text) => list.choose(game, text),
        _ => Err(format!("expected {COMMANDS}")),
    }
}

/// The board as text: coordinates around it, one character per square (`.` an empty square
/// or point, a blank for a light square), pieces by letter (see
/// [`kingme_shared::board_view::BoardPiece::letter`]); with `colour` the sides are coloured too.
#[must_use]
pub fn board_text(game: &AnyGame, flipped: bool, colour: bool) -> String {
    let geometry = BoardGeometry::new(game.kind(), flipped);
    let columns = geometry.column_labels();
    let rows = geometry.row_labels();
    let mut text = String::new();
    let header: String = columns.iter().map(|c| format!("{c:<2}")).collect();
    text.push_str(&format!("    {}\n", header.trim_end()));
    for (row, label) in rows.iter().enumerate() {
        let mut line = format!("{label:>2}  ");
        for column in 0..columns.len() {
            let cell = Cell {
                row: row as u8,
                column: column as u8,
            };
            let symbol = match geometry.square_at(cell) {
                None => " ".to_owned(),
                Some(square) => match game.piece_on(square) {
                    None => match geometry.layout.surface {
                        Surface::Intersections | Surface::Squares { .. } => ".".to_owned(),
                    },
                    Some(piece) => {
                        let letter = piece.letter();
                        match (colour, piece.side) {
                            (false, _) => letter.to_string(),
                            (true, Side::First) => format!("\x1b[1;31m{letter}\x1b[0m"),
                            (true, Side::Second) => format!("\x1b[1;36m{letter}\x1b[0m"),
                        }
                    }
                },
            };
            line.push_str(&symbol);
            line.push(' ');
        }
        // Not trimmed: light squares at the end of a row keep the right-hand labels aligned.
        text.push_str(&line);
        text.push_str(&format!(" {label}\n"));
    }
    text.push_str(&format!("    {}\n", header.trim_end()));
    text
}

/// Runs plain mode until the game (or the lobby session) ends; returns whether it ended well.
pub async fn run(
    net: Net,
    mut events: mpsc::Receiver<Event>,
    start: Start,
    colour: bool,
) -> anyhow::Result<bool> {
    let mut lines = stdin_lines();
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
                    Some(line) => session.line(&line),
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
    }
    session.flush();
    net.close().await;
    Ok(session.is_ok())
}

/// Reads standard input line by line on a thread (reading a terminal blocks).
fn stdin_lines() -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel(16);
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if sender.blocking_send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// The plain mode's state: the game followed, the numbered moves and whether the prompt is up.
/// It writes to `out`; [`run`] connects it to standard input and output.
pub struct Session<W: Write> {
    start: Start,
    table: Option<Table>,
    /// The legal moves from the last `YourTurn`, numbered from 1.
    legal: Vec<String>,
    prompting: bool,
    colour: bool,
    started: bool,
    /// A request was sent whose answer has not come yet: input waits for it, so a script's
    /// lines are taken one answer at a time.
    waiting: bool,
    ok: bool,
    /// The unfinished games the player is seated in, from the server's welcome.
    in_progress: Vec<GameId>,
    out: W,
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
            prompting: false,
            colour,
            started: false,
            waiting: true,
            ok: true,
            in_progress: Vec::new(),
            out,
        }
    }

    /// Whether an input line is wanted now.
    #[must_use]
    pub fn wants_input(&self) -> bool {
        !self.waiting && (self.prompting || self.reads_anytime())
    }

    /// Whether everything went well so far (a refused game or a lost server is not).
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.ok
    }

    /// The output written so far.
    #[must_use]
    pub fn output(&self) -> &W {
        &self.out
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn flush(&mut self) {
        let _ = self.out.flush();
    }

    fn reads_anytime(&self) -> bool {
        match &self.start {
            Start::Lobby => self.table.is_none() || self.is_watching(),
            Start::Watch(_) => true,
            Start::Create(_) => false,
        }
    }

    fn is_watching(&self) -> bool {
        self.table.as_ref().is_some_and(|t| t.your_side.is_none())
    }

    fn prompt(&mut self) {
        let text = match (&self.start, &self.table) {
            (_, Some(table)) if table.your_side.is_some() => {
                "your move (or resign, draw, quit, help)> ".to_owned()
            }
            (_, Some(_)) => "watching (quit leaves)> ".to_owned(),
            _ => format!("lobby ({LOBBY_COMMANDS})> "),
        };
        let _ = write!(self.out, "{text}");
        self.flush();
    }

    fn show_board(&mut self) {
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

    /// Handles an event of the connection.
    pub fn event(&mut self, event: Event) -> Step {
        match event {
            Event::Link(LinkEvent::Connected { resumed }) => {
                if resumed {
                    self.say("reconnected");
                    return (Vec::new(), false);
                }
                if self.started {
                    return (Vec::new(), false);
                }
                self.started = true;
                if let Some(&game) = self.in_progress.iter().max()
                    && !matches!(self.start, Start::Watch(_))
                {
                    // Back after a restart: the game goes on where it was. `kingme play` says
                    // so instead of creating another game.
                    if matches!(self.start, Start::Create(_)) {
                        self.say(&format!(
                            "game {game} is in progress: back to it (finish or resign it, then \
                             kingme play starts the new game)"
                        ));
                    } else {
                        self.say(&format!("game {game} is in progress: back to it"));
                    }
                    return (Vec::new(), false);
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
            Event::Link(LinkEvent::Lost {
                reason,
                retry_in_secs,
            }) => {
                self.say(&format!(
                    "connection lost ({reason}); reconnecting in {retry_in_secs} s"
                ));
                (Vec::new(), false)
            }
            Event::Link(LinkEvent::Closed { reason }) => {
                self.say(&format!("disconnected: {reason}"));
                self.ok = false;
                (Vec::new(), true)
            }
            Event::Server(message) => self.server(message),
            Event::Tick | Event::Terminal(_) => (Vec::new(), false),
        }
    }

    fn server(&mut self, message: ServerMessage) -> Step {
        let now = Instant::now();
        if matches!(
            message,
            ServerMessage::GameList { .. }
                | ServerMessage::State(_)
                | ServerMessage::Error { .. }
                | ServerMessage::YourTurn { .. }
                | ServerMessage::Left { .. }
        ) {
            self.waiting = false;
        }
        match &message {
            ServerMessage::Welcome { games, .. } => {
                self.in_progress = games.clone();
                (Vec::new(), false)
            }
            ServerMessage::State(state)
                if self.in_progress.contains(&state.id)
                    && self
                        .table
                        .as_ref()
                        .is_some_and(|t| t.id > state.id && self.in_progress.contains(&t.id)) =>
            {
                // Several games in progress: the most recent one is played here.
                (Vec::new(), false)
            }
            ServerMessage::GameList { games } => {
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
                        seat_text(&game.seats[0], Duration::ZERO),
                        seat_text(&game.seats[1], Duration::ZERO),
                        time_control_text(game.time_control),
                        crate::words::count(game.moves as usize, "ply", "plies")
                    ));
                }
                if self.table.is_none() {
                    self.prompt();
                }
                (Vec::new(), false)
            }
            ServerMessage::State(state) => {
                match Table::from_state(state, now) {
                    Ok(table) => {
                        let you = match table.your_side {
                            Some(side) => format!("you play {}", table.game.side_name(side)),
                            None => "you are watching".to_owned(),
                        };
                        let players = format!(
                            "{} {} vs {} {}",
                            table.game.side_name(Side::First),
                            table.seat_text(Side::First, now),
                            table.game.side_name(Side::Second),
                            table.seat_text(Side::Second, now)
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
                    }
                    Err(err) => {
                        self.say(&format!("error: {err}"));
                        self.ok = false;
                        return (Vec::new(), true);
                    }
                }
                (Vec::new(), false)
            }
            ServerMessage::YourTurn {
                game, legal_moves, ..
            } => {
                if self.table.as_ref().is_none_or(|t| t.id != *game) {
                    return (Vec::new(), false);
                }
                if let Some(table) = self.table.as_mut() {
                    table.apply(&message, now);
                }
                self.legal = legal_moves.clone();
                if let Some(table) = &self.table {
                    let line = MoveList::new(&table.game, &self.legal).line();
                    self.say(&line);
                }
                self.prompting = true;
                self.prompt();
                (Vec::new(), false)
            }
            ServerMessage::Error {
                message,
                fatal,
                kind,
            } => {
                self.say(&format!("error: {message}"));
                if *kind == ErrorKind::NoSuchGame && self.table.is_none() {
                    self.say("type list to see the games, then join ID or watch ID");
                }
                if self.table.is_none() && matches!(self.start, Start::Create(_)) || *fatal {
                    self.ok = false;
                    return (Vec::new(), true);
                }
                if self.prompting || self.reads_anytime() {
                    self.prompt();
                }
                (Vec::new(), false)
            }
            ServerMessage::ShuttingDown { message } => {
                self.say(&format!("the server is shutting down: {message}"));
                (Vec::new(), self.table.is_some())
            }
            ServerMessage::Left { .. } => {
                let done = !matches!(self.start, Start::Lobby);
                self.table = None;
                self.prompting = false;
                if !done {
                    self.prompt();
                }
                (Vec::new(), done)
            }
            _ => {
                let Some(table) = self
                    .table
                    .as_mut()
                    .filter(|t| Some(t.id) == crate::app::game_of(&message))
                else {
                    return (Vec::new(), false);
                };
                let line = table.apply(&message, now);
                if let Some(line) = line {
                    self.say(&line);
                }
                match &message {
                    ServerMessage::MovePlayed { .. } => {
                        self.show_board();
                        if self.is_watching() {
                            self.prompt();
                        }
                    }
                    ServerMessage::MoveRejected { .. } => {
                        self.prompting = true;
                        self.prompt();
                    }
                    ServerMessage::GameOver { .. } => {
                        self.prompting = false;
                        let done = !matches!(self.start, Start::Lobby);
                        if !done && let Some(table) = self.table.take() {
                            self.prompt();
                            return (vec![ClientMessage::Leave { game: table.id }], false);
                        }
                        return (Vec::new(), done);
                    }
                    _ => {}
                }
                (Vec::new(), false)
            }
        }
    }

    /// Handles a line typed at the prompt.
    pub fn line(&mut self, line: &str) -> Step {
        let command = match parse_line(line) {
            Ok(command) => command,
            Err(err) => {
                self.say(&format!("error: {err}"));
                self.prompt();
                return (Vec::new(), false);
            }
        };
        let Some(table) = &self.table else {
            return self.lobby_line(command);
        };
        let game = table.id;
        match command {
            Command::Empty => {
                self.prompt();
                (Vec::new(), false)
            }
            Command::Help => {
                self.say(&format!("type {COMMANDS}"));
                self.prompt();
                (Vec::new(), false)
            }
            Command::Quit if table.your_side.is_some() && table.result().is_none() => {
                // Closing the client is not resigning: the seat waits for the player's return.
                self.say(QUIT_MID_GAME);
                self.prompting = false;
                (Vec::new(), true)
            }
            Command::Quit => {
                self.say("leaving the game");
                self.prompting = false;
                (vec![ClientMessage::Leave { game }], true)
            }
            _ if table.your_side.is_none() => {
                self.say("you are watching: only quit and help work here");
                self.prompt();
                (Vec::new(), false)
            }
            Command::Resign => {
                self.prompting = false;
                (vec![ClientMessage::Resign { game }], false)
            }
            Command::Draw => {
                let offered = table
                    .draw_offer
                    .is_some_and(|by| Some(by) != table.your_side);
                self.say(if offered {
                    "accepting the draw"
                } else {
                    "offering a draw"
                });
                let message = if offered {
                    ClientMessage::AnswerDraw { game, accept: true }
                } else {
                    ClientMessage::OfferDraw { game }
                };
                self.prompt();
                (vec![message], false)
            }
            Command::List | Command::Join(_) | Command::Watch(_) => {
                self.say("finish or quit this game first");
                self.prompt();
                (Vec::new(), false)
            }
            Command::Number(_) | Command::Move(_) => {
                if !self.prompting {
                    self.say("wait for your turn");
                    return (Vec::new(), false);
                }
                match resolve_move(&command, &table.game, &self.legal) {
                    Ok(text) => {
                        self.prompting = false;
                        (vec![ClientMessage::Move { game, text }], false)
                    }
                    Err(err) => {
                        self.say(&format!("error: {err}"));
                        self.prompt();
                        (Vec::new(), false)
                    }
                }
            }
        }
    }

    fn lobby_line(&mut self, command: Command) -> Step {
        match command {
            Command::Quit => (Vec::new(), true),
            Command::List => {
                self.waiting = true;
                (vec![ClientMessage::ListGames], false)
            }
            Command::Join(game) => {
                self.waiting = true;
                (vec![ClientMessage::Join { game }], false)
            }
            Command::Watch(game) => {
                self.waiting = true;
                (vec![ClientMessage::Watch { game }], false)
            }
            Command::Empty => {
                self.prompt();
                (Vec::new(), false)
            }
            _ => {
                self.say(&format!("in the lobby type {LOBBY_COMMANDS}"));
                self.prompt();
                (Vec::new(), false)
            }
        }
    }

    /// Standard input ended: a player leaves its game, a spectator watches on to the end.
    pub fn end_of_input(&mut self) -> Step {
        if self.is_watching() || matches!(self.start, Start::Watch(_)) {
            return (Vec::new(), false);
        }
        match self
            .table
            .as_ref()
            .filter(|t| t.result().is_none())
            .map(|t| t.id)
        {
            Some(_) => {
                self.say(&format!("end of input: {QUIT_MID_GAME}"));
                (Vec::new(), true)
            }
            None => (Vec::new(), true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;

    fn check(line: &str, expected: Result<Command, &str>) {
        match (parse_line(line), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{line:?}"),
            (Err(got), Err(needle)) => assert!(got.contains(needle), "{line:?}: {got}"),
            (got, want) => panic!("{line:?}: got {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn lines_parse() {
        check("", Ok(Command::Empty));
        check("   ", Ok(Command::Empty));
        check("3", Ok(Command::Number(3)));
        check(" 12 ", Ok(Command::Number(12)));
        check("11-15", Ok(Command::Move("11-15".to_owned())));
        check("K10", Ok(Command::Move("K10".to_owned())));
        check("RESIGN", Ok(Command::Resign));
        check(
            "resign please",
            Err("resign takes nothing after it, got \"please\""),
        );
        check("draw", Ok(Command::Draw));
        check("quit", Ok(Command::Quit));
        check("join 4", Ok(Command::Join(GameId(4))));
        check("watch", Err("watch needs a game number"));
        check("join x", Err("expected a game number after join"));
        check("99999999999999999999999", Err("is not a move number"));
        check(&"x".repeat(200), Err("a move is at most 64"));
    }

    #[test]
    fn moves_resolve_against_the_legal_list() {
        let game = AnyGame::start(GameKind::Checkers);
        let legal = game.legal_move_texts();
        assert_eq!(
            resolve_move(&Command::Number(1), &game, &legal),
            Ok("9-13".to_owned())
        );
        let err = resolve_move(&Command::Number(0), &game, &legal).expect_err("0");
        assert_eq!(err, "there is no move number 0: choose 1 to 7");
        let err = resolve_move(&Command::Number(8), &game, &legal).expect_err("8");
        assert!(err.contains("choose 1 to 7"), "{err}");
        let err = resolve_move(&Command::Move("11-99".to_owned()), &game, &legal).expect_err("bad");
        assert!(err.contains("square 99"), "{err}");
        assert_eq!(
            resolve_move(&Command::Move("11-15".to_owned()), &game, &legal),
            Ok("11-15".to_owned())
        );
        // In noughts and crosses a number is the square itself.
        let ttt = AnyGame::from_position_text(GameKind::TicTacToe, "X--------").expect("pos");
        let legal = ttt.legal_move_texts();
        assert_eq!(
            resolve_move(&Command::Number(5), &ttt, &legal),
            Ok("5".to_owned())
        );
        let err = resolve_move(&Command::Number(1), &ttt, &legal).expect_err("taken");
        assert!(err.contains("square 1 is taken"), "{err}");
    }

    #[test]
    fn the_board_prints_with_coordinates_and_letters() {
        let text = board_text(&AnyGame::start(GameKind::Checkers), true, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    h g f e d c b a");
        assert_eq!(lines[1], " 1    w   w   w   w  1");
        assert_eq!(lines[8], " 8  b   b   b   b    8");
        let ttt = AnyGame::from_position_text(GameKind::TicTacToe, "X---O----").expect("pos");
        let text = board_text(&ttt, false, false);
        assert_eq!(text.lines().nth(1), Some(" 3  X . .  3"));
        assert_eq!(text.lines().nth(2), Some(" 2  . O .  2"));
    }
}
