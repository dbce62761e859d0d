//! The judge of one game: the position, the moves played, the clocks and the result. It applies
//! a move only after checking it against its own position, for the side whose turn it is, in
//! time; it takes moves back and restores clocks; it knows nothing of connections or bots.
//!
//! Every method takes the `now` it should judge at, so the table task passes tokio's clock and
//! tests pass whatever instant they like.

use super::clock::{Clock, ClockReading};
use crate::options::GameSetup;
use crate::refusal::Refusal;
use crate::storage::StoredMove;
use kingme_shared::domain::{
    ClockState, EndReason, GameResult, GameStatus, MAX_MOVE_TEXT, MoveRecord,
};
use kingme_shared::{AnyGame, Side};
use tokio::time::{Duration, Instant};

/// A move the judge accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// Moves played so far, this one included.
    pub ply: u32,
    pub record: MoveRecord,
    /// The result if the move ended the game.
    pub result: Option<GameResult>,
}

/// Why a stored game could not be rebuilt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored move {ply} ({text:?}) does not replay: {error}")]
pub struct ReplayError {
    pub ply: u32,
    pub text: String,
    pub error: kingme_shared::MoveError,
}

/// One game under judgement.
#[derive(Debug, Clone)]
pub struct Judge {
    start: AnyGame,
    game: AnyGame,
    moves: Vec<MoveRecord>,
    /// The clocks before each move was played, for takebacks.
    clock_history: Vec<ClockReading>,
    clock: Clock,
    status: GameStatus,
    /// Numbers the positions: bumped on every change (a move, a takeback, the end), so what
    /// was asked or offered in an older position is known to be stale.
    epoch: u64,
}

/// What a rewind does to the clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clocks {
    /// Back to before the moves (a retracted move never counted).
    Restore,
    /// The time spent stays spent (a takeback).
    KeepTimeSpent,
}

impl Judge {
    /// A game waiting for its players.
    #[must_use]
    pub fn new(setup: &GameSetup) -> Judge {
        Judge {
            start: setup.start.clone(),
            game: setup.start.clone(),
            moves: Vec::new(),
            clock_history: Vec::new(),
            clock: Clock::new(setup.time_control),
            status: GameStatus::Open,
            epoch: 0,
        }
    }

    /// Stops the running clock at `now`, charging the time used so far and nothing after: the
    /// game waits for the database, which is nobody's time.
    pub fn hold_clock(&mut self, now: Instant) {
        if self.is_playing() {
            self.clock.halt(now);
        }
    }

    /// Starts the side to move's clock again at `now` after [`Judge::hold_clock`].
    pub fn release_clock(&mut self, now: Instant) {
        if self.is_playing() {
            self.clock.start(self.game.side_to_move(), now);
        }
    }

    /// Starts play at `now`: the side to move's clock runs.
    pub fn begin(&mut self, now: Instant) {
        if self.status == GameStatus::Open {
            self.status = GameStatus::Playing;
            self.start_turn(now);
        }
    }

    /// Starts the side to move's clock at `now`; before that side's first move its clock does
    /// not count yet (see [`Clock::start_first`]).
    fn start_turn(&mut self, now: Instant) {
        let side = self.game.side_to_move();
        if self.moves.iter().any(|record| record.side == side) {
            self.clock.start(side, now);
        } else {
            self.clock.start_first(side, now);
        }
    }

    /// Playing, or how the game ended.
    #[must_use]
    pub fn status(&self) -> GameStatus {
        self.status
    }

    /// Whether the game goes on.
    #[must_use]
    pub fn is_playing(&self) -> bool {
        self.status == GameStatus::Playing
    }

    /// The position now.
    #[must_use]
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &AnyGame {
        &self.start
    }

    /// Every move played, in order.
    #[must_use]
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// Whose turn it is.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    /// Both clocks as they stand at `now`.
    #[must_use]
    pub fn clocks(&self, now: Instant) -> ClockState {
        self.clock.state(now)
    }

