//! The table's game in the database. The game is stored before its table opens (see
//! `creation`); each accepted move is stored before anyone hears of it (a move that cannot be stored
//! is undone and refused); seat changes, takebacks and the result are stored, in order, after
//! the command that made them and before anyone hears of them: every message a command produces
//! is held in the table's mail until its changes are stored. When the database fails, the game
//! pauses: its members are told so, requests are refused with the reason, and the table tries
//! again until the changes are stored, then delivers what it held and goes on.

use super::Table;
use crate::game::ownership::Lease;
use crate::game::table_handle::TableCommand;
use crate::players::Session;
use crate::refusal::Refusal;
use crate::storage::records::unix_ms;
use crate::storage::{Participant, StoreError, StoredMove};
use kingme_shared::protocol::{ClientMessage, ClockState, GameResult, ServerMessage};
use std::sync::Arc;
use tokio::time::Instant;

/// How often a game paused by a storage failure tries to store again.
const STORE_RETRY: std::time::Duration = std::time::Duration::from_secs(2);

/// A change to store once the command that made it is handled (moves are stored at once).
#[derive(Debug)]
pub(super) enum Unsaved {
    Seat(kingme_shared::Side, Participant),
    /// The moves after the first this many were taken back.
    TakeBack(u32),
    Finish(GameResult),
}

/// What a game paused by a storage failure waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Waiting {
    /// Changes in `unsaved` (and the mail announcing them).
    Changes,
    /// A bot's move, undone because it could not be stored: the bot is asked again.
    BotMove,
}

/// A game paused because the database failed.
#[derive(Debug)]
pub(super) struct Paused {
    pub(super) waiting: Waiting,
    pub(super) retry_at: Instant,
    reason: StoreError,
}

impl Table {
    /// After each command: stores its changes, then delivers what it said; if storing fails,
    /// the game pauses and nothing of it is announced.
    pub(super) async fn settle(&mut self) {
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
                    if self.seats[self.judge.side_to_move().index()].moves_by_itself() {
                        self.ask_bot_again();
                    }
                }
                if self.paused.is_none() {
                    self.deliver();
                }
            }
            Err(err) => self.pause(Waiting::Changes, err),
        }
    }

    /// Pauses the game because the database failed, telling every member (at once: this is
    /// the truth about the game, not an unstored change) the first time.
    pub(super) fn pause(&mut self, waiting: Waiting, reason: StoreError) {
        self.note_fenced(&reason);
        let retry_at = Instant::now() + STORE_RETRY;
        let first = self.paused.is_none();
        tracing::error!(game = %self.id, %reason, ?waiting, "the game is paused: storage failed");
        if first {
            // The wait is nobody's time.
            self.judge.hold_clock(Instant::now());
            let notice = ServerMessage::Error {
                kind: kingme_shared::protocol::ErrorKind::NotStored,
                message: format!(
                    "game {} is paused: the server could not store its last change ({reason}); \
                     nothing is lost, and it goes on by itself once the database works again",
                    self.id
                ),
                fatal: false,
            };
            for session in self.members() {
                self.send_now(session, true, notice.clone());
            }
        }
        self.paused = Some(Paused {
            waiting,
            retry_at,
            reason,
        });
    }

    /// Asks the bot to move again (its earlier answer could not be stored or was dropped).
    pub(super) fn ask_bot_again(&mut self) {
        if let Some(paused) = &mut self.paused {
            paused.retry_at = Instant::now() + STORE_RETRY;
        }
        for seat in &mut self.seats {
            seat.stop();
        }
        self.ask_to_move();
    }

    /// A command while the game waits for the database: requests are refused with the reason
    /// (nothing may change that cannot be stored), connections coming and going are noted, and
    /// a bot's answer is tried when a bot's move is what the game waits for.
    pub(super) async fn while_paused(&mut self, command: TableCommand) {
        let Some(paused) = &self.paused else {
            return;
        };
        let refusal = Refusal::Paused {
            game: self.id,
            reason: paused.reason.clone(),
        };
        match command {
            TableCommand::Request { session, message } => {
                let member = self.is_member(session.id);
                let answer = match message {
                    ClientMessage::Move { text, .. } => refusal.move_rejected(self.id, &text),
                    _ => refusal.to_message(false),
                };
                self.send_now(&session, member, answer);
            }
            TableCommand::BotMoved(_) if paused.waiting == Waiting::BotMove => {
                self.handle(command).await;
            }
            TableCommand::BotMoved(_) => {}
            command @ (TableCommand::Disconnected { .. } | TableCommand::Reconnected { .. }) => {
                self.handle(command).await;
            }
            // An end could not be stored either; the admin hears that the database fails.
            TableCommand::Banned { .. } | TableCommand::Close => {
                tracing::warn!(game = %self.id, "an admin's command for a paused game was not carried out");
            }
        }
    }

    /// Runs the game under `lease` from now on: every write carries its token.
    pub(super) fn hold(&mut self, lease: Option<Lease>) {
        self.storage = self
            .context
            .storage
            .fenced(lease.as_ref().map(|lease| lease.fence));
        self.lease = lease;
    }

    /// The lease was lost while the server goes on: another node runs the game now (from what
    /// is stored; nothing unstored was announced). The table leaves the registry first (from
    /// then on the game's messages from its new node reach members here through the relay),
    /// then hands its members over: each is seated again at the new node on its own
    /// connection, and gets the game's state from there.
    pub(super) fn moved_away(&mut self) {
        tracing::warn!(game = %self.id, "lost the game's lease; another node runs it now");
        let members: Vec<Arc<Session>> = self.members().cloned().collect();
        for session in &members {
            session.remove_game(self.id);
        }
        self.context
            .registry
            .remove(self.id, self.summary.borrow().clone());
        match &self.context.handover {
            Some(handover) => handover.hand_over(self.id, members),
            None => {
                let notice = Refusal::MovedAway {
                    game: self.id,
                    reason: "this server has no way to reach its other nodes".to_owned(),
                }
                .to_message(false);
                for session in &members {
                    self.send_now(session, false, notice.clone());
                }
            }
        }
    }

    /// Stores the changes of the command just handled, in the order they were made. On a
    /// failure the change that failed and those after it stay queued for the next try.
    pub(super) async fn save(&mut self) -> Result<(), StoreError> {
        let storage = self.storage.clone();
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
    pub(super) async fn store_move(
        &mut self,
        ply: u32,
        text: &str,
        clocks: ClockState,
    ) -> Result<(), StoreError> {
        // Changes made earlier in this command (a seat) go first, in order.
        self.save().await?;
        let stored = StoredMove {
            ply,
            text: text.to_owned(),
            clocks_ms: clocks.remaining_ms,
            played_at_ms: unix_ms(),
        };
        self.storage
            .record_move(self.id, stored)
            .await
            .inspect_err(|err| {
                tracing::error!(game = %self.id, %err, "could not store a move");
                self.note_fenced(err);
            })
    }

    /// A write refused for an old fencing token: another node runs the game now, so this
    /// table stops (see `moved_away`).
    fn note_fenced(&self, err: &StoreError) {
        if matches!(err, StoreError::Fenced { .. })
            && let Some(lease) = &self.lease
        {
            lease.lost.cancel();
        }
    }
}
