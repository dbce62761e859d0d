//! What the table tells: messages to members (held in the mail until the changes they announce
//! are stored), the full state of the game for one member, and the one place a game's summary
//! for the lobby is built.

use super::Table;
use crate::game::judge::Judge;
use crate::game::remote::RemoteMail;
use crate::options::GameSetup;
use crate::players::Session;
use kingme_shared::Side;
use kingme_shared::protocol::{GameId, GameState, GameSummary, SeatHolder, ServerMessage};
use std::sync::Arc;
use tokio::time::Instant;

/// A message held until the changes it announces are stored.
#[derive(Debug)]
pub(super) enum Mail {
    /// For one player, with whether it is a member of the game once it has it.
    One {
        to: Arc<Session>,
        member: bool,
        message: ServerMessage,
    },
    /// For every member (those when it was posted).
    All {
        to: Vec<Arc<Session>>,
        message: ServerMessage,
    },
}

/// A game's line in the lobby.
pub(super) fn game_summary(
    id: GameId,
    setup: &GameSetup,
    judge: &Judge,
    seats: [SeatHolder; 2],
    spectators: usize,
) -> GameSummary {
    GameSummary {
        id,
        spec: setup.spec,
        seats,
        time_control: setup.time_control,
        moves: u32::try_from(judge.moves().len()).unwrap_or(u32::MAX),
        status: judge.status(),
        spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
    }
}

impl Table {
    /// Everyone who hears of the game: the seated people and the spectators.
    pub(super) fn members(&self) -> impl Iterator<Item = &Arc<Session>> {
        self.seats
            .iter()
            .filter_map(|seat| seat.session())
            .chain(self.spectators.iter())
    }

    /// Holds a message for one player until the command's changes are stored.
    pub(super) fn post(&self, session: &Arc<Session>, message: ServerMessage) {
        // `Left` is the last a player hears of a game it was in.
        let member = self.is_member(session.id) && !matches!(message, ServerMessage::Left { .. });
        self.mail.borrow_mut().push(Mail::One {
            to: Arc::clone(session),
            member,
            message,
        });
    }

    /// Sends the held mail and refreshes the lobby's summary. A message for every member goes
    /// to each member connected here and once, whatever their number, to those connected at
    /// other nodes.
    pub(super) fn deliver(&self) {
        let mail = std::mem::take(&mut *self.mail.borrow_mut());
        for mail in mail {
            match mail {
                Mail::One {
                    to,
                    member,
                    message,
                } => self.send_now(&to, member, message),
                Mail::All { to, message } => {
                    let mut elsewhere = false;
                    for session in &to {
                        if self.context.remote.is_some() && session.is_relayed() {
                            elsewhere = true;
                        } else {
                            session.send(message.clone());
                        }
                    }
                    if let Some(remote) = self.context.remote.as_ref().filter(|_| elsewhere) {
                        remote.send(self.id, RemoteMail::Everyone(message));
                    }
                }
            }
        }
        if self.publish_due.replace(false) {
            self.publish_now();
        }
    }

    /// Sends a message to one player now (not held): through its connection here, or through
    /// the fan-out when it is connected at another node. `member`: whether it is a member of
    /// the game once it has the message.
    pub(super) fn send_now(&self, session: &Session, member: bool, message: ServerMessage) {
        match &self.context.remote {
            Some(remote) if session.is_relayed() => remote.send(
                self.id,
                RemoteMail::One {
                    to: session,
                    member,
                    message,
                },
            ),
            _ => session.send(message),
        }
    }

    /// Sends to both players and every spectator.
    pub(super) fn broadcast(&self, message: &ServerMessage) {
        let to = self.members().cloned().collect();
        self.mail.borrow_mut().push(Mail::All {
            to,
            message: message.clone(),
        });
    }

    fn state_for(&self, your_side: Option<Side>) -> GameState {
        let game = self.judge.game();
        GameState {
            id: self.id,
            spec: self.setup.spec,
            seats: self.holders(),
            your_side,
            time_control: self.setup.time_control,
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
    pub(super) fn send_state(&self, session: &Arc<Session>) {
        let side = self.side_of(session.id);
        self.post(session, ServerMessage::State(self.state_for(side)));
        if self.judge.is_playing() && side == Some(self.judge.side_to_move()) {
            self.post(session, self.your_turn());
        }
    }

    /// Sends the full state to a member new to the table or back after a lost connection, with
    /// the chat so far after it (a client keeps its chat across the `State`s of one
    /// connection, so those are not sent it again).
    pub(super) fn send_state_and_chat(&self, session: &Arc<Session>) {
        self.send_state(session);
        self.send_chat_so_far(session);
    }

    pub(super) fn your_turn(&self) -> ServerMessage {
        ServerMessage::YourTurn {
            game: self.id,
            legal_moves: self.judge.game().legal_move_texts(),
            clocks: self.judge.clocks(Instant::now()),
        }
    }

    /// Every member gets the full state (at creation, start and after a takeback).
    pub(super) fn send_state_to_all(&self) {
        for side in Side::BOTH {
            if let Some(session) = self.seats[side.index()].session() {
                self.post(session, ServerMessage::State(self.state_for(Some(side))));
            }
        }
        for spectator in &self.spectators {
            self.post(spectator, ServerMessage::State(self.state_for(None)));
        }
    }

    /// Refreshes the lobby's summary once the command's changes are stored.
    pub(super) fn publish(&self) {
        self.publish_due.set(true);
    }

    pub(super) fn publish_now(&self) {
        self.gauge.set(super::state_label(self.judge.status()));
        self.summary.send_replace(game_summary(
            self.id,
            &self.setup,
            &self.judge,
            self.holders(),
            self.spectators.len(),
        ));
        self.context.registry.changed();
    }

    pub(super) fn seat_changed(&self, side: Side) {
        self.broadcast(&ServerMessage::SeatChanged {
            game: self.id,
            side,
            holder: self.holder(side),
        });
    }

    /// How a seat looks to others: its holder, with the time left to return while its person
    /// is away.
    pub(super) fn holder(&self, side: Side) -> SeatHolder {
        let mut holder = self.seats[side.index()].holder();
        if let SeatHolder::Human { grace_left_ms, .. } = &mut holder {
            *grace_left_ms = self.away[side.index()].map(|deadline| {
                let left = deadline.saturating_duration_since(Instant::now());
                u64::try_from(left.as_millis()).unwrap_or(u64::MAX)
            });
        }
        holder
    }

    fn holders(&self) -> [SeatHolder; 2] {
        [self.holder(Side::First), self.holder(Side::Second)]
    }
}
