//! A table: the task that owns one game. It holds the [`Judge`], the two seats and the
//! spectators, runs the clocks' deadlines and the absent players' grace periods, and is the only
//! place the game changes: connections and bots send it commands through a bounded channel and
//! it answers through the players' sessions, so no lock is ever held around a game.
//!
//! The table is split by concern: [`creation`] (a new game stored before its table opens),
//! [`requests`] (what a command or request does),
//! [`membership`] (seats, spectators, comings and goings), [`offering`] (draws, takebacks and
//! rematches through one offer and answer path), [`course`] (the game's course: turns, moves,
//! the end, time), [`moderation`] (what an admin's ban or close does to the game), [`persistence`] (the database, and pausing when it fails) and [`view`] (what
//! members and the lobby are told). This file holds the task's state, its one constructor
//! (shared by a new game and a resumed one) and its loop.

mod chat_log;
mod course;
mod creation;
mod membership;
mod moderation;
mod offering;
mod persistence;
#[cfg(test)]
mod remote_tests;
mod requests;
mod view;

use super::archive;
use super::context::TableContext;
use super::judge::Judge;
use super::offers::Offers;
use super::ownership::Lease;
use super::seat::Seat;
use super::table_handle::{COMMAND_QUEUE, TableCommand, TableHandle};
use crate::options::GameSetup;
use crate::players::Session;
use crate::storage::{Storage, StoredGame};
use crate::telemetry::GameGauge;
pub use creation::create;
use kingme_shared::protocol::{EndReason, GameId, GameStatus, GameSummary, ServerMessage};
use persistence::{Paused, Unsaved, Waiting};
use std::cell::{Cell, RefCell};
use std::pin::pin;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// Why a stored game could not be reopened.
pub use crate::game::archive::ReadBackError as ResumeError;

/// Reopens a stored game that was in progress when the server stopped: the moves replayed
/// through the rules, the clocks as after the last move (the downtime charged to nobody), bots
/// seated again and thinking if it is their turn, and people's seats held for them for the
/// grace period, waiting for them to come back.
///
/// On a cluster node the caller has taken the game's `lease` first (and read `stored` after):
/// the table writes only under it.
pub fn resume(
    context: &Arc<TableContext>,
    stored: &StoredGame,
    seats: [Seat; 2],
    lease: Option<Lease>,
) -> Result<TableHandle, ResumeError> {
    let game = &stored.game;
    let setup = archive::setup_of(stored)?;
    let now = Instant::now();
    let judge = Judge::resume(&setup, &stored.moves, now).map_err(ResumeError::Replay)?;
    let (mut table, handle, receiver) = Table::new(context, game.id, setup, judge, seats);
    table.hold(lease);
    let grace = now + context.timing.grace;
    table.away = [0, 1].map(|index| table.seats[index].session().map(|_| grace));
    for seat in &table.seats {
        if let Some(session) = seat.session() {
            session.add_game(game.id);
        }
    }
    tracing::info!(game = %game.id, moves = stored.moves.len(), "game resumed");
    table.publish();
    match table.judge.status() {
        GameStatus::Over(result) => table.announce_end(result),
        _ => table.ask_to_move(),
    }
    context.tasks.spawn(table.run(receiver));
    Ok(handle)
}

/// One game's task state.
struct Table {
    id: GameId,
    setup: GameSetup,
    judge: Judge,
    seats: [Seat; 2],
    spectators: Vec<Arc<Session>>,
    /// Whether a person created the game here (then a game between bots is paced for people
    /// to follow even while nobody watches; see `course.rs`).
    created_by_person: bool,
    context: Arc<TableContext>,
    /// Where the game is written: the server's storage, fenced with the lease's token on a
    /// cluster node.
    storage: Storage,
    /// The node's lease on the game (cluster nodes only).
    lease: Option<Lease>,
    /// The table's own command queue, for bots' answers.
    commands: mpsc::Sender<TableCommand>,
    summary: watch::Sender<GameSummary>,
    offers: Offers,
    /// When each absent player's grace period ends.
    away: [Option<Instant>; 2],
    /// Which players were away when the game ended: the finished table waits the grace period
    /// for them to come back and see how it ended. A player who saw the end and then went is
    /// not waited for.
    away_at_end: [bool; 2],
    ended_at: Option<Instant>,
    /// Changes made by the command being handled, stored in order once it is done.
    unsaved: Vec<Unsaved>,
    /// Messages to members, held until the changes they announce are stored.
    mail: RefCell<Vec<view::Mail>>,
    /// Whether the lobby's summary is to be refreshed when the mail goes out.
    publish_due: Cell<bool>,
    /// Set while the game waits for the database.
    paused: Option<Paused>,
    /// The game counted in `kingme_games` under its state (as of the last summary).
    gauge: GameGauge,
    /// The chat so far, sent again to a member who comes back or starts watching.
    chat: chat_log::ChatLog,
}

