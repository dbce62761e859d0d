//! A table: the task that owns one game. It holds the [`Judge`], the two seats and the
//! spectators, runs the clocks' deadlines and the absent players' grace periods, and is the only
//! place the game changes: connections and bots send it commands through a bounded channel and
//! it answers through their outboxes, so no lock is ever held around a game.
//!
//! The table also keeps its game in the database: the game is stored before the table handles
//! its first command, each accepted move is stored before anyone hears of it (a move that cannot
//! be stored is undone and refused), and seat changes, takebacks and the result are stored, in
//! order, after the command that made them and before anyone hears of them: every message a
//! command produces is held in the table's mail until its changes are stored. When the database
//! fails, the game pauses: its members are told so, requests are refused with the reason, and
//! the table tries again until the changes are stored, then delivers what it held and goes on.
//! [`resume`] rebuilds a table from its stored game after a restart.

use crate::bot::{self, Bot, MoveRequest};
use crate::error::Refusal;
use crate::judge::{Judge, Refused};
use crate::options::GameSetup;
use crate::seat::Seat;
use crate::server::Shared;
use crate::session::Session;
use crate::storage::records::unix_ms;
use crate::storage::{NewGame, Participant, StoreError, StoredGame, StoredMove};
use kingme_shared::ai::Level;
use kingme_shared::games::pente::PenteRules;
use kingme_shared::protocol::{
    ClientMessage, ClockState, EndReason, ErrorKind, GameId, GameResult, GameState, GameStatus,
    GameSummary, MAX_CHAT_CHARS, PlayerId, SeatHolder, ServerMessage, TimeControl, quoted_move,
};
use kingme_shared::{AnyGame, GameKind, Side};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// Commands queued for a table before senders wait.
const COMMAND_QUEUE: usize = 64;

/// How often a game paused by a storage failure tries to store again.
const STORE_RETRY: std::time::Duration = std::time::Duration::from_secs(2);

/// What a table is asked to do.
#[derive(Debug)]
pub enum TableCommand {
    /// A client's game message (join, move, chat, ...), from the session that sent it.
    Request {
        session: Arc<Session>,
        message: ClientMessage,
    },
    /// A player's connection dropped.
    Disconnected { player: PlayerId },
    /// A player came back with its token.
    Reconnected { session: Arc<Session> },
    /// A bot's answer for the position numbered `epoch`.
    BotMoved {
        side: Side,
        epoch: u64,
        text: Option<String>,
    },
}

/// A cheap handle on a table: where to send commands and its latest summary for the lobby.
#[derive(Debug, Clone)]
pub struct TableHandle {
    pub id: GameId,
    commands: mpsc::Sender<TableCommand>,
    summary: watch::Receiver<GameSummary>,
}

impl TableHandle {
    /// Queues a command, waiting if the table is busy; `false` if the table has closed.
    pub async fn send(&self, command: TableCommand) -> bool {
        self.commands.send(command).await.is_ok()
    }

    /// Queues a command without waiting (for notices that may be lost when the table is gone or
    /// swamped, such as a disconnect the grace timer covers anyway).
    pub fn notify(&self, command: TableCommand) {
        let _ = self.commands.try_send(command);
    }

    /// The table's latest summary.
    #[must_use]
    pub fn summary(&self) -> GameSummary {
        self.summary.borrow().clone()
    }
}

/// Opens a table with these seats and spectators, registers it in the lobby and starts its task.
/// Seated people and spectators get the game's state; the game starts if both seats are filled.
/// `id` comes from [`crate::lobby::Lobby::next_id`].
pub fn open(
    shared: &Arc<Shared>,
    id: GameId,
    setup: GameSetup,
    seats: [Seat; 2],
    spectators: Vec<Arc<Session>>,
) -> TableHandle {
    let judge = Judge::new(&setup);
    let (commands, receiver) = mpsc::channel(COMMAND_QUEUE);
    let blank = GameSummary {
        id,
        kind: setup.kind,
        seats: [seats[0].holder(), seats[1].holder()],
        time_control: setup.time_control,
        moves: 0,
        status: GameStatus::Open,
        spectators: 0,
    };
    let (summary_tx, summary) = watch::channel(blank);
    let handle = TableHandle {
        id,
        commands,
        summary,
    };
    let mut table = Table {
        id,
        setup,
        judge,
        seats,
        spectators,
        handle: handle.clone(),
        summary: summary_tx,
        shared: Arc::clone(shared),
        draw_offer: None,
        takeback_request: None,
        rematch_offer: None,
        away: [None, None],
        epoch: 0,
        ended_at: None,
        stored: Stored::NotYet,
        unsaved: Vec::new(),
        mail: RefCell::new(Vec::new()),
        publish_due: Cell::new(false),
        paused: None,
    };
    shared.lobby.insert(handle.clone());
    tracing::info!(game = %id, kind = %table.setup.kind, "game created");
    table.welcome_members();
    shared.tables.spawn(table.run(receiver));
    handle
}

