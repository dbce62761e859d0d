//! The game's course: starting it, asking the side to move, playing a move (judged, stored, then
//! announced), taking moves back, ending it, and the deadlines (clocks, grace periods, how long
//! a finished table stays). A game between bots that a person may watch is paced: each bot's
//! move waits for the server's `bot_move_delay` after it was asked for.

use super::Table;
use super::persistence::Unsaved;
use crate::game::bot::{self, MoveRequest};
use crate::game::seat::Seat;
use crate::refusal::Refusal;
use crate::telemetry;
use kingme_shared::Side;
use kingme_shared::protocol::{EndReason, GameResult, GameStatus, ServerMessage, TimeControl};
use std::time::Duration;
use tokio::time::Instant;

impl Table {
    pub(super) fn begin(&mut self) {
        self.judge.begin(Instant::now());
        tracing::info!(game = %self.id, "game started");
        self.send_state_to_all();
        self.publish();
        self.ask_to_move();
    }

    /// Asks the side to move for its move, whoever holds the seat.
    pub(super) fn ask_to_move(&mut self) {
        if !self.judge.is_playing() {
            return;
        }
        let side = self.judge.side_to_move();
        // A person's turn waits in the mail with the move that made it.
        if let Some(session) = self.seats[side.index()].session() {
            self.post(session, self.your_turn());
            return;
        }
        // Anyone else (a bot) starts at once.
        let now = Instant::now();
        let per_move = matches!(self.setup.time_control, TimeControl::PerMove { .. });
        let time_left = self.judge.time_left(now);
        let budget = bot::budget(time_left, per_move, self.context.timing.bot_think_time);
        let request = MoveRequest {
            game: self.judge.game().clone(),
            side,
            budget,
            epoch: self.judge.epoch(),
            not_before: now + self.bot_pause(time_left.map(|_| budget.base)),
            reply: self.commands.clone(),
        };
        let your_turn = self.your_turn();
        self.seats[side.index()].ask_to_move(|| your_turn, request);
    }

    /// The pause before a bot's move: in a game between bots that a person may watch (a person
    /// created it, or someone watches), the server's `bot_move_delay`, so people can follow
    /// it; with a clock, never more than the bot's `budget`, so the pause loses no game on
    /// time. No pause where a person plays.
    fn bot_pause(&self, budget: Option<Duration>) -> Duration {
        let between_bots = self.seats.iter().all(Seat::moves_by_itself);
        let watched = self.created_by_person || !self.spectators.is_empty();
        if !(between_bots && watched) {
            return Duration::ZERO;
        }
        let delay = self.context.timing.bot_move_delay;
        budget.map_or(delay, |budget| delay.min(budget))
    }

    /// Stops every seat's thinking: the position changed or the game ended.
    fn stop_seats(&mut self) {
        for seat in &mut self.seats {
            seat.stop();
        }
    }

    /// Plays a move for `side`: judged, stored, then announced; why not otherwise (a move
    /// that was legal but could not be stored is undone and refused as not stored).
    pub(super) async fn play(&mut self, side: Side, text: &str) -> Result<(), Refusal> {
        let received = std::time::Instant::now();
        let played = match self.judge.play(side, text, Instant::now()) {
            Ok(played) => played,
            Err(Refusal::Flagged) => {
                self.end(Some(side.opponent()), EndReason::TimeForfeit);
                return Err(Refusal::Flagged);
            }
            Err(refusal) => return Err(refusal),
        };
        // The clocks as of the move: stored, and announced, the same.
        let clocks = self.judge.clocks(Instant::now());
        if let Err(err) = self
            .store_move(played.ply, &played.record.text, clocks)
            .await
        {
            self.judge.retract(Instant::now());
            return Err(Refusal::NotStored(err));
        }
        let game = self.judge.game();
        self.broadcast(&ServerMessage::MovePlayed {
            game: self.id,
            ply: played.ply,
            record: played.record,
            position: game.position_text(),
            side_to_move: game.side_to_move(),
            clocks,
        });
        telemetry::move_relayed(self.setup.spec.kind().name(), received);
        match played.result {
            Some(result) => self.announce_end(result),
            None => {
                self.publish();
                self.ask_to_move();
            }
        }
        Ok(())
    }

