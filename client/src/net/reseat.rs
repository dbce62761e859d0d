//! The games a person sits in, followed from what the server says, so that after a reconnect
//! the seats come back even when the new node does not run the game yet.
//!
//! On a cluster the node a client reconnects to may not be the one that took its game over
//! from a dead node (or the takeover may not have happened yet): its `Welcome` does not list
//! the game. The client then asks for each missing game with `Watch { game }` (a seated
//! player's `Watch` seats it again wherever the game runs; the node forwards it to the game's
//! owner), again after a growing pause, until the game's `State` comes or the server's grace
//! period for an absent player has passed. The server's "no such game" answers to these asks
//! are the expected ones while the game is being taken over, and are not passed on.

use kingme_shared::protocol::{ClientMessage, ErrorKind, GameId, GameStatus, ServerMessage};
use std::collections::BTreeSet;
use std::time::Duration;
use tokio::time::Instant;

/// How long the client keeps asking for a missing game: the server's default grace period
/// for an absent player, after which the game is lost anyway.
pub(crate) const RESEAT_FOR: Duration = Duration::from_secs(60);
/// The first pause between asks; it doubles up to [`LONGEST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(500);
const LONGEST_PAUSE: Duration = Duration::from_secs(4);

/// The player's seats, and the asks for the missing ones.
#[derive(Debug, Default)]
pub struct Seats {
    /// Games in progress the player sits in.
    seated: BTreeSet<GameId>,
    /// Seated games the current connection has not been given back yet.
    missing: BTreeSet<GameId>,
    /// When the asking started and when the next ask is due.
    since: Option<Instant>,
    next: Option<Instant>,
    pause: Duration,
    /// Asks whose answer has not come: that many "no such game" refusals are ours.
    unanswered: u32,
}

impl Seats {
    /// Follows a message from the server; `false` when it answers one of our own asks and is
    /// not for the client.
    pub fn heard(&mut self, message: &ServerMessage) -> bool {
        match message {
            ServerMessage::State(state) => {
                let over = matches!(state.status, GameStatus::Over(_));
                if self.missing.remove(&state.id) {
                    self.unanswered = self.unanswered.saturating_sub(1);
                }
                if state.your_side.is_some() && !over {
                    self.seated.insert(state.id);
                } else {
                    self.seated.remove(&state.id);
                }
            }
            ServerMessage::GameOver { game, .. } | ServerMessage::Left { game } => {
                self.seated.remove(game);
                self.missing.remove(game);
            }
            ServerMessage::Error {
                kind: ErrorKind::NoSuchGame,
                fatal: false,
                ..
            } if self.unanswered > 0 => {
                self.unanswered -= 1;
                return false;
            }
            _ => {}
        }
        if self.missing.is_empty() {
            self.since = None;
            self.next = None;
            self.unanswered = 0;
        }
        true
    }

    /// A new connection was welcomed with `games` (the games in progress it gave back): the
    /// other seated games are missing, and the first ask is due at once. Returns the missing.
    pub fn welcomed(&mut self, games: &[GameId], now: Instant) -> Vec<GameId> {
        self.missing = self
            .seated
            .iter()
            .filter(|game| !games.contains(game))
            .copied()
            .collect();
        self.seated.extend(games.iter().copied());
        self.unanswered = 0;
        if self.missing.is_empty() {
            self.since = None;
            self.next = None;
        } else {
            self.since = Some(now);
            self.next = Some(now);
            self.pause = FIRST_PAUSE;
        }
        self.missing.iter().copied().collect()
    }

    /// A node of the cluster went away while this connection stays: the games it ran move to
    /// other nodes, which do not know this player is here. Every seated game is asked for
    /// again (a game that did not move is simply sent again), as after a reconnect.
    pub(crate) fn recheck(&mut self, now: Instant) {
        self.welcomed(&[], now);
    }

    /// When the next ask is due, if any game is missing.
    #[must_use]
    pub(crate) fn next_ask(&self) -> Option<Instant> {
        self.next
    }

