//! A game's two chat rooms, as on lichess: the players talk between themselves and the
//! spectators among themselves, neither reading the other. The table keeps each room's latest
//! lines within a bound, so that a person who comes back (a reconnect, a new client) or starts
//! watching reads what was said before in their room (issue 32, defects 8 and 10). Kept in
//! memory only: a restarted server or a game taken over by another node starts with none.

use super::Table;
use crate::players::Session;
use kingme_shared::protocol::{GameId, ServerMessage};
use std::collections::VecDeque;
use std::sync::Arc;

/// How many of a room's latest lines are kept and sent again: at most 300 characters each, so
/// a member's outbox takes them at once beside the game's own messages.
pub(super) const CHAT_KEPT: usize = 40;

/// Who reads a chat line: the room of the one who said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ChatRoom {
    /// The two seated players.
    Players,
    /// Everyone watching.
    Spectators,
}

/// The latest [`CHAT_KEPT`] lines said in each room of a table, oldest first.
#[derive(Debug, Default)]
pub(super) struct ChatLog {
    players: VecDeque<(String, String)>,
    spectators: VecDeque<(String, String)>,
}

impl ChatLog {
    /// Keeps a line as it was sent to the room, dropping the room's oldest beyond the bound.
    pub(super) fn keep(&mut self, room: ChatRoom, from: &str, text: &str) {
        let lines = self.room_mut(room);
        if lines.len() == CHAT_KEPT {
            lines.pop_front();
        }
        lines.push_back((from.to_owned(), text.to_owned()));
    }

    /// The room's kept lines as the `Chat` messages that first carried them, oldest first.
    pub(super) fn replay(
        &self,
        room: ChatRoom,
        game: GameId,
    ) -> impl Iterator<Item = ServerMessage> + '_ {
        let lines = match room {
            ChatRoom::Players => &self.players,
            ChatRoom::Spectators => &self.spectators,
        };
        lines.iter().map(move |(from, text)| ServerMessage::Chat {
            game,
            from: from.clone(),
            text: text.clone(),
        })
    }

    fn room_mut(&mut self, room: ChatRoom) -> &mut VecDeque<(String, String)> {
        match room {
            ChatRoom::Players => &mut self.players,
            ChatRoom::Spectators => &mut self.spectators,
        }
    }
}

impl Table {
    /// The room a member reads: the players' if it is seated, else the spectators'.
    pub(super) fn room_of(&self, session: &Session) -> ChatRoom {
        if self.side_of(session.id).is_some() {
            ChatRoom::Players
        } else {
            ChatRoom::Spectators
        }
    }

    /// The members who read `room`, connected or not.
    pub(super) fn room_members(&self, room: ChatRoom) -> Vec<Arc<Session>> {
        match room {
            ChatRoom::Players => self
                .seats
                .iter()
                .filter_map(|seat| seat.session())
                .cloned()
                .collect(),
            ChatRoom::Spectators => self.spectators.clone(),
        }
    }

    /// Sends a member its room's chat so far (new to the table, seated from watching, or back
    /// on a new connection).
    pub(super) fn send_chat_so_far(&self, session: &Arc<Session>) {
        for line in self.chat.replay(self.room_of(session), self.id) {
            self.post(session, line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(log: &ChatLog, room: ChatRoom) -> Vec<String> {
        log.replay(room, GameId(3))
            .map(|message| match message {
                ServerMessage::Chat { game, text, .. } => {
                    assert_eq!(game, GameId(3));
                    text
                }
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn each_room_keeps_its_latest_lines_in_order_within_the_bound() {
        let mut log = ChatLog::default();
        for n in 0..CHAT_KEPT + 5 {
            log.keep(ChatRoom::Players, "ada", &format!("line {n}"));
        }
        log.keep(ChatRoom::Spectators, "cy", "who wins?");
        let players = texts(&log, ChatRoom::Players);
        assert_eq!(players.len(), CHAT_KEPT);
        assert_eq!(players.first().map(String::as_str), Some("line 5"));
        assert_eq!(
            players.last().map(String::as_str),
            Some(format!("line {}", CHAT_KEPT + 4).as_str())
        );
        assert_eq!(texts(&log, ChatRoom::Spectators), ["who wins?"]);
    }
}