    /// Takes back `by`'s last move and every move since, and tells everyone.
    pub(super) fn take_back(&mut self, by: Side) {
        let Some(plies) = self.judge.takeback_plies(by) else {
            return;
        };
        self.stop_seats();
        if !self.judge.take_back(plies, Instant::now()) {
            return;
        }
        let kept = u32::try_from(self.judge.moves().len()).unwrap_or(u32::MAX);
        self.unsaved.push(Unsaved::TakeBack(kept));
        self.broadcast(&ServerMessage::TookBack {
            game: self.id,
            by,
            plies,
        });
        self.send_state_to_all();
        self.publish();
        self.ask_to_move();
    }

    /// Ends a running (or open) game with a judge's reason.
    pub(super) fn end(&mut self, winner: Option<Side>, reason: EndReason) {
        if matches!(self.judge.status(), GameStatus::Over(_)) {
            return;
        }
        let result = GameResult { winner, reason };
        self.judge.finish(result, Instant::now());
        self.announce_end(result);
    }

    /// Announces (once stored) how the game ended.
    pub(super) fn announce_end(&mut self, result: GameResult) {
        self.unsaved.push(Unsaved::Finish(result));
        self.stop_seats();
        self.away = [None, None];
        self.away_at_end = Side::BOTH.map(|side| self.seats[side.index()].is_absent());
        self.ended_at = Some(Instant::now());
        tracing::info!(game = %self.id, winner = ?result.winner, reason = %result.reason, "game ended");
        self.broadcast(&ServerMessage::GameOver {
            game: self.id,
            result,
            clocks: self.judge.clocks(Instant::now()),
        });
        self.publish();
    }

    /// A deadline passed: a flag fell, or an absent player's grace period ended.
    pub(super) fn on_time(&mut self, now: Instant) {
        if let Some(side) = self.judge.flagged(now) {
            self.end(Some(side.opponent()), EndReason::TimeForfeit);
        }
        for side in Side::BOTH {
            if self.away[side.index()].is_some_and(|deadline| deadline <= now) {
                self.away[side.index()] = None;
                tracing::info!(game = %self.id, ?side, "grace period over");
                match self.judge.status() {
                    GameStatus::Playing => self.end(Some(side.opponent()), EndReason::Abandoned),
                    GameStatus::Open => {
                        self.end(None, EndReason::Aborted);
                        self.seats[side.index()].mark_left();
                    }
                    GameStatus::Over(_) => {}
                }
            }
        }
    }

    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let timing = &self.context.timing;
        let linger = self.ended_at.map(|ended| ended + timing.finished_linger);
        let absence = self
            .ended_at
            .filter(|_| self.awaits_one_away_at_the_end())
            .map(|ended| ended + timing.grace);
        [
            self.judge.deadline(),
            self.away[0],
            self.away[1],
            linger,
            absence,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Whether a player who was away when the game ended is still away (and may come back
    /// within the grace period to see how it ended).
    fn awaits_one_away_at_the_end(&self) -> bool {
        Side::BOTH
            .into_iter()
            .any(|side| self.away_at_end[side.index()] && self.seats[side.index()].is_absent())
    }

    /// Whether the table has nobody left to serve. A finished game stays while a player is
    /// still there (for a rematch, up to the linger time) or, having been away when it ended,
    /// may come back within the grace period to see how; players who saw the end and went,
    /// leaving or not, are not waited for.
    pub(super) fn should_close(&self) -> bool {
        let humans = self
            .seats
            .iter()
            .filter(|seat| seat.session().is_some())
            .count();
        match (self.judge.status(), self.ended_at) {
            (GameStatus::Open, _) => humans == 0 && self.spectators.is_empty(),
            (GameStatus::Over(_), Some(ended)) => {
                let timing = &self.context.timing;
                let now = Instant::now();
                let awaited = self.seats.iter().any(Seat::has_connected_human)
                    || (self.awaits_one_away_at_the_end() && now < ended + timing.grace);
                !awaited || now >= ended + timing.finished_linger
            }
            _ => false,
        }
    }

    /// Stops the table for a shutdown without ending its game.
    pub(super) fn suspend(&mut self) {
        self.stop_seats();
        tracing::debug!(game = %self.id, "table suspended for the shutdown");
    }
}
