//! What a server sends a client of an older protocol version in place of what it could not
//! decode. Protocol version 9 appended three levels to [`Level`]; a client of version 8 or
//! older knows only [`Level::OLDER_CLIENTS`], so wherever a level goes from the server to a
//! client (a bot's seat in the lobby's rows, in a game's state, in a seat change) such a client
//! is sent the nearest older level below it ([`Level::for_older_clients`]) instead.

use super::message::{GameState, GameSummary, SeatHolder, ServerMessage};
use crate::ai::Level;

/// The first version whose clients know every level of [`Level::ALL`] (`novice`, `skilled`
/// and `master` were added).
pub const LEVELS_VERSION: u32 = 9;

impl ServerMessage {
    /// This message as a client that spoke `version` in its hello can decode it: unchanged from
    /// [`LEVELS_VERSION`] on; before it, every level it holds replaced by the nearest older
    /// level below ([`Level::for_older_clients`]).
    #[must_use]
    pub fn for_version(mut self, version: u32) -> ServerMessage {
        if version >= LEVELS_VERSION {
            return self;
        }
        // Every message is named, so that a message that comes to hold a level cannot be
        // forgotten here.
        match &mut self {
            ServerMessage::GameList { games } => games.iter_mut().for_each(summary_for_older),
            ServerMessage::State(state) => state_for_older(state),
            ServerMessage::SeatChanged { holder, .. } => holder_for_older(holder),
            ServerMessage::Welcome { .. }
            | ServerMessage::Error { .. }
            | ServerMessage::Ping { .. }
            | ServerMessage::Pong { .. }
            | ServerMessage::YourTurn { .. }
            | ServerMessage::MovePlayed { .. }
            | ServerMessage::MoveRejected { .. }
            | ServerMessage::GameOver { .. }
            | ServerMessage::DrawOffered { .. }
            | ServerMessage::DrawDeclined { .. }
            | ServerMessage::TakebackRequested { .. }
            | ServerMessage::TakebackDeclined { .. }
            | ServerMessage::RematchOffered { .. }
            | ServerMessage::Chat { .. }
            | ServerMessage::ShuttingDown { .. }
            | ServerMessage::TookBack { .. }
            | ServerMessage::RematchStarted { .. }
            | ServerMessage::Left { .. }
            | ServerMessage::History { .. }
            | ServerMessage::Leaderboard { .. }
            | ServerMessage::Record { .. }
            | ServerMessage::Challenge { .. }
            | ServerMessage::Nodes { .. }
            | ServerMessage::AdminDone { .. }
            | ServerMessage::AdminLog { .. }
            | ServerMessage::Announcement { .. }
            | ServerMessage::AnalysisProgress { .. }
            | ServerMessage::Analysis { .. } => {}
        }
        self
    }
}

fn summary_for_older(summary: &mut GameSummary) {
    summary.seats.iter_mut().for_each(holder_for_older);
}

fn state_for_older(state: &mut GameState) {
    state.seats.iter_mut().for_each(holder_for_older);
}

fn holder_for_older(holder: &mut SeatHolder) {
    if let SeatHolder::Bot { level } = holder {
        *level = Level::for_older_clients(*level);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameKind;
    use crate::domain::{GameId, GameStatus, TimeControl};
    use crate::game::Side;
    use crate::games::spec::GameSpec;

    fn lobby_row(level: Level) -> ServerMessage {
        ServerMessage::GameList {
            games: vec![GameSummary {
                id: GameId(7),
                spec: GameSpec::standard(GameKind::Checkers),
                seats: [
                    SeatHolder::Bot { level },
                    SeatHolder::Human {
                        name: "ada".to_owned(),
                        connected: true,
                        grace_left_ms: None,
                    },
                ],
                time_control: TimeControl::Unlimited,
                moves: 3,
                status: GameStatus::Playing,
                spectators: 1,
            }],
        }
    }

    fn seat_change(level: Level) -> ServerMessage {
        ServerMessage::SeatChanged {
            game: GameId(7),
            side: Side::Second,
            holder: SeatHolder::Bot { level },
        }
    }

    #[test]
    fn older_clients_are_sent_only_levels_they_know() {
        for level in Level::ALL {
            let old = level.for_older_clients();
            for message in [lobby_row(level), seat_change(level)] {
                assert_eq!(message.clone().for_version(LEVELS_VERSION), message);
                let expected = match message.clone() {
                    ServerMessage::GameList { .. } => lobby_row(old),
                    _ => seat_change(old),
                };
                assert_eq!(message.clone().for_version(8), expected, "{level}");
                assert_eq!(message.for_version(6), expected, "{level}");
            }
        }
        let ping = ServerMessage::Ping { nonce: 4 };
        assert_eq!(ping.clone().for_version(8), ping);
    }
}
