//! The game's chat so far, kept by its table within a bound, so that a person who comes back
//! (a reconnect, a new client) or starts watching reads what was said before (issue 32,
//! defect 8). Kept in memory only: a restarted server or a game taken over by another node
//! starts with none.

use kingme_shared::protocol::{GameId, ServerMessage};
use std::collections::VecDeque;

/// How many of the latest lines are kept and sent again: at most 300 characters each, so a
/// member's outbox takes them at once beside the game's own messages.
pub(super) const CHAT_KEPT: usize = 40;

/// The latest [`CHAT_KEPT`] lines said at a table, oldest first.
#[derive(Debug, Default)]
pub(super) struct ChatLog {
    lines: VecDeque<(String, String)>,
}

impl ChatLog {
    /// Keeps a line as it was sent to the members, dropping the oldest beyond the bound.
    pub(super) fn keep(&mut self, from: &str, text: &str) {
        if self.lines.len() == CHAT_KEPT {
            self.lines.pop_front();
        }
        self.lines.push_back((from.to_owned(), text.to_owned()));
    }

    /// The kept lines as the `Chat` messages that first carried them, oldest first.
    pub(super) fn replay(&self, game: GameId) -> impl Iterator<Item = ServerMessage> + '_ {
        self.lines
            .iter()
            .map(move |(from, text)| ServerMessage::Chat {
                game,
                from: from.clone(),
                text: text.clone(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_lines_are_kept_in_order_within_the_bound() {
        let mut log = ChatLog::default();
        for n in 0..CHAT_KEPT + 5 {
            log.keep("ada", &format!("line {n}"));
        }
        let texts: Vec<String> = log
            .replay(GameId(3))
            .map(|message| match message {
                ServerMessage::Chat { game, text, .. } => {
                    assert_eq!(game, GameId(3));
                    text
                }
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(texts.len(), CHAT_KEPT);
        assert_eq!(texts.first().map(String::as_str), Some("line 5"));
        assert_eq!(
            texts.last().map(String::as_str),
            Some(format!("line {}", CHAT_KEPT + 4).as_str())
        );
    }
}