/// Reopens a stored game that was in progress when the server stopped: the moves replayed
/// through the rules, the clocks as after the last move (the downtime charged to nobody), bots
/// seated again and thinking if it is their turn, and people's seats held for them for the
/// grace period, waiting for them to come back with their resume tokens.
pub fn resume(
    shared: &Arc<Shared>,
    stored: &StoredGame,
    seats: [Seat; 2],
) -> Result<TableHandle, String> {
    let game = &stored.game;
    let setup = GameSetup {
        kind: game.kind,
        start: stored
            .to_record()
            .start_game()
            .map_err(|err| err.to_string())?,
        time_control: game.time_control,
        pente_tournament_rule: game.pente_tournament_rule,
        rated: game.rated,
    };
    let now = Instant::now();
    let judge = Judge::resume(&setup, &stored.moves, now)?;
    let (commands, receiver) = mpsc::channel(COMMAND_QUEUE);
    let blank = GameSummary {
        id: game.id,
        kind: game.kind,
        seats: [seats[0].holder(), seats[1].holder()],
        time_control: game.time_control,
        moves: 0,
        status: judge.status(),
        spectators: 0,
    };
    let (summary_tx, summary) = watch::channel(blank);
    let handle = TableHandle {
        id: game.id,
        commands,
        summary,
    };
    let grace = now + shared.config.grace;
    let away = [0, 1].map(|index| seats[index].session().map(|_| grace));
    let mut table = Table {
        id: game.id,
        setup,
        judge,
        seats,
        spectators: Vec::new(),
        handle: handle.clone(),
        summary: summary_tx,
        shared: Arc::clone(shared),
        draw_offer: None,
        takeback_request: None,
        rematch_offer: None,
        away,
        epoch: 0,
        ended_at: None,
        stored: Stored::Yes,
        unsaved: Vec::new(),
        mail: RefCell::new(Vec::new()),
        publish_due: Cell::new(false),
        paused: None,
    };
    shared.lobby.insert(handle.clone());
    for seat in &table.seats {
        if let Some(session) = seat.session() {
            session.add_game(handle.clone());
        }
    }
    tracing::info!(game = %game.id, moves = stored.moves.len(), "game resumed");
    table.publish();
    match table.judge.status() {
        GameStatus::Over(result) => table.announce_end(result),
        _ => table.ask_to_move(),
    }
    shared.tables.spawn(table.run(receiver));
    Ok(handle)
}

/// Whether the table's game is in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stored {
    /// Not yet: the table stores it before its first command.
    NotYet,
    Yes,
    /// Storing it failed; the game was aborted and nothing more is written.
    Failed,
}

/// A change to store once the command that made it is handled (moves are stored at once).
#[derive(Debug)]
enum Unsaved {
    Seat(Side, Participant),
    /// The moves after the first this many were taken back.
    TakeBack(u32),
    Finish(GameResult),
}

struct Table {
    id: GameId,
    setup: GameSetup,
    judge: Judge,
    seats: [Seat; 2],
    spectators: Vec<Arc<Session>>,
    handle: TableHandle,
    summary: watch::Sender<GameSummary>,
    shared: Arc<Shared>,
    draw_offer: Option<Side>,
    takeback_request: Option<Side>,
    rematch_offer: Option<Side>,
    /// When each absent player's grace period ends.
    away: [Option<Instant>; 2],
    /// Numbers the positions, so a bot's answer for an older one is ignored.
    epoch: u64,
    ended_at: Option<Instant>,
    stored: Stored,
    /// Changes made by the command being handled, stored in order once it is done.
    unsaved: Vec<Unsaved>,
    /// Messages to members, held until the changes they announce are stored.
    mail: RefCell<Vec<(Arc<Session>, ServerMessage)>>,
    /// Whether the lobby's summary is to be refreshed when the mail goes out.
    publish_due: Cell<bool>,
    /// Set while the game waits for the database.
    paused: Option<Paused>,
}

/// What a game paused by a storage failure waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waiting {
    /// Changes in `unsaved` (and the mail announcing them).
    Changes,
    /// A bot's move, undone because it could not be stored: the bot is asked again.
    BotMove,
}

/// A game paused because the database failed.
#[derive(Debug)]
struct Paused {
    waiting: Waiting,
    retry_at: Instant,
    reason: String,
}

/// Why a move was not played.
#[derive(Debug)]
enum PlayError {
    /// The judge refused it: the rules, the turn or the clock.
    Refused(String),
    /// It was legal but could not be stored, so it was undone.
    NotStored(String),
}

impl PlayError {
    fn into_reason(self) -> String {
        match self {
            PlayError::Refused(reason) | PlayError::NotStored(reason) => reason,
        }
    }
}

async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