    /// The asks due at `now` (and the next one scheduled); the games given up on, once the
    /// grace period has passed, are dropped and returned as `Err`.
    pub fn ask(&mut self, now: Instant) -> Result<Vec<ClientMessage>, Vec<GameId>> {
        let Some(since) = self.since else {
            return Ok(Vec::new());
        };
        if now.duration_since(since) >= RESEAT_FOR {
            let lost: Vec<GameId> = std::mem::take(&mut self.missing).into_iter().collect();
            for game in &lost {
                self.seated.remove(game);
            }
            self.since = None;
            self.next = None;
            self.unanswered = 0;
            return Err(lost);
        }
        self.next = Some(now + self.pause);
        self.pause = (self.pause * 2).min(LONGEST_PAUSE);
        let asks: Vec<ClientMessage> = self
            .missing
            .iter()
            .map(|&game| ClientMessage::Watch { game })
            .collect();
        self.unanswered = self
            .unanswered
            .saturating_add(u32::try_from(asks.len()).unwrap_or(u32::MAX));
        Ok(asks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::protocol::GameResult;

    fn refusal() -> ServerMessage {
        ServerMessage::Error {
            kind: ErrorKind::NoSuchGame,
            message: "there is no game 7".to_owned(),
            fatal: false,
        }
    }

    fn over(game: u64) -> ServerMessage {
        ServerMessage::GameOver {
            game: GameId(game),
            result: GameResult {
                winner: None,
                reason: kingme_shared::protocol::EndReason::Aborted,
            },
            clocks: kingme_shared::protocol::ClockState {
                remaining_ms: [None, None],
                running: None,
            },
        }
    }

    #[test]
    fn a_game_missing_after_a_reconnect_is_asked_for_until_it_comes_back() {
        let mut seats = Seats::default();
        let start = Instant::now();
        seats.welcomed(&[GameId(7), GameId(8)], start);
        assert_eq!(seats.next_ask(), None);
        // The game 8 ends; the next node gives back neither.
        assert!(seats.heard(&over(8)));
        assert_eq!(seats.welcomed(&[], start), [GameId(7)]);
        assert_eq!(seats.next_ask(), Some(start));
        assert_eq!(
            seats.ask(start),
            Ok(vec![ClientMessage::Watch { game: GameId(7) }])
        );
        // The takeover has not happened: the refusal is ours, not the player's.
        assert!(!seats.heard(&refusal()));
        assert!(seats.heard(&refusal()), "a refusal we did not ask for");
        let second = seats.next_ask().unwrap();
        assert_eq!(second - start, FIRST_PAUSE);
        assert_eq!(seats.ask(second).unwrap().len(), 1);
        assert_eq!(seats.next_ask().unwrap() - second, FIRST_PAUSE * 2);
    }

    #[test]
    fn every_seated_game_is_asked_for_when_a_node_goes() {
        let mut seats = Seats::default();
        let start = Instant::now();
        seats.welcomed(&[GameId(3), GameId(4)], start);
        seats.recheck(start);
        assert_eq!(seats.ask(start).unwrap().len(), 2);
        assert!(seats.heard(&over(4)));
        assert_eq!(
            seats.ask(seats.next_ask().unwrap()),
            Ok(vec![ClientMessage::Watch { game: GameId(3) }])
        );
    }

    #[test]
    fn a_missing_game_is_given_up_after_the_grace_period() {
        let mut seats = Seats::default();
        let start = Instant::now();
        seats.welcomed(&[GameId(3)], start);
        seats.welcomed(&[], start);
        assert!(seats.ask(start).is_ok());
        assert_eq!(seats.ask(start + RESEAT_FOR), Err(vec![GameId(3)]));
        assert_eq!(seats.next_ask(), None);
        // Not asked for again after the next reconnect.
        assert!(seats.welcomed(&[], start + RESEAT_FOR).is_empty());
    }
}
