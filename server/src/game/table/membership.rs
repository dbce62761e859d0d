//! Who is at the table: the seats and the spectators, joining, a bot taken into an open seat,
//! watching, leaving, and players' connections going and coming back.

use super::Table;
use super::persistence::Unsaved;
use crate::game::seat::Seat;
use crate::players::Session;
use crate::refusal::Refusal;
use crate::storage::Participant;
use kingme_shared::Side;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{EndReason, GameStatus, PlayerId, ServerMessage};
use std::sync::Arc;
use tokio::time::Instant;

impl Table {
    pub(super) fn side_of(&self, player: PlayerId) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|side| self.seats[side.index()].is_held_by(player))
    }

    pub(super) fn is_spectator(&self, player: PlayerId) -> bool {
        self.spectators.iter().any(|s| s.id == player)
    }

    pub(super) fn is_member(&self, player: PlayerId) -> bool {
        self.side_of(player).is_some() || self.is_spectator(player)
    }

    /// The player's seat, or why it cannot act as a player.
    pub(super) fn player_side(&self, session: &Session) -> Result<Side, Refusal> {
        self.side_of(session.id).ok_or_else(|| {
            if self.is_spectator(session.id) {
                Refusal::Spectating(self.id)
            } else {
                Refusal::NotSeated(self.id)
            }
        })
    }

    /// The player's seat in a running game.
    pub(super) fn playing_side(&self, session: &Session) -> Result<Side, Refusal> {
        let side = self.player_side(session)?;
        if self.judge.is_playing() {
            Ok(side)
        } else {
            Err(Refusal::NotRunning(self.id))
        }
    }

    /// The open seat a newcomer may take.
    fn open_seat(&self) -> Option<Side> {
        if self.judge.status() != GameStatus::Open {
            return None;
        }
        Side::BOTH
            .into_iter()
            .find(|side| self.seats[side.index()].is_empty())
    }

    /// The newcomers at a new table: its seated people and spectators learn they are in the
    /// game, and the game starts if both seats are filled.
    pub(super) fn welcome_members(&mut self) {
        for session in self.members() {
            session.add_game(self.id);
        }
        if self.seats.iter().all(|seat| !seat.is_empty()) {
            self.begin();
        } else {
            self.send_state_to_all();
            self.publish();
        }
    }

    pub(super) fn join(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        if self.side_of(session.id).is_some() {
            return Err(Refusal::AlreadySeated(self.id));
        }
        if self.judge.status() != GameStatus::Open {
            return Err(Refusal::NoOpenSeat(self.id));
        }
        let side = self.open_seat().ok_or(Refusal::Full(self.id))?;
        self.spectators.retain(|s| s.id != session.id);
        self.seats[side.index()] = Seat::human(Arc::clone(session));
        self.unsaved
            .push(Unsaved::Seat(side, session.participant()));
        session.add_game(self.id);
        self.seated(side);
        // Seated now, it reads the players' room (not the spectators' it read before).
        self.send_chat_so_far(session);
        Ok(())
    }

    /// A seat was filled: the game starts when both are, else the others hear of it.
    fn seated(&mut self, side: Side) {
        self.seat_changed(side);
        if self.seats.iter().all(|seat| !seat.is_empty()) {
            self.begin();
        } else {
            if let Some(session) = self.seats[side.index()].session() {
                self.send_state(session);
            }
            self.publish();
        }
    }

    pub(super) fn attach_bot(
        &mut self,
        session: &Arc<Session>,
        level: Level,
    ) -> Result<(), Refusal> {
        let side = self.open_seat().ok_or(Refusal::NoSeatForBot(self.id))?;
        self.seats[side.index()] = Seat::bot(level, self.context.bots.clone());
        self.unsaved
            .push(Unsaved::Seat(side, Participant::Bot(level)));
        if !self.is_member(session.id) {
            // Whoever seated the bot from the lobby hears that it is seated.
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

    /// A spectator's `Watch`; from a seated player, a return: it asks for its game from a
    /// connection the table was not told of (a cluster node it reconnected to after its own
    /// died, before or after this node took the game over), so it is seated again.
    pub(super) fn watch(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        if self.side_of(session.id).is_some() {
            self.reconnected(session);
            return Ok(());
        }
        if self.is_member(session.id) {
            self.send_state(session);
        } else {
            self.spectators.push(Arc::clone(session));
            session.add_game(self.id);
            self.publish();
            self.send_state_and_chat(session);
        }
        Ok(())
    }

    pub(super) fn leave(&mut self, session: &Arc<Session>) -> Result<(), Refusal> {
        if let Some(side) = self.side_of(session.id) {
            match self.judge.status() {
                GameStatus::Playing => self.end(Some(side.opponent()), EndReason::Abandoned),
                GameStatus::Open => {
                    self.seats[side.index()] = Seat::empty();
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
            return Err(Refusal::NotInGame(self.id));
        }
        session.remove_game(self.id);
        self.post(session, ServerMessage::Left { game: self.id });
        self.publish();
        Ok(())
    }

    pub(super) fn disconnected(&mut self, player: PlayerId) {
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
            self.away[side.index()] = Some(Instant::now() + self.context.timing.grace);
        }
        self.seat_changed(side);
        self.publish();
    }

    pub(super) fn reconnected(&mut self, session: &Arc<Session>) {
        if let Some(side) = self.side_of(session.id) {
            self.seats[side.index()].set_connected(true);
            self.away[side.index()] = None;
            self.away_at_end[side.index()] = false;
            self.seat_changed(side);
            self.publish();
        }
        if self.is_member(session.id) {
            self.send_state_and_chat(session);
        }
    }
}