impl Table {
    async fn run(mut self, mut commands: mpsc::Receiver<TableCommand>) {
        let shutdown = self.shared.games.clone();
        if self.stored == Stored::NotYet {
            self.store_creation().await;
        }
        self.settle().await;
        loop {
            if self.paused.is_none() && self.should_close() {
                if self.judge.status() == GameStatus::Open {
                    // Everyone left a game that never started: it is closed as aborted now, not
                    // left unfinished for the next start to find.
                    self.end(None, EndReason::Aborted);
                    self.settle().await;
                }
                break;
            }
            let wake = match &self.paused {
                Some(paused) => Some(paused.retry_at),
                None => self.next_deadline(),
            };
            tokio::select! {
                () = shutdown.cancelled() => {
                    if self.paused.is_some() {
                        // Nothing held back was stored: none of it is announced.
                        self.mail.get_mut().clear();
                    }
                    // A game cut short by a shutdown stays as stored, unfinished, and the next
                    // start resumes it: nothing is announced (the players' connections say the
                    // server is going down and that their games are kept).
                    self.suspend();
                    self.deliver();
                    return;
                }
                command = commands.recv() => match command {
                    Some(command) if self.paused.is_some() => self.while_paused(command).await,
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = until(wake) => match self.paused.as_ref().map(|p| p.waiting) {
                    Some(Waiting::BotMove) => self.ask_bot_again(),
                    Some(Waiting::Changes) => {}
                    None => self.on_time(Instant::now()),
                },
            }
            self.settle().await;
        }
        self.close();
    }

    /// After each command: stores its changes, then delivers what it said; if storing fails,
    /// the game pauses and nothing of it is announced.
    async fn settle(&mut self) {
        match self.save().await {
            Ok(()) => {
                if self
                    .paused
                    .as_ref()
                    .is_some_and(|p| p.waiting == Waiting::Changes)
                {
                    self.paused = None;
                    tracing::warn!(game = %self.id, "storage works again; the game goes on");
                    self.judge.release_clock(Instant::now());
                    self.deliver();
                    // A bot's answer was dropped while the game waited: ask it again.
                    if self.seats[self.judge.side_to_move().index()].is_bot() {
                        self.ask_bot_again();
                    }
                }
                if self.paused.is_none() {
                    self.deliver();
                }
            }
            Err(err) => self.pause(Waiting::Changes, &err.to_string()),
        }
    }

    /// Sends the held mail and refreshes the lobby's summary.
    fn deliver(&self) {
        for (session, message) in self.mail.borrow_mut().drain(..) {
            session.send(message);
        }
        if self.publish_due.replace(false) {
            self.publish_now();
        }
    }

    /// Pauses the game because the database failed, telling every member (at once: this is
    /// the truth about the game, not an unstored change) the first time.
    fn pause(&mut self, waiting: Waiting, reason: &str) {
        let retry_at = Instant::now() + STORE_RETRY;
        let first = self.paused.is_none();
        tracing::error!(game = %self.id, %reason, ?waiting, "the game is paused: storage failed");
        self.paused = Some(Paused {
            waiting,
            retry_at,
            reason: reason.to_owned(),
        });
        if first {
            // The wait is nobody's time.
            self.judge.hold_clock(Instant::now());
            let notice = ServerMessage::Error {
                kind: ErrorKind::NotAllowed,
                message: format!(
                    "game {} is paused: the server could not store its last change ({reason}); \
                     nothing is lost, and it goes on by itself once the database works again",
                    self.id
                ),
                fatal: false,
            };
            for session in self.members() {
                session.send(notice.clone());
            }
        }
    }

    /// Asks the bot to move again (its earlier answer could not be stored or was dropped).
    fn ask_bot_again(&mut self) {
        if let Some(paused) = &mut self.paused {
            paused.retry_at = Instant::now() + STORE_RETRY;
        }
        for seat in &mut self.seats {
            seat.stop();
        }
        self.epoch += 1;
        self.ask_to_move();
    }

    /// A command while the game waits for the database: requests are refused with the reason
    /// (nothing may change that cannot be stored), connections coming and going are noted, and
    /// a bot's answer is tried when a bot's move is what the game waits for.
    async fn while_paused(&mut self, command: TableCommand) {
        let Some(paused) = &self.paused else {
            return;
        };
        let reason = format!(
            "game {} is paused: the server cannot store it right now ({}); try again in a moment",
            self.id, paused.reason
        );
        match command {
            TableCommand::Request { session, message } => match message {
                ClientMessage::Move { text, .. } => session.send(ServerMessage::MoveRejected {
                    game: self.id,
                    text: quoted_move(&text),
                    reason,
                }),
                _ => session.send(Refusal::not_allowed(reason).to_message(false)),
            },
            TableCommand::BotMoved { .. } if paused.waiting == Waiting::BotMove => {
                self.handle(command).await;
            }
            TableCommand::BotMoved { .. } => {}
            command @ (TableCommand::Disconnected { .. } | TableCommand::Reconnected { .. }) => {
                self.handle(command).await;
            }
        }
    }

    /// Everyone who hears of the game: the seated people and the spectators.
    fn members(&self) -> Vec<Arc<Session>> {
        self.seats
            .iter()
            .filter_map(|seat| seat.session().cloned())
            .chain(self.spectators.iter().cloned())
            .collect()
    }

    /// Holds a message for a member until the command's changes are stored.
    fn post(&self, session: &Arc<Session>, message: ServerMessage) {
        self.mail.borrow_mut().push((Arc::clone(session), message));
    }

    // ---- the database ----

    /// The game as it is created: the options, the start (when not the standard one) and who
    /// sits where.
    async fn store_creation(&mut self) {
        let standard = match self.setup.kind {
            GameKind::Pente => AnyGame::pente_with_rules(PenteRules {
                tournament: self.setup.pente_tournament_rule,
            }),
            kind => AnyGame::start(kind),
        };
        let start_position =
            (self.setup.start != standard).then(|| self.setup.start.position_text());
        let game = NewGame {
            id: self.id,
            kind: self.setup.kind,
            time_control: self.setup.time_control,
            rated: self.setup.rated,
            pente_tournament_rule: self.setup.pente_tournament_rule,
            start_position,
            seats: [self.seats[0].participant(), self.seats[1].participant()],
            created_at_ms: unix_ms(),
        };
        match self.shared.storage.create_game(game).await {
            Ok(()) => self.stored = Stored::Yes,
            Err(err) => {
                tracing::error!(game = %self.id, %err, "could not store a new game");
                self.stored = Stored::Failed;
                self.broadcast(&ServerMessage::Error {
                    kind: ErrorKind::NotAllowed,
                    message: format!(
                        "the server could not store game {} ({err}), so it is aborted",
                        self.id
                    ),
                    fatal: false,
                });
                self.end(None, EndReason::Aborted);
            }
        }
        self.unsaved.clear();
    }

    /// Stores the changes of the command just handled, in the order they were made. On a
    /// failure the change that failed and those after it stay queued for the next try.
    async fn save(&mut self) -> Result<(), StoreError> {
        if self.stored != Stored::Yes {
            self.unsaved.clear();
            return Ok(());
        }
        let storage = self.shared.storage.clone();
        let mut queue = std::mem::take(&mut self.unsaved).into_iter();
        while let Some(change) = queue.next() {
            let saved = match &change {
                Unsaved::Seat(side, who) => storage.set_seat(self.id, *side, who.clone()).await,
                Unsaved::TakeBack(kept) => storage.take_back(self.id, *kept).await,
                Unsaved::Finish(result) => storage
                    .finish_game(self.id, *result, unix_ms())
                    .await
                    .map(|changes| {
                        for change in changes.into_iter().flatten() {
                            tracing::info!(
                                game = %self.id,
                                who = ?change.who,
                                before = change.before,
                                after = change.after,
                                "rating changed"
                            );
                        }
                    }),
            };
            if let Err(err) = saved {
                tracing::error!(game = %self.id, %err, "could not store a change to the game");
                self.unsaved = std::iter::once(change).chain(queue).collect();
                return Err(err);
            }
        }
        Ok(())
    }

    /// Stores an accepted move before anyone hears of it.
    async fn store_move(&mut self, ply: u32, text: &str, clocks: ClockState) -> Result<(), String> {
        if self.stored != Stored::Yes {
            return Ok(());
        }
        // Changes made earlier in this command (a seat) go first, in order.
        self.save().await.map_err(|err| {
            format!("the server could not store the game ({err}); nothing changed, try again")
        })?;
        let stored = StoredMove {
            ply,
            text: text.to_owned(),
            clocks_ms: clocks.remaining_ms,
            played_at_ms: unix_ms(),
        };
        self.shared
            .storage
            .record_move(self.id, stored)
            .await
            .map_err(|err| {
                tracing::error!(game = %self.id, %err, "could not store a move");
                format!("the server could not store the move ({err}); nothing changed, try again")
            })
    }

    // ---- membership and messages ----

    fn side_of(&self, player: PlayerId) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|side| self.seats[side.index()].is_held_by(player))
    }

    fn is_spectator(&self, player: PlayerId) -> bool {
        self.spectators.iter().any(|s| s.id == player)
    }

    /// Sends to both players and every spectator.
    fn broadcast(&self, message: &ServerMessage) {
        for session in self.members() {
            self.post(&session, message.clone());
        }
    }

    fn refuse(&self, session: &Arc<Session>, refusal: &Refusal) {
        self.post(session, refusal.to_message(false));
    }

    fn state_for(&self, your_side: Option<Side>) -> GameState {
        let game = self.judge.game();
        GameState {
            id: self.id,
            kind: self.setup.kind,
            seats: [self.holder(Side::First), self.holder(Side::Second)],
            your_side,
            time_control: self.setup.time_control,
            pente_tournament_rule: self.setup.pente_tournament_rule,
            rated: self.setup.rated,
            start_position: self.judge.start().position_text(),
            moves: self.judge.moves().to_vec(),
            position: game.position_text(),
            side_to_move: game.side_to_move(),
            clocks: self.judge.clocks(Instant::now()),
            status: self.judge.status(),
        }
    }

    /// Sends the full state to one member, and `YourTurn` if it is its move.
    fn send_state(&self, session: &Arc<Session>) {
        let side = self.side_of(session.id);
        self.post(session, ServerMessage::State(self.state_for(side)));
        if self.judge.is_playing() && side == Some(self.judge.side_to_move()) {
            self.post(session, self.your_turn());
        }
    }

    fn your_turn(&self) -> ServerMessage {
        ServerMessage::YourTurn {
            game: self.id,
            legal_moves: self.judge.game().legal_move_texts(),
            clocks: self.judge.clocks(Instant::now()),
        }
    }

    /// Every member gets the full state (at creation, start and after a takeback).
    fn send_state_to_all(&self) {
        for side in Side::BOTH {
            if let Some(session) = self.seats[side.index()].session() {
                self.post(session, ServerMessage::State(self.state_for(Some(side))));
            }
        }
        for spectator in &self.spectators {
            self.post(spectator, ServerMessage::State(self.state_for(None)));
        }
    }

    fn welcome_members(&mut self) {
        for seat in &self.seats {
            if let Some(session) = seat.session() {
                session.add_game(self.handle.clone());
            }
        }
        for spectator in &self.spectators {
            spectator.add_game(self.handle.clone());
        }
        if self.seats.iter().all(|seat| !seat.is_empty()) {
            self.begin();
        } else {
            self.send_state_to_all();
            self.publish();
        }
    }

    /// Refreshes the lobby's summary once the command's changes are stored.
    fn publish(&self) {
        self.publish_due.set(true);
    }

    fn publish_now(&self) {
        let status = self.judge.status();
        self.summary.send_replace(GameSummary {
            id: self.id,
            kind: self.setup.kind,
            seats: [self.holder(Side::First), self.holder(Side::Second)],
            time_control: self.setup.time_control,
            moves: u32::try_from(self.judge.moves().len()).unwrap_or(u32::MAX),
            status,
            spectators: u32::try_from(self.spectators.len()).unwrap_or(u32::MAX),
        });
    }

    fn seat_changed(&self, side: Side) {
        self.broadcast(&ServerMessage::SeatChanged {
            game: self.id,
            side,
            holder: self.holder(side),
        });
    }

    // ---- the game's course ----

    fn begin(&mut self) {
        self.judge.begin(Instant::now());
        tracing::info!(game = %self.id, "game started");
        self.send_state_to_all();
        self.publish();
        self.ask_to_move();
    }

    fn ask_to_move(&mut self) {
        if !self.judge.is_playing() {
            return;
        }
        let now = Instant::now();
        let side = self.judge.side_to_move();
        let per_move = matches!(self.setup.time_control, TimeControl::PerMove { .. });
        let request = MoveRequest {
            game: self.judge.game().clone(),
            side,
            budget: bot::budget(
                self.judge.time_left(now),
                per_move,
                self.shared.config.bot_think_time,
            ),
            epoch: self.epoch,
            reply: self.handle.commands.clone(),
        };
        let your_turn = self.your_turn();
        match self.seats[side.index()].session() {
            Some(session) => self.post(session, your_turn),
            None => self.seats[side.index()].ask_to_move(|| your_turn, request),
        }
    }

    /// Plays a move for `side`; why not if it was refused or could not be stored.
    async fn play(&mut self, side: Side, text: &str) -> Result<(), PlayError> {
        match self.judge.play(side, text, Instant::now()) {
            Ok(played) => {
                // The clocks as of the move: stored, and announced, the same.
                let clocks = self.judge.clocks(Instant::now());
                if let Err(reason) = self
                    .store_move(played.ply, &played.record.text, clocks)
                    .await
                {
                    self.judge.retract(Instant::now());
                    return Err(PlayError::NotStored(reason));
                }
                self.epoch += 1;
                self.draw_offer = None;
                self.takeback_request = None;
                let game = self.judge.game();
                self.broadcast(&ServerMessage::MovePlayed {
                    game: self.id,
                    ply: played.ply,
                    record: played.record,
                    position: game.position_text(),
                    side_to_move: game.side_to_move(),
                    clocks,
                });
                match played.result {
                    Some(result) => self.announce_end(result),
                    None => {
                        self.publish();
                        self.ask_to_move();
                    }
                }
                Ok(())
            }
            Err(Refused::Flagged) => {
                self.end(Some(side.opponent()), EndReason::TimeForfeit);
                Err(PlayError::Refused(Refused::Flagged.to_string()))
            }
            Err(Refused::Move(reason)) => Err(PlayError::Refused(reason)),
        }
    }

    /// Ends a running (or open) game with a judge's reason.
    fn end(&mut self, winner: Option<Side>, reason: EndReason) {
        if matches!(self.judge.status(), GameStatus::Over(_)) {
            return;
        }
        let result = GameResult { winner, reason };
        self.judge.finish(result, Instant::now());
        self.announce_end(result);
    }

    fn announce_end(&mut self, result: GameResult) {
        self.unsaved.push(Unsaved::Finish(result));
        self.epoch += 1;
        for seat in &mut self.seats {
            seat.stop();
        }
        self.draw_offer = None;
        self.takeback_request = None;
        self.away = [None, None];
        self.ended_at = Some(Instant::now());
        tracing::info!(game = %self.id, winner = ?result.winner, reason = %result.reason, "game ended");
        self.broadcast(&ServerMessage::GameOver {
            game: self.id,
            result,
            clocks: self.judge.clocks(Instant::now()),
        });
        self.publish();
    }

    fn on_time(&mut self, now: Instant) {
        if let Some(side) = self.judge.flagged(now) {
            self.end(Some(side.opponent()), EndReason::TimeForfeit);
        }
        for side in Side::BOTH {
            if self.away[side.index()].is_some_and(|deadline| deadline <= now) {
                self.away[side.index()] = None;
                tracing::info!(game = %self.id, ?side, "grace period over");
                match self.judge.status() {
                    GameStatus::Playing => self.end(Some(side.opponent()), EndReason::Abandoned),
                    GameStatus::Open => {
                        self.end(None, EndReason::Aborted);
                        self.seats[side.index()].mark_left();
                    }
                    GameStatus::Over(_) => {}
                }
            }
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        let config = &self.shared.config;
        let linger = self.ended_at.map(|ended| ended + config.finished_linger);
        let absence = self
            .ended_at
            .filter(|_| self.seats.iter().any(Seat::is_absent))
            .map(|ended| ended + config.grace);
        [
            self.judge.deadline(),
            self.away[0],
            self.away[1],
            linger,
            absence,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Whether the table has nobody left to serve. A finished game stays while a player is
    /// still there (for a rematch, up to the linger time) or may come back within the grace
    /// period to see how it ended.
    fn should_close(&self) -> bool {
        let humans = self
            .seats
            .iter()
            .filter(|seat| seat.session().is_some())
            .count();
        match (self.judge.status(), self.ended_at) {
            (GameStatus::Open, _) => humans == 0 && self.spectators.is_empty(),
            (GameStatus::Over(_), Some(ended)) => {
                let config = &self.shared.config;
                let now = Instant::now();
                let awaited = self.seats.iter().any(Seat::has_connected_human)
                    || (self.seats.iter().any(Seat::is_absent) && now < ended + config.grace);
                !awaited || now >= ended + config.finished_linger
            }
            _ => false,
        }
    }

    /// Stops the table for a shutdown without ending its game.
    fn suspend(&mut self) {
        for seat in &mut self.seats {
            seat.stop();
        }
        tracing::debug!(game = %self.id, "table suspended for the shutdown");
    }

    /// How a seat looks to others: its holder, with the time left to return while its person
    /// is away.
    fn holder(&self, side: Side) -> SeatHolder {
        let mut holder = self.seats[side.index()].holder();
        if let SeatHolder::Human { grace_left_ms, .. } = &mut holder {
            *grace_left_ms = self.away[side.index()].map(|deadline| {
                let left = deadline.saturating_duration_since(Instant::now());
                u64::try_from(left.as_millis()).unwrap_or(u64::MAX)
            });
        }
        holder
    }

    fn close(&mut self) {
        for seat in &mut self.seats {
            seat.stop();
        }
        let left = ServerMessage::Left { game: self.id };
        for session in self.members() {
            session.remove_game(self.id);
            self.post(&session, left.clone());
        }
        self.deliver();
        self.publish_now();
        self.shared
            .lobby
            .remove(self.id, self.summary.borrow().clone());
        tracing::debug!(game = %self.id, "table closed");
    }

    // ---- commands ----

    async fn handle(&mut self, command: TableCommand) {
        match command {
            TableCommand::Request { session, message } => {
                if let Err(refusal) = self.request(&session, message).await {
                    self.refuse(&session, &refusal);
                }
            }
            TableCommand::Disconnected { player } => self.disconnected(player),
            TableCommand::Reconnected { session } => self.reconnected(&session),
            TableCommand::BotMoved { side, epoch, text } => {
                if epoch != self.epoch || !self.seats[side.index()].is_bot() {
                    return;
                }
                let played = match text {
                    Some(text) => self.play(side, &text).await,
                    None => Err(PlayError::Refused("the bot found no move".to_owned())),
                };
                match played {
                    Ok(()) => {
                        if self
                            .paused
                            .take_if(|p| p.waiting == Waiting::BotMove)
                            .is_some()
                        {
                            tracing::warn!(game = %self.id, "storage works again; the game goes on");
                        }
                    }
                    // Not the bot's fault: the game waits for the database, then asks again.
                    Err(PlayError::NotStored(reason)) => self.pause(Waiting::BotMove, &reason),
                    Err(PlayError::Refused(reason)) => {
                        tracing::error!(game = %self.id, %reason, "a bot's move was refused");
                        self.end(Some(side.opponent()), EndReason::Abandoned);
                    }
                }
            }
        }
    }

    /// The player's seat, or why it cannot act as a player.
    fn player_side(&self, session: &Session) -> Result<Side, Refusal> {
        self.side_of(session.id).ok_or_else(|| {
            if self.is_spectator(session.id) {
                Refusal::not_allowed(format!(
                    "you watch game {} as a spectator; spectators cannot play",
                    self.id
                ))
            } else {
                Refusal::new(
                    ErrorKind::NoSuchGame,
                    format!(
                        "you do not play in game {}; join an open seat first",
                        self.id
                    ),
                )
            }
        })
    }

    fn playing_side(&self, session: &Session) -> Result<Side, Refusal> {
        let side = self.player_side(session)?;
        if self.judge.is_playing() {
            Ok(side)
        } else {
            Err(Refusal::not_allowed(format!(
                "game {} is not running",
                self.id
            )))
        }
    }

    async fn request(
        &mut self,
        session: &Arc<Session>,
        message: ClientMessage,
    ) -> Result<(), Refusal> {
        match message {
            ClientMessage::Join { .. } => self.join(session),
            ClientMessage::AttachBot { level, .. } => self.attach_bot(session, level),
            ClientMessage::Watch { .. } => self.watch(session),
            ClientMessage::Leave { .. } => self.leave(session),
            ClientMessage::Move { text, .. } => {
                let side = match self.player_side(session) {
                    Ok(side) => side,
                    Err(refusal) => {
                        self.post(
                            session,
                            ServerMessage::MoveRejected {
                                game: self.id,
                                text: quoted_move(&text),
                                reason: refusal.message,
                            },
                        );
                        return Ok(());
                    }
                };
                if let Err(err) = self.play(side, &text).await {
                    self.post(
                        session,
                        ServerMessage::MoveRejected {
                            game: self.id,
                            text: quoted_move(&text),
                            reason: err.into_reason(),
                        },
                    );
                }
                Ok(())
            }
            ClientMessage::Resign { .. } => {
                let side = self.playing_side(session)?;
                self.end(Some(side.opponent()), EndReason::Resignation);
                Ok(())
            }
            ClientMessage::OfferDraw { .. } => self.offer_draw(session),
            ClientMessage::AnswerDraw { accept, .. } => self.answer_draw(session, accept),
            ClientMessage::RequestTakeback { .. } => self.request_takeback(session),
            ClientMessage::AnswerTakeback { accept, .. } => self.answer_takeback(session, accept),
            ClientMessage::Rematch { .. } => self.rematch(session),
            ClientMessage::Chat { text, .. } => self.chat(session, &text),
            other => Err(Refusal::not_allowed(format!(
                "{other:?} is not a game message"
            ))),
        }
    }

    fn join(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        if self.side_of(session.id).is_some() {
            return Err(Refusal::not_allowed(format!(
                "you already sit in game {}",
                self.id
            )));
        }
        if self.judge.status() != GameStatus::Open {
            return Err(Refusal::not_allowed(format!(
                "game {} has no open seat; watch it instead",
                self.id
            )));
        }
        let Some(side) = Side::BOTH
            .into_iter()
            .find(|side| self.seats[side.index()].is_empty())
        else {
            return Err(Refusal::not_allowed(format!("game {} is full", self.id)));
        };
        self.spectators.retain(|s| s.id != session.id);
        self.seats[side.index()] = Seat::human(Arc::clone(session));
        self.unsaved
            .push(Unsaved::Seat(side, session.participant()));
        session.add_game(self.handle.clone());
        self.seated(side);
        Ok(())
    }

    /// A seat was filled: the game starts when both are, else the others hear of it.
    fn seated(&mut self, side: Side) {
        if self.seats.iter().all(|seat| !seat.is_empty()) {
            self.seat_changed(side);
            self.begin();
        } else {
            self.seat_changed(side);
            if let Some(session) = self.seats[side.index()].session() {
                self.send_state(session);
            }
            self.publish();
        }
    }

    fn attach_bot(&mut self, session: &Arc<Session>, level: Level) -> Result<(), Refusal> {
        let open = Side::BOTH
            .into_iter()
            .find(|side| self.seats[side.index()].is_empty());
        let Some(side) = open.filter(|_| self.judge.status() == GameStatus::Open) else {
            return Err(Refusal::not_allowed(format!(
                "game {} has no open seat for a bot",
                self.id
            )));
        };
        self.seats[side.index()] = Seat::Bot(Bot::new(level, Arc::clone(&self.shared.bots)));
        self.unsaved
            .push(Unsaved::Seat(side, Participant::Bot(level)));
        if self.side_of(session.id).is_none() && !self.is_spectator(session.id) {
            self.post(
                session,
                ServerMessage::SeatChanged {
                    game: self.id,
                    side,
                    holder: self.holder(side),
                },
            );
        }
        self.seated(side);
        Ok(())
    }

    fn watch(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        if self.side_of(session.id).is_none() && !self.is_spectator(session.id) {
            self.spectators.push(Arc::clone(session));
            session.add_game(self.handle.clone());
            self.publish();
        }
        self.send_state(session);
        Ok(())
    }

    fn leave(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        if let Some(side) = self.side_of(session.id) {
            match self.judge.status() {
                GameStatus::Playing => self.end(Some(side.opponent()), EndReason::Abandoned),
                GameStatus::Open => {
                    self.seats[side.index()] = Seat::Empty;
                    self.unsaved.push(Unsaved::Seat(side, Participant::Empty));
                    self.seat_changed(side);
                }
                GameStatus::Over(_) => {}
            }
            self.seats[side.index()].mark_left();
            self.away[side.index()] = None;
        } else if self.is_spectator(session.id) {
            self.spectators.retain(|s| s.id != session.id);
        } else {
            return Err(Refusal::new(
                ErrorKind::NoSuchGame,
                format!("you are not in game {}", self.id),
            ));
        }
        session.remove_game(self.id);
        self.post(session, ServerMessage::Left { game: self.id });
        self.publish();
        Ok(())
    }

    fn offer_draw(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        let side = self.playing_side(session)?;
        if self.draw_offer == Some(side.opponent()) {
            return self.answer_draw(session, true);
        }
        let by = side;
        self.broadcast(&ServerMessage::DrawOffered { game: self.id, by });
        if self.seats[side.opponent().index()].is_bot() {
            // Bots play on.
            self.broadcast(&ServerMessage::DrawDeclined {
                game: self.id,
                by: side.opponent(),
            });
        } else {
            self.draw_offer = Some(side);
        }
        Ok(())
    }

    fn answer_draw(&mut self, session: &Arc<Session>, accept: bool) -> Result<(), Refusal> {
        let side = self.playing_side(session)?;
        if self.draw_offer != Some(side.opponent()) {
            return Err(Refusal::not_allowed("there is no draw offer to answer"));
        }
        self.draw_offer = None;
        if accept {
            self.end(None, EndReason::DrawAgreed);
        } else {
            self.broadcast(&ServerMessage::DrawDeclined {
                game: self.id,
                by: side,
            });
        }
        Ok(())
    }

    fn request_takeback(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        let side = self.playing_side(session)?;
        if self.judge.takeback_plies(side).is_none() {
            return Err(Refusal::not_allowed("you have no move to take back yet"));
        }
        let opponent = side.opponent();
        if self.seats[opponent.index()].is_bot() {
            if self.setup.rated {
                self.broadcast(&ServerMessage::TakebackDeclined {
                    game: self.id,
                    by: opponent,
                });
                return Ok(());
            }
            self.take_back(side);
        } else {
            self.takeback_request = Some(side);
            self.broadcast(&ServerMessage::TakebackRequested {
                game: self.id,
                by: side,
            });
        }
        Ok(())
    }

    fn answer_takeback(&mut self, session: &Arc<Session>, accept: bool) -> Result<(), Refusal> {
        let side = self.playing_side(session)?;
        if self.takeback_request != Some(side.opponent()) {
            return Err(Refusal::not_allowed(
                "there is no takeback request to answer",
            ));
        }
        self.takeback_request = None;
        if accept {
            self.take_back(side.opponent());
        } else {
            self.broadcast(&ServerMessage::TakebackDeclined {
                game: self.id,
                by: side,
            });
        }
        Ok(())
    }

    /// Takes back `by`'s last move and every move since, and tells everyone.
    fn take_back(&mut self, by: Side) {
        let Some(plies) = self.judge.takeback_plies(by) else {
            return;
        };
        for seat in &mut self.seats {
            seat.stop();
        }
        if !self.judge.take_back(plies, Instant::now()) {
            return;
        }
        let kept = u32::try_from(self.judge.moves().len()).unwrap_or(u32::MAX);
        self.unsaved.push(Unsaved::TakeBack(kept));
        self.epoch += 1;
        self.draw_offer = None;
        self.takeback_request = None;
        self.broadcast(&ServerMessage::TookBack {
            game: self.id,
            by,
            plies,
        });
        self.send_state_to_all();
        self.publish();
        self.ask_to_move();
    }

    fn rematch(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        let side = self.player_side(session)?;
        if !matches!(self.judge.status(), GameStatus::Over(_)) {
            return Err(Refusal::not_allowed(
                "a rematch can be asked for once the game is over",
            ));
        }
        let opponent = side.opponent();
        let agreed = self.rematch_offer == Some(opponent) || self.seats[opponent.index()].is_bot();
        if !agreed {
            self.rematch_offer = Some(side);
            self.broadcast(&ServerMessage::RematchOffered {
                game: self.id,
                by: side,
            });
            return Ok(());
        }
        self.rematch_offer = None;
        // Colours swapped: the new first seat goes to the old second seat's holder and the other
        // way round.
        let seats = [Side::Second, Side::First].map(|old| self.seat_for_rematch(old));
        let rematch = self.shared.lobby.next_id();
        self.broadcast(&ServerMessage::RematchStarted {
            game: self.id,
            rematch,
        });
        open(&self.shared, rematch, self.setup.clone(), seats, Vec::new());
        Ok(())
    }

    /// A fresh seat for whoever held `old` in this game.
    fn seat_for_rematch(&self, old: Side) -> Seat {
        match &self.seats[old.index()] {
            Seat::Bot(bot) => Seat::Bot(bot.twin()),
            seat => seat
                .session()
                .map_or(Seat::Empty, |session| Seat::human(Arc::clone(session))),
        }
    }

    fn chat(&mut self, session: &Arc<Session>, text: &str) -> Result<(), Refusal> {
        if self.side_of(session.id).is_none() && !self.is_spectator(session.id) {
            return Err(Refusal::new(
                ErrorKind::NoSuchGame,
                format!("you are not in game {}; watch it to chat", self.id),
            ));
        }
        let text = text.trim();
        let length = text.chars().count();
        if length == 0 {
            return Err(Refusal::not_allowed("an empty chat line is not sent"));
        }
        if length > MAX_CHAT_CHARS {
            return Err(Refusal::not_allowed(format!(
                "a chat line of {length} characters is longer than the limit of \
                 {MAX_CHAT_CHARS}; split it"
            )));
        }
        // Control characters could redraw someone else's terminal.
        let text: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.broadcast(&ServerMessage::Chat {
            game: self.id,
            from: session.name.clone(),
            text,
        });
        Ok(())
    }

    fn disconnected(&mut self, player: PlayerId) {
        let Some(side) = self.side_of(player) else {
            // A spectator who goes stops watching; it can Watch again after reconnecting.
            if let Some(at) = self.spectators.iter().position(|s| s.id == player) {
                self.spectators.swap_remove(at).remove_game(self.id);
                self.publish();
            }
            return;
        };
        if !self.seats[side.index()].set_connected(false) {
            return;
        }
        if !matches!(self.judge.status(), GameStatus::Over(_)) {
            self.away[side.index()] = Some(Instant::now() + self.shared.config.grace);
        }
        self.seat_changed(side);
        self.publish();
    }

    fn reconnected(&mut self, session: &Arc<Session>) {
        if let Some(side) = self.side_of(session.id) {
            self.seats[side.index()].set_connected(true);
            self.away[side.index()] = None;
            self.seat_changed(side);
            self.publish();
        }
        if self.side_of(session.id).is_some() || self.is_spectator(session.id) {
            self.send_state(session);
        }
    }
}