    /// When the side to move's time runs out, while the game runs with clocks.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        if self.is_playing() {
            self.clock.deadline()
        } else {
            None
        }
    }

    /// The side whose time has run out at `now`, while the game runs.
    #[must_use]
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        if self.is_playing() {
            self.clock.flagged(now)
        } else {
            None
        }
    }

    /// The time the side to move has left at `now`, if clocks run.
    #[must_use]
    pub fn time_left(&self, now: Instant) -> Option<std::time::Duration> {
        self.clock
            .is_timed()
            .then(|| self.clock.remaining(self.side_to_move(), now))
    }

    /// Plays `side`'s move `text` at `now`, if it is `side`'s turn, in time, and legal.
    pub fn play(&mut self, side: Side, text: &str, now: Instant) -> Result<Played, Refusal> {
        match self.status {
            GameStatus::Playing => {}
            GameStatus::Open => return Err(Refusal::NotStarted),
            GameStatus::Over(_) => return Err(Refusal::Over),
        }
        let to_move = self.game.side_to_move();
        if side != to_move {
            return Err(Refusal::NotYourTurn {
                to_move: self.game.side_name(to_move),
            });
        }
        if text.len() > MAX_MOVE_TEXT {
            return Err(Refusal::TooLong { bytes: text.len() });
        }
        if self.clock.flagged(now) == Some(side) {
            return Err(Refusal::Flagged);
        }
        let reading = self.clock.reading();
        let (text, effect) = self.game.play_text(text.trim())?;
        self.epoch += 1;
        self.clock_history.push(reading);
        self.clock.complete_move(now);
        let record = MoveRecord {
            side,
            text,
            path: effect.path,
            removed: effect.removed,
        };
        self.moves.push(record.clone());
        let result = self.game.outcome().map(GameResult::from);
        match result {
            Some(result) => self.finish(result, now),
            None => self.start_turn(now),
        }
        Ok(Played {
            ply: u32::try_from(self.moves.len()).unwrap_or(u32::MAX),
            record,
            result,
        })
    }

    /// The position's number: it changes whenever the position or the game's state does.
    #[must_use]
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Ends the game at `now` with `result` (resignation, time, agreement, ...).
    pub fn finish(&mut self, result: GameResult, now: Instant) {
        self.epoch += 1;
        self.clock.halt(now);
        if let (EndReason::TimeForfeit, Some(winner)) = (result.reason, result.winner) {
            // What was decided: the loser had no time left.
            self.clock.run_out(winner.opponent());
        }
        self.status = GameStatus::Over(result);
    }

    /// How many plies a takeback asked by `side` undoes: its last move and every move since.
    #[must_use]
    pub fn takeback_plies(&self, side: Side) -> Option<u32> {
        let last_own = self.moves.iter().rposition(|record| record.side == side)?;
        u32::try_from(self.moves.len() - last_own).ok()
    }

    /// Takes back the last `plies` moves at `now`: the position returns to where it was before
    /// them, but the clocks keep the time spent (less the increments those moves earned).
    /// Returns whether anything was taken back.
    pub fn take_back(&mut self, plies: u32, now: Instant) -> bool {
        let plies = plies as usize;
        if !self.is_playing() || plies == 0 || plies > self.moves.len() {
            return false;
        }
        self.rewind(self.moves.len() - plies, now, Clocks::KeepTimeSpent)
    }

    /// Undoes the last move, even one that ended the game: the table calls this when the move
    /// could not be stored, so that a move nobody was told of never counts.
    pub fn retract(&mut self, now: Instant) -> bool {
        let Some(keep) = self.moves.len().checked_sub(1) else {
            return false;
        };
        self.status = GameStatus::Playing;
        self.rewind(keep, now, Clocks::Restore)
    }

    /// Keeps the first `keep` moves and restarts the side to move's clock at `now`.
    fn rewind(&mut self, keep: usize, now: Instant, clocks: Clocks) -> bool {
        // Replaying from the start rebuilds the rules' own history (repetitions, move counters)
        // exactly, and keeps no snapshot of every position in memory.
        let mut game = self.start.clone();
        for record in &self.moves[..keep] {
            if game.play_text(&record.text).is_err() {
                return false;
            }
        }
        self.game = game;
        self.epoch += 1;
        match clocks {
            Clocks::Restore => self.clock.restore(self.clock_history[keep]),
            Clocks::KeepTimeSpent => {
                self.clock.halt(now);
                // Each taken-back move earned its increment, except a side's first move.
                let mut taken = [0u32; 2];
                for (index, record) in self.moves.iter().enumerate().skip(keep) {
                    if self.moves[..index].iter().any(|r| r.side == record.side) {
                        taken[record.side.index()] += 1;
                    }
                }
                self.clock.withdraw_increments(taken);
            }
        }
        self.moves.truncate(keep);
        self.clock_history.truncate(keep);
        self.start_turn(now);
        true
    }

    /// A game in progress rebuilt after a restart: every stored move replayed through the rules,
    /// the clocks as they stood after the last one, and the side to move's clock started at
    /// `now`, so the time the server was down is charged to nobody.
    pub fn resume(
        setup: &GameSetup,
        moves: &[StoredMove],
        now: Instant,
    ) -> Result<Judge, ReplayError> {
        let mut judge = Judge::new(setup);
        judge.status = GameStatus::Playing;
        for stored in moves {
            let side = judge.game.side_to_move();
            let (text, effect) =
                judge
                    .game
                    .play_text(&stored.text)
                    .map_err(|error| ReplayError {
                        ply: stored.ply,
                        text: stored.text.clone(),
                        error,
                    })?;
            judge.clock_history.push(judge.clock.reading());
            judge.clock.restore(
                stored
                    .clocks_ms
                    .map(|ms| Duration::from_millis(ms.unwrap_or(0))),
            );
            judge.moves.push(MoveRecord {
                side,
                text,
                path: effect.path,
                removed: effect.removed,
            });
        }
        match judge.game.outcome() {
            Some(outcome) => judge.finish(GameResult::from(outcome), now),
            None => judge.start_turn(now),
        }
        Ok(judge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::FIRST_MOVE_ALLOWANCE;
    use kingme_shared::domain::TimeControl;
    use kingme_shared::{GameKind, WinReason};
    use std::time::Duration;

    fn judge(kind: GameKind, time_control: TimeControl) -> Judge {
        let mut judge = Judge::new(&GameSetup {
            spec: kind.into(),
            start: AnyGame::start(kind),
            time_control,
            rated: false,
        });
        judge.begin(Instant::now());
        judge
    }

    fn refusal(result: Result<Played, Refusal>) -> String {
        match result {
            Ok(played) => panic!("expected a refusal, got {played:?}"),
            Err(err) => err.to_string(),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn moves_out_of_turn_illegal_or_too_long_change_nothing() {
        let mut judge = judge(GameKind::Checkers, TimeControl::Unlimited);
        let before = judge.clone().game;
        let now = Instant::now();
        assert!(refusal(judge.play(Side::Second, "22-18", now)).contains("Black's turn"));
        assert!(refusal(judge.play(Side::First, "11-99", now)).contains("11-99"));
        assert!(refusal(judge.play(Side::First, &"1".repeat(100), now)).contains("too long"));
        assert_eq!(judge.game, before);
        assert!(judge.moves().is_empty());
        let played = judge.play(Side::First, " 11-15 ", now).expect("legal");
        assert_eq!(played.ply, 1);
        assert_eq!(played.record.path, vec![11, 15]);
        assert_eq!(judge.side_to_move(), Side::Second);
    }

    #[tokio::test(start_paused = true)]
    async fn a_winning_move_ends_the_game_with_its_reason() {
        let mut judge = judge(GameKind::TicTacToe, TimeControl::Unlimited);
        let now = Instant::now();
        for (side, text) in [
            (Side::First, "1"),
            (Side::Second, "4"),
            (Side::First, "2"),
            (Side::Second, "5"),
        ] {
            assert_eq!(judge.play(side, text, now).expect("legal").result, None);
        }
        let played = judge.play(Side::First, "3", now).expect("legal");
        let won = GameResult {
            winner: Some(Side::First),
            reason: EndReason::Win(WinReason::ThreeInARow),
        };
        assert_eq!(played.result, Some(won));
        assert_eq!(judge.status(), GameStatus::Over(won));
        assert!(refusal(judge.play(Side::Second, "6", now)).contains("over"));
    }

    #[tokio::test(start_paused = true)]
    async fn a_move_after_the_flag_fell_is_a_time_forfeit_not_a_move() {
        let mut judge = judge(GameKind::TicTacToe, TimeControl::PerMove { secs: 2 });
        // The first moves have their allowance; from then on two seconds a move.
        let start = Instant::now();
        assert_eq!(judge.deadline(), Some(start + FIRST_MOVE_ALLOWANCE));
        judge.play(Side::First, "1", start).expect("legal");
        judge.play(Side::Second, "2", start).expect("legal");
        assert_eq!(judge.deadline(), Some(start + Duration::from_secs(2)));
        tokio::time::advance(Duration::from_secs(2)).await;
        let now = Instant::now();
        assert_eq!(judge.flagged(now), Some(Side::First));
        assert_eq!(judge.play(Side::First, "5", now), Err(Refusal::Flagged));
        assert_eq!(judge.moves().len(), 2);
        // What the server decided is what everyone sees: no time left.
        judge.finish(
            GameResult {
                winner: Some(Side::Second),
                reason: EndReason::TimeForfeit,
            },
            now,
        );
        assert_eq!(judge.clocks(now).remaining_ms[0], Some(0));
        assert_eq!(judge.clocks(now).running, None);
    }

    #[tokio::test(start_paused = true)]
    async fn each_clock_starts_at_its_sides_first_move() {
        let control = TimeControl::Incremental {
            initial_secs: 60,
            increment_secs: 1,
        };
        let mut judge = judge(GameKind::Checkers, control);
        // Black looks at the board for 20 s: none of it is taken off.
        tokio::time::advance(Duration::from_secs(20)).await;
        judge
            .play(Side::First, "11-15", Instant::now())
            .expect("legal");
        assert_eq!(
            judge.clocks(Instant::now()).remaining_ms,
            [Some(60_000), Some(60_000)]
        );
        tokio::time::advance(Duration::from_secs(5)).await;
        judge
            .play(Side::Second, "23-19", Instant::now())
            .expect("legal");
        // Now Black's clock runs for real.
        tokio::time::advance(Duration::from_secs(4)).await;
        judge
            .play(Side::First, "8-11", Instant::now())
            .expect("legal");
        assert_eq!(
            judge.clocks(Instant::now()).remaining_ms,
            [Some(57_000), Some(60_000)]
        );
    }

    #[tokio::test(start_paused = true)]
    async fn every_change_of_position_or_state_renumbers_it_and_a_refusal_does_not() {
        let mut judge = judge(GameKind::TicTacToe, TimeControl::Unlimited);
        let mut seen = vec![judge.epoch()];
        let mut changed = |judge: &Judge, what: &str| {
            assert!(!seen.contains(&judge.epoch()), "{what} kept an old epoch");
            seen.push(judge.epoch());
        };
        judge.play(Side::First, "5", Instant::now()).expect("legal");
        changed(&judge, "a move");
        let before = judge.epoch();
        assert!(judge.play(Side::First, "1", Instant::now()).is_err());
        assert!(judge.play(Side::Second, "5", Instant::now()).is_err());
        assert_eq!(judge.epoch(), before, "a refused move changes nothing");
        judge
            .play(Side::Second, "1", Instant::now())
            .expect("legal");
        changed(&judge, "a second move");
        assert!(judge.take_back(1, Instant::now()));
        changed(&judge, "a takeback");
        judge
            .play(Side::Second, "1", Instant::now())
            .expect("legal");
        assert!(judge.retract(Instant::now()));
        changed(&judge, "a retraction");
        let result = GameResult {
            winner: None,
            reason: EndReason::Aborted,
        };
        judge.finish(result, Instant::now());
        changed(&judge, "the end");
    }

    #[tokio::test(start_paused = true)]
    async fn a_takeback_restores_the_position_but_not_the_time_spent() {
        let control = TimeControl::Incremental {
            initial_secs: 60,
            increment_secs: 1,
        };
        let mut judge = judge(GameKind::Checkers, control);
        let first = judge.game.clone();
        for (side, text) in [(Side::First, "11-15"), (Side::Second, "23-19")] {
            judge.play(side, text, Instant::now()).expect("legal");
        }
        let after_two = judge.game.clone();
        // Black thinks 5 s (+1 s increment), White 7 s (+1), then Black asks for a takeback.
        tokio::time::advance(Duration::from_secs(5)).await;
        judge
            .play(Side::First, "8-11", Instant::now())
            .expect("legal");
        tokio::time::advance(Duration::from_secs(7)).await;
        judge
            .play(Side::Second, "22-18", Instant::now())
            .expect("legal");
        assert_eq!(judge.takeback_plies(Side::First), Some(2));
        assert_eq!(judge.takeback_plies(Side::Second), Some(1));
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(judge.take_back(2, Instant::now()));
        assert_eq!(judge.game, after_two);
        // Nobody gets time back: the 5 s, 7 s and 2 s stay spent, the increments go.
        assert_eq!(
            judge.clocks(Instant::now()).remaining_ms,
            [Some(53_000), Some(53_000)]
        );
        assert_eq!(judge.clocks(Instant::now()).running, Some(Side::First));
        assert!(judge.take_back(2, Instant::now()));
        assert_eq!(judge.game, first);
        assert_eq!(judge.takeback_plies(Side::First), None);
        assert!(!judge.take_back(1, Instant::now()));
    }

    #[tokio::test(start_paused = true)]
    async fn a_resumed_game_has_its_moves_and_clocks_and_charges_no_downtime() {
        let control = TimeControl::Incremental {
            initial_secs: 60,
            increment_secs: 0,
        };
        let setup = GameSetup {
            spec: GameKind::TicTacToe.into(),
            start: AnyGame::start(GameKind::TicTacToe),
            time_control: control,
            rated: false,
        };
        let stored = |ply: u32, text: &str, clocks_ms: [Option<u64>; 2]| StoredMove {
            ply,
            text: text.to_owned(),
            clocks_ms,
            played_at_ms: 0,
        };
        let moves = [
            stored(1, "5", [Some(50_000), Some(60_000)]),
            stored(2, "1", [Some(50_000), Some(45_000)]),
        ];
        // The server was down for an hour: nobody's clock moved meanwhile.
        tokio::time::advance(Duration::from_secs(3600)).await;
        let now = Instant::now();
        let mut judge = Judge::resume(&setup, &moves, now).expect("the stored moves replay");
        assert_eq!(judge.status(), GameStatus::Playing);
        assert_eq!(judge.moves().len(), 2);
        assert_eq!(judge.moves()[1].side, Side::Second);
        let clocks = judge.clocks(now);
        assert_eq!(clocks.remaining_ms, [Some(50_000), Some(45_000)]);
        assert_eq!(clocks.running, Some(Side::First));
        // A takeback after the resume gives no time back.
        assert!(judge.take_back(1, now));
        assert_eq!(judge.clocks(now).remaining_ms, [Some(50_000), Some(45_000)]);
        // A move that no longer replays is reported, not guessed around.
        let bad = [stored(1, "5", [None, None]), stored(2, "5", [None, None])];
        let err = Judge::resume(&setup, &bad, now).expect_err("5 twice is illegal");
        assert!(err.to_string().contains("stored move 2 (\"5\")"), "{err}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_retracted_move_is_gone_even_when_it_ended_the_game() {
        let mut judge = judge(GameKind::TicTacToe, TimeControl::Unlimited);
        let now = Instant::now();
        for (side, text) in [
            (Side::First, "1"),
            (Side::Second, "4"),
            (Side::First, "2"),
            (Side::Second, "5"),
            (Side::First, "3"),
        ] {
            judge.play(side, text, now).expect("legal");
        }
        assert!(matches!(judge.status(), GameStatus::Over(_)));
        assert!(judge.retract(now));
        assert_eq!(judge.status(), GameStatus::Playing);
        assert_eq!(judge.moves().len(), 4);
        assert_eq!(judge.side_to_move(), Side::First);
        assert_eq!(judge.game().position_text(), "XX-OO----");
    }
}
