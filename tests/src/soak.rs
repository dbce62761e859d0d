//! The soak cycle: a player connects, starts a game against a bot, plays a few moves and
//! vanishes without a word (no leave, no resign), as a crashed client or a dropped network
//! would. Thousands of these, run by `kingme-hostile --soak-seconds`, show whether the server's
//! memory grows with the number of past connections: every such player leaves a session, a
//! seat and a table behind that the server must let go once the grace period is over.
//!
//! A burst ([`open_and_vanish`], `--burst-games`) is the other shape of load: thousands of
//! players open a game at once and vanish, so thousands of open games are aborted together when
//! their creators' grace periods end. After either, [`MemoryCheck`] judges whether the server's
//! memory came back near where it started.

use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameOptions, Opponent, SeatChoice, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, Side};
use kingme_testkit::{Client, open_game};
use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::net::SocketAddr;

/// One cycle: hello, a game of a random kind against the random bot, up to `max_moves` random
/// legal moves, then the connection dropped. Returns the moves played.
pub async fn abrupt_cycle(addr: SocketAddr, max_moves: usize, rng: &mut StdRng) -> usize {
    let mut client = Client::hello(addr, "soak").await;
    let kind = *[GameKind::TicTacToe, GameKind::Checkers, GameKind::Pente]
        .choose(rng)
        .unwrap_or(&GameKind::TicTacToe);
    let state = client
        .create(GameOptions {
            spec: kind.into(),
            seat: SeatChoice::Side(Side::First),
            opponent: Opponent::Bot(Level::Random),
            time_control: TimeControl::Unlimited,
            start_position: None,
            rated: false,
        })
        .await;
    let moves = rng.random_range(0..=max_moves);
    for played in 0..moves {
        let turn = client
            .until(|message| match message {
                ServerMessage::YourTurn {
                    game, legal_moves, ..
                } if game == state.id => Some(Some(legal_moves)),
                ServerMessage::GameOver { game, .. } if game == state.id => Some(None),
                _ => None,
            })
            .await;
        let Some(text) = turn.as_deref().and_then(|legal| legal.choose(rng)) else {
            return played;
        };
        client
            .send(ClientMessage::Move {
                game: state.id,
                text: text.clone(),
            })
            .await;
    }
    // Dropping the client closes the socket with no goodbye.
    drop(client);
    moves
}

/// One burst player: hello, a game of `kind` with an open seat, then the connection dropped, so
/// the game is aborted when the grace period ends.
pub async fn open_and_vanish(addr: SocketAddr, kind: GameKind) {
    let mut client = Client::hello(addr, "burst").await;
    client.create(open_game(kind)).await;
    drop(client);
}

/// How much a server's resident memory may exceed its cold baseline once a load has left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryCheck {
    /// The most memory after the load, as a multiple of the baseline.
    pub ratio: f64,
}

impl MemoryCheck {
    /// The most resident memory (KiB) allowed after the load, for a baseline of `baseline_kib`.
    #[must_use]
    pub fn limit_kib(&self, baseline_kib: u64) -> u64 {
        (baseline_kib as f64 * self.ratio) as u64
    }

    /// Whether `after_kib` is back within the limit.
    #[must_use]
    pub fn came_back(&self, baseline_kib: u64, after_kib: u64) -> bool {
        after_kib > 0 && after_kib <= self.limit_kib(baseline_kib)
    }
}

#[cfg(test)]
mod tests {
    use super::MemoryCheck;

    #[test]
    fn memory_within_the_ratio_came_back_and_above_it_or_unread_did_not() {
        let twice = MemoryCheck { ratio: 2.0 };
        assert_eq!(twice.limit_kib(6_800), 13_600);
        assert!(twice.came_back(6_800, 13_600));
        assert!(!twice.came_back(6_800, 13_601));
        // An unreadable figure (the process is gone) is no proof of anything.
        assert!(!twice.came_back(6_800, 0));
    }
}