impl Table {
    /// The one constructor: a table around `judge` for a game stored under `id`, registered,
    /// with its handle and the receiving end of its commands.
    fn new(
        context: &Arc<TableContext>,
        id: GameId,
        setup: GameSetup,
        judge: Judge,
        seats: [Seat; 2],
    ) -> (Table, TableHandle, mpsc::Receiver<TableCommand>) {
        let (commands, receiver) = mpsc::channel(COMMAND_QUEUE);
        let holders = [seats[0].holder(), seats[1].holder()];
        let (summary, summary_receiver) =
            watch::channel(view::game_summary(id, &setup, &judge, holders, 0));
        let handle = TableHandle::new(id, commands.clone(), summary_receiver);
        let gauge = GameGauge::new(setup.spec.kind().name(), state_label(judge.status()));
        let table = Table {
            id,
            setup,
            judge,
            seats,
            spectators: Vec::new(),
            created_by_person: false,
            context: Arc::clone(context),
            storage: context.storage.clone(),
            lease: None,
            commands,
            summary,
            offers: Offers::default(),
            away: [None, None],
            away_at_end: [false, false],
            ended_at: None,
            unsaved: Vec::new(),
            mail: RefCell::new(Vec::new()),
            publish_due: Cell::new(false),
            paused: None,
            gauge,
            chat: chat_log::ChatLog::default(),
        };
        context.registry.insert(handle.clone());
        (table, handle, receiver)
    }

    async fn run(mut self, mut commands: mpsc::Receiver<TableCommand>) {
        // The shutdown, or (a child of it) the lease's loss.
        let shutdown = self
            .lease
            .as_ref()
            .map_or_else(|| self.context.games.clone(), |lease| lease.lost.clone());
        // The waits are made once, not on every command: a new one would register with the token
        // (a lock every table shares) and with the timer wheel each time. The timer is moved only
        // when the next deadline changes.
        let mut stopped = pin!(shutdown.cancelled());
        let mut timer = pin!(tokio::time::sleep_until(Instant::now()));
        let mut armed: Option<Instant> = None;
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
            if wake != armed {
                if let Some(wake) = wake {
                    timer.as_mut().reset(wake);
                }
                armed = wake;
            }
            tokio::select! {
                () = &mut stopped => {
                    if self.paused.is_some() {
                        // Nothing held back was stored: none of it is announced.
                        self.mail.get_mut().clear();
                    }
                    // A game cut short by a shutdown stays as stored, unfinished, and the next
                    // start resumes it: nothing is announced (the players' connections say the
                    // server is going down and that their games are kept).
                    self.suspend();
                    self.deliver();
                    if !self.context.games.is_cancelled() {
                        self.moved_away();
                    }
                    return;
                }
                command = commands.recv() => match command {
                    Some(command) if self.paused.is_some() => self.while_paused(command).await,
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = &mut timer, if armed.is_some() => match self.paused.as_ref().map(|p| p.waiting) {
                    Some(Waiting::BotMove) => self.ask_bot_again(),
                    Some(Waiting::Changes) => {}
                    None => self.on_time(Instant::now()),
                },
            }
            self.settle().await;
        }
        self.close();
    }

    /// Leaves the registry: the seats stop thinking, members are told, and the last summary
    /// is kept for the lobby's list of finished games.
    fn close(&mut self) {
        for seat in &mut self.seats {
            seat.stop();
        }
        let left = ServerMessage::Left { game: self.id };
        for session in self.members() {
            session.remove_game(self.id);
            self.post(session, left.clone());
        }
        self.deliver();
        self.publish_now();
        self.context
            .registry
            .remove(self.id, self.summary.borrow().clone());
        tracing::debug!(game = %self.id, "table closed");
    }
}

/// A game's state as the metric `kingme_games` labels it.
fn state_label(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Open => "open",
        GameStatus::Playing => "playing",
        GameStatus::Over(_) => "over",
    }
}
