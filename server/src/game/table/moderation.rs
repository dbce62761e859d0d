//! What an admin does to a game: a banned person's seat forfeits (a game in progress is lost,
//! recorded as abandoned; a game that never started closes, aborted), and a game an admin
//! closes ends without a result (aborted). Both end the game through the one path every end
//! takes, so it is stored before anyone hears of it.

use super::Table;
use kingme_shared::Side;
use kingme_shared::protocol::{EndReason, GameStatus};

impl Table {
    /// `name` was banned: its seat forfeits.
    pub(super) fn banned(&mut self, name: &str) {
        let seated = Side::BOTH.into_iter().find(|side| {
            self.seats[side.index()]
                .session()
                .is_some_and(|session| session.name == name)
        });
        let Some(side) = seated else {
            return;
        };
        tracing::info!(game = %self.id, name, ?side, "a banned person's seat forfeits");
        match self.judge.status() {
            GameStatus::Playing => self.end(Some(side.opponent()), EndReason::Abandoned),
            GameStatus::Open => self.end(None, EndReason::Aborted),
            GameStatus::Over(_) => {}
        }
    }

    /// An admin closed the game.
    pub(super) fn closed_by_admin(&mut self) {
        tracing::info!(game = %self.id, "closed by an admin");
        self.end(None, EndReason::Aborted);
    }
}
