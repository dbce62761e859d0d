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

/// `sends` reordered so that each recipient's messages follow one another, in the order they
/// were posted (the order between recipients does not matter: each has its own connection).
///
/// Handed over as posted (a move's `MovePlayed` for both players, then `YourTurn` for the next
/// mover), the second player's `MovePlayed` could wake its writer and push the next mover's
/// writer to where the other worker thread takes it at once: that one then wrote `MovePlayed`
/// alone and `YourTurn` in a second write, a TLS record and a client's read more: 3.7 to 3.9
/// writes a move for one pair of players where it now makes 3.6 (docs/measurements/floor.md,
/// "One write a recipient, thirteenth session").
fn by_recipient<R, T>(mut sends: Vec<(Arc<R>, T)>) -> Vec<(Arc<R>, T)> {
    // Stable: one recipient's messages keep their order.
    sends.sort_by_key(|(recipient, _)| Arc::as_ptr(recipient));
    sends
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
    /// other nodes. Each player connected here is handed its messages one after the other
    /// ([`by_recipient`]), so its connection finds them all queued and writes them together.
    pub(super) fn deliver(&self) {
        let mail = std::mem::take(&mut *self.mail.borrow_mut());
        let mut here = Vec::with_capacity(mail.len() + 1);
        for mail in mail {
            match mail {
                Mail::One {
                    to,
                    member,
                    message,
                } => {
                    if self.is_elsewhere(&to) {
                        self.send_now(&to, member, message);
                    } else {
                        here.push((to, message));
                    }
                }
                Mail::All { to, message } => {
                    let mut elsewhere = false;
                    for session in to {
                        if self.is_elsewhere(&session) {
                            elsewhere = true;
                        } else {
                            here.push((session, message.clone()));
                        }
                    }
                    if let Some(remote) = self.context.remote.as_ref().filter(|_| elsewhere) {
                        remote.send(self.id, RemoteMail::Everyone(message));
                    }
                }
            }
        }
        for (session, message) in by_recipient(here) {
            session.send(message);
        }
        if self.publish_due.replace(false) {
            self.publish_now();
        }
    }

    /// Whether `session` is connected at another node (its messages go through the fan-out).
    fn is_elsewhere(&self, session: &Session) -> bool {
        self.context.remote.is_some() && session.is_relayed()
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

#[cfg(test)]
mod tests {
    use super::by_recipient;
    use std::sync::Arc;

    /// Who gets what, in the order handed over.
    fn order(sends: &[(Arc<i32>, &'static str)]) -> Vec<(i32, &'static str)> {
        sends.iter().map(|(to, what)| (**to, *what)).collect()
    }

    /// What `recipient` gets, in order.
    fn of(sends: &[(i32, &'static str)], recipient: i32) -> Vec<&'static str> {
        sends
            .iter()
            .filter(|(to, _)| *to == recipient)
            .map(|(_, what)| *what)
            .collect()
    }

    #[test]
    fn each_recipients_messages_come_together_in_the_order_posted() {
        let [first, second, spectator] = [1, 2, 3].map(Arc::new);
        // A move: announced to everyone, then the next mover told it is its turn.
        let posted = vec![
            (Arc::clone(&first), "played"),
            (Arc::clone(&second), "played"),
            (Arc::clone(&spectator), "played"),
            (Arc::clone(&first), "your turn"),
            (Arc::clone(&second), "clock"),
        ];
        let sent = order(&by_recipient(posted.clone()));
        for recipient in [1, 2, 3] {
            assert_eq!(of(&sent, recipient), of(&order(&posted), recipient));
            let at: Vec<usize> = (0..sent.len())
                .filter(|i| sent[*i].0 == recipient)
                .collect();
            assert_eq!(
                at.len(),
                at[at.len() - 1] - at[0] + 1,
                "recipient {recipient}'s messages follow one another: {sent:?}"
            );
        }
    }
}
