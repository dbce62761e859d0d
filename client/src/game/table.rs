//! The game on screen: the client's copy of one table (position, seats, clocks, history, chat)
//! kept up to date from the server's messages, plus what belongs to this screen alone: the
//! cursor, the held piece, the typed move, the board's orientation and the move animation.
//!
//! The server is the judge; the position here is rebuilt from its position texts and only used
//! to draw, to offer legal moves and to check typed text before it is sent.

use crate::game::animation::Animation;
use crate::game::board_geometry::{BoardGeometry, Cell};
use crate::game::ratings::Ratings;
use crate::game::review::Review;
use crate::game::selection::{Candidate, Selection};
use kingme_shared::protocol::{
    ClientMessage, ClockState, GameId, GameResult, GameState, GameStatus, MoveRecord, SeatHolder,
    ServerMessage, TimeControl,
};
use kingme_shared::{AnyGame, GameKind, GameSpec, Side};
use std::time::{Duration, Instant};

/// Chat lines kept per table.
const CHAT_LINES: usize = 100;

/// One game as this client sees it.
#[derive(Debug, Clone)]
pub struct Table {
    /// The game's id on the server.
    pub id: GameId,
    /// Which game is played.
    pub kind: GameKind,
    /// The position, rebuilt from the server's position text.
    pub game: AnyGame,
    /// The position the game started from (for reviewing).
    pub start: AnyGame,
    /// An earlier position being looked at, `None` for the live game.
    pub review: Option<Review>,
    /// The game and the rules it is played under.
    pub spec: GameSpec,
    /// Who sits on each side.
    pub seats: [SeatHolder; 2],
    /// When `seats` arrived, so an absent player's grace period counts down between messages.
    pub(crate) seats_at: Instant,
    /// The player's own side; `None` when watching.
    pub your_side: Option<Side>,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The moves played so far.
    pub moves: Vec<MoveRecord>,
    /// The clocks as the server last told them.
    pub clocks: ClockState,
    /// When `clocks` arrived, so the running clock can tick down between messages.
    pub clocks_at: Instant,
    /// Whether the game is open, playing or over.
    pub status: GameStatus,
    /// The chat: (who, what) in the order said.
    pub chat: Vec<(String, String)>,
    /// The legal moves when it is the player's turn, else empty.
    pub candidates: Vec<Candidate>,
    /// The piece held, if any.
    pub selection: Selection,
    /// The cell the keyboard cursor is on.
    pub cursor: Cell,
    /// Whether the board is drawn upside down (the second side at the bottom).
    pub flipped: bool,
    /// A move being typed (a number or a move's text), `None` when not typing.
    pub input: Option<crate::tui::text_field::TextField>,
    /// The move sliding across the board, while it does.
    pub animation: Option<Animation>,
    /// The side offering a draw, if one is.
    pub draw_offer: Option<Side>,
    /// The side asking to take a move back, if one is.
    pub takeback_request: Option<Side>,
    pub(crate) rematch_offer: Option<Side>,
    /// A move sent and not yet answered.
    pub(crate) pending_move: Option<String>,
    /// The person's draw offer or takeback request that a move ended unanswered, said with
    /// the next turn.
    pub(crate) lapsed: Option<String>,
}

impl Table {
    /// A table from the server's full state.
    pub fn from_state(state: &GameState, now: Instant) -> Result<Table, String> {
        let spec = state.spec;
        let game = read_position(spec, &state.position)?;
        let start = read_position(spec, &state.start_position)?;
        let flipped = BoardGeometry::flipped_for(spec.kind(), state.your_side);
        let mut table = Table {
            id: state.id,
            kind: spec.kind(),
            game,
            start,
            review: None,
            spec,
            seats: state.seats.clone(),
            seats_at: now,
            your_side: state.your_side,
            time_control: state.time_control,
            rated: state.rated,
            moves: state.moves.clone(),
            clocks: state.clocks,
            clocks_at: now,
            status: state.status,
            chat: Vec::new(),
            candidates: Vec::new(),
            selection: Selection::Idle,
            cursor: BoardGeometry::new(spec.kind(), flipped).middle_square(),
            flipped,
            input: None,
            animation: None,
            draw_offer: None,
            takeback_request: None,
            rematch_offer: None,
            pending_move: None,
            lapsed: None,
        };
        table.refresh_candidates();
        Ok(table)
    }

    /// Replaces everything the server owns with a new full state (after a takeback or a
    /// reconnect), keeping the screen's own settings.
    pub fn reset(&mut self, state: &GameState, now: Instant) -> Result<(), String> {
        let mut fresh = Table::from_state(state, now)?;
        fresh.flipped = self.flipped;
        fresh.cursor = self.cursor;
        fresh.chat = std::mem::take(&mut self.chat);
        *self = fresh;
        Ok(())
    }

    /// The board as displayed.
    #[must_use]
    pub fn geometry(&self) -> BoardGeometry {
        BoardGeometry::new(self.kind, self.flipped)
    }

    /// Whether the player is to move now (and the game goes on).
    #[must_use]
    pub fn is_my_turn(&self) -> bool {
        matches!(self.status, GameStatus::Playing)
            && self.your_side == Some(self.game.side_to_move())
    }

    /// Whether this is "your game in progress": a game the person is seated in that is not
    /// over. The one rule for `g`, the lobby's marker and coming back; a finished game is
    /// never it.
    #[must_use]
    pub fn is_yours_in_progress(&self) -> bool {
        self.your_side.is_some() && self.result().is_none()
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        match self.status {
            GameStatus::Over(result) => Some(result),
            _ => None,
        }
    }

    /// The last move played.
    #[must_use]
    pub(crate) fn last_move(&self) -> Option<&MoveRecord> {
        self.moves.last()
    }

    /// Milliseconds left on a side's clock at `now`, counting down the running clock. During
    /// a side's first move its clock stands at its start: the time then running out is the
    /// first-move deadline ([`Table::first_move_deadline`]), and the clock starts after it.
    #[must_use]
    pub fn clock_at(&self, side: Side, now: Instant) -> Option<u64> {
        let left = self.clocks.remaining_ms[side.index()]?;
        if self.is_first_move(side) {
            return Some(match self.time_control {
                TimeControl::Incremental { initial_secs, .. } => u64::from(initial_secs) * 1000,
                TimeControl::PerMove { secs } => u64::from(secs) * 1000,
                TimeControl::Unlimited => left,
            });
        }
        Some(self.running_down(side, left, now))
    }

    /// The side making its first move and the milliseconds it has left for it at `now`: the
    /// server gives each side at least 30 seconds for its first move, not taken off its clock,
    /// and a side that lets them run out loses on time.
    #[must_use]
    pub fn first_move_deadline(&self, now: Instant) -> Option<(Side, u64)> {
        let side = self.clocks.running?;
        let left = self.clocks.remaining_ms[side.index()]?;
        self.is_first_move(side)
            .then(|| (side, self.running_down(side, left, now)))
    }

    /// Whether `side` is making its first move of the game, on the clock.
    fn is_first_move(&self, side: Side) -> bool {
        matches!(self.status, GameStatus::Playing)
            && self.clocks.running == Some(side)
            && !matches!(self.time_control, TimeControl::Unlimited)
            && !self.moves.iter().any(|m| m.side == side)
    }

    /// `left` milliseconds of `side`'s clock, counted down to `now` if it is running.
    fn running_down(&self, side: Side, left: u64, now: Instant) -> u64 {
        if self.clocks.running == Some(side) && matches!(self.status, GameStatus::Playing) {
            let spent = now.saturating_duration_since(self.clocks_at).as_millis();
            left.saturating_sub(u64::try_from(spent).unwrap_or(u64::MAX))
        } else {
            left
        }
    }

    fn refresh_candidates(&mut self) {
        self.candidates = if self.is_my_turn() {
            Candidate::all(&self.game)
        } else {
            Vec::new()
        };
        self.selection.clear();
    }

    /// Applies a server message about this table. Returns a line for the status bar when the
    /// message deserves one.
    pub fn apply(&mut self, message: &ServerMessage, now: Instant) -> Option<String> {
        let kind = self.kind;
        let name = move |side: Side| AnyGame::kind_side_name(kind, side);
        match message {
            ServerMessage::MovePlayed {
                record,
                position,
                clocks,
                ..
            } => {
                let before = self.game.clone();
                let after = match read_position(self.spec, position) {
                    Ok(after) => after,
                    Err(err) => return Some(format!("could not follow the game: {err}")),
                };
                if self.your_side != Some(record.side) {
                    self.animation = Some(Animation::new(
                        &before,
                        &after,
                        &record.path,
                        &record.removed,
                    ));
                }
                self.game = after;
                self.moves.push(record.clone());
                self.clocks = *clocks;
                self.clocks_at = now;
                self.pending_move = None;
                // A move ends the offers made before it: the person whose offer or request
                // it ends unanswered is told.
                self.lapsed = self.lapsed_by(record.side);
                self.draw_offer = None;
                self.takeback_request = None;
                self.refresh_candidates();
                let played = format!("{} played {}", name(record.side), record.text);
                Some(match &self.lapsed {
                    Some(note) => format!("{played}; {note}"),
                    None => played,
                })
            }
            ServerMessage::YourTurn { clocks, .. } => {
                self.clocks = *clocks;
                self.clocks_at = now;
                if self.candidates.is_empty() {
                    self.refresh_candidates();
                }
                Some(match self.lapsed.take() {
                    Some(note) => format!("your move; {note}"),
                    None => "your move".to_owned(),
                })
            }
            ServerMessage::MoveRejected { text, reason, .. } => {
                self.pending_move = None;
                Some(format!("{text} was refused: {reason}"))
            }
            ServerMessage::SeatChanged { side, holder, .. } => {
                let back = match (&self.seats[side.index()], holder) {
                    (
                        SeatHolder::Human {
                            name: before,
                            connected: false,
                            ..
                        },
                        SeatHolder::Human {
                            name,
                            connected: true,
                            ..
                        },
                    ) if before == name => Some(format!("{name} is back")),
                    _ => None,
                };
                self.seats[side.index()] = holder.clone();
                self.seats_at = now;
                if let Some(back) = back {
                    return Some(back);
                }
                if matches!(self.status, GameStatus::Open)
                    && !self.seats.iter().any(|s| matches!(s, SeatHolder::Empty))
                {
                    self.status = GameStatus::Playing;
                    self.refresh_candidates();
                }
                Some(match holder {
                    SeatHolder::Human {
                        connected: false, ..
                    } => seat_words(self.kind, &self.status, holder, Duration::ZERO, |_| {
                        String::new()
                    }),
                    _ => format!(
                        "{}: {}",
                        name(*side),
                        seat_words(self.kind, &self.status, holder, Duration::ZERO, |_| {
                            String::new()
                        })
                    ),
                })
            }
            ServerMessage::GameOver { result, clocks, .. } => {
                self.status = GameStatus::Over(*result);
                self.clocks = *clocks;
                self.clocks.running = None;
                self.clocks_at = now;
                self.refresh_candidates();
                Some(crate::game::words::result_sentence(self.kind, *result))
            }
            ServerMessage::DrawOffered { by, .. } => {
                self.draw_offer = Some(*by);
                self.offer_line(*by, "offers a draw", "a accepts, n declines")
            }
            ServerMessage::DrawDeclined { by, .. } => {
                self.draw_offer = None;
                Some(format!("{} declined the draw", name(*by)))
            }
            ServerMessage::TakebackRequested { by, .. } => {
                self.takeback_request = Some(*by);
                self.offer_line(*by, "asks to take back", "a accepts, n declines")
            }
            ServerMessage::TakebackDeclined { by, .. } => {
                self.takeback_request = None;
                Some(format!("{} declined the takeback", name(*by)))
            }
            ServerMessage::RematchOffered { by, .. } => {
                self.rematch_offer = Some(*by);
                self.offer_line(*by, "offers a rematch", "m accepts")
            }
            ServerMessage::TookBack { by, plies, .. } => Some(format!(
                "{} took back {}",
                name(*by),
                crate::game::words::count(*plies as usize, "move", "moves")
            )),
            ServerMessage::Chat { from, text, .. } => {
                self.chat.push((from.clone(), text.clone()));
                if self.chat.len() > CHAT_LINES {
                    self.chat.remove(0);
                }
                None
            }
            _ => None,
        }
    }

    /// What a move by `mover` does to the person's own pending draw offer or takeback
    /// request: it ends it unanswered (the server forgets offers at every move).
    fn lapsed_by(&self, mover: Side) -> Option<String> {
        let me = self.your_side?;
        let what = if self.draw_offer == Some(me) {
            "draw offer"
        } else if self.takeback_request == Some(me) {
            "takeback request"
        } else {
            return None;
        };
        Some(if mover == me {
            format!("your move ended your {what}")
        } else {
            format!(
                "{} moved instead of answering your {what}: it lapsed",
                AnyGame::kind_side_name(self.kind, mover)
            )
        })
    }

    /// Notes a request sent about this table: a move waits for the server's answer, and an
    /// answered question is no longer asked.
    pub fn sent(&mut self, message: &ClientMessage) {
        match message {
            ClientMessage::Move { text, .. } => {
                self.selection.clear();
                self.pending_move = Some(text.clone());
            }
            ClientMessage::AnswerDraw { .. } => self.draw_offer = None,
            ClientMessage::AnswerTakeback { .. } => self.takeback_request = None,
            _ => {}
        }
    }

    /// The texts of the legal moves as the board offers them.
    #[must_use]
    pub(crate) fn legal_texts(&self) -> Vec<String> {
        self.candidates.iter().map(|c| c.text.clone()).collect()
    }

    /// Steps the review back (`-1`) or forward (`1`) a move; forward past the last move
    /// returns to the live game. Returns a line for the status bar.
    pub(crate) fn review_step(&mut self, delta: isize) -> Result<String, String> {
        let total = self.moves.len();
        let at = self.review.as_ref().map_or(total, |r| r.at);
        let target = at.saturating_add_signed(delta);
        if target >= total && delta > 0 {
            self.review = None;
            return Ok("back to the game as it stands".to_owned());
        }
        let review = Review::new(&self.start, &self.moves, target.min(total))?;
        let caption = review.caption(&self.moves);
        self.selection.clear();
        self.review = Some(review);
        Ok(caption)
    }

    /// Advances the animation by a tick.
    pub fn tick(&mut self) {
        if let Some(animation) = &mut self.animation
            && !animation.tick()
        {
            self.animation = None;
        }
    }
}

/// Reads a position text of the server into a game.
pub(crate) fn read_position(spec: GameSpec, text: &str) -> Result<AnyGame, String> {
    spec.start(Some(text))
        .map_err(|err| format!("the server sent a position this client cannot read: {err}"))
}

/// A seat's holder in words, a person with the rating `ratings` knows (`ada 1468`); an
/// absent person's grace period is counted down by `elapsed`, the time since the holder was
/// sent (`ann disconnected: 0:42 to return`). Once the game is over (`status`) a person is
/// named alone: nobody is coming back to it.
#[must_use]
pub fn seat_text(
    kind: GameKind,
    status: &GameStatus,
    holder: &SeatHolder,
    elapsed: Duration,
    ratings: &Ratings,
) -> String {
    seat_words(kind, status, holder, elapsed, |name| {
        ratings.label(kind, name, None)
    })
}

/// A seat's holder in words, `rating` giving what follows a person's name.
fn seat_words(
    kind: GameKind,
    status: &GameStatus,
    holder: &SeatHolder,
    elapsed: Duration,
    rating: impl Fn(&str) -> String,
) -> String {
    match holder {
        SeatHolder::Empty => "open seat".to_owned(),
        SeatHolder::Human { name, .. } if matches!(status, GameStatus::Over(_)) => {
            format!("{name}{}", rating(name))
        }
        SeatHolder::Human {
            name,
            connected: true,
            ..
        } => format!("{name}{}", rating(name)),
        SeatHolder::Human {
            name,
            connected: false,
            grace_left_ms: Some(left),
        } => {
            let elapsed = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
            let secs = left.saturating_sub(elapsed).div_ceil(1000);
            format!(
                "{name}{} disconnected: {}:{:02} to return",
                rating(name),
                secs / 60,
                secs % 60
            )
        }
        SeatHolder::Human { name, .. } => format!("{name}{} (disconnected)", rating(name)),
        SeatHolder::Bot { level } => format!("bot {}", crate::game::words::bot_level(kind, *level)),
    }
}

impl Table {
    /// The holder of `side`'s seat in words at `now`, with an absent person's countdown and
    /// a person's rating; once a rated game that ended here is over, with the change it made
    /// (`ada 1468 (−32)`).
    #[must_use]
    pub fn seat_text(&self, side: Side, now: Instant, ratings: &Ratings) -> String {
        let game = (self.rated && self.result().is_some()).then_some(self.id);
        seat_words(
            self.kind,
            &self.status,
            &self.seats[side.index()],
            now.saturating_duration_since(self.seats_at),
            |name| ratings.label(self.kind, name, game),
        )
    }

    /// The status line for an offer by `by` (`offers a draw`): the other player is told the
    /// keys that answer it (`answer`), a spectator only that it was made, and the one who made
    /// it nothing.
    fn offer_line(&self, by: Side, offer: &str, answer: &str) -> Option<String> {
        let who = AnyGame::kind_side_name(self.kind, by);
        match self.your_side {
            None => Some(format!("{who} {offer}")),
            Some(me) if me != by => Some(format!("{who} {offer}: {answer}")),
            Some(_) => None,
        }
    }
}

/// A time control in words: `5+3`, `10 s a move` or `no clock`.
#[must_use]
pub(crate) fn time_control_text(control: TimeControl) -> String {
    match control {
        TimeControl::Unlimited => "no clock".to_owned(),
        TimeControl::Incremental {
            initial_secs,
            increment_secs,
        } => {
            if initial_secs % 60 == 0 {
                format!("{}+{increment_secs}", initial_secs / 60)
            } else {
                format!("{initial_secs}s+{increment_secs}")
            }
        }
        TimeControl::PerMove { secs } => format!("{secs} s a move"),
    }
}

/// Milliseconds as a clock shows them: `m:ss`, with tenths under ten seconds.
#[must_use]
pub fn clock_text(ms: u64) -> String {
    if ms < 10_000 {
        format!("0:0{}.{}", ms / 1000, (ms % 1000) / 100)
    } else {
        let secs = ms / 1000;
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absent_person_is_counted_down() {
        let away = SeatHolder::Human {
            name: "ann".to_owned(),
            connected: false,
            grace_left_ms: Some(42_000),
        };
        assert_eq!(
            seat_text(
                GameKind::Checkers,
                &GameStatus::Playing,
                &away,
                Duration::ZERO,
                &Ratings::default()
            ),
            "ann disconnected: 0:42 to return"
        );
        assert_eq!(
            seat_text(
                GameKind::Checkers,
                &GameStatus::Playing,
                &away,
                Duration::from_millis(41_500),
                &Ratings::default()
            ),
            "ann disconnected: 0:01 to return"
        );
        assert_eq!(
            seat_text(
                GameKind::Checkers,
                &GameStatus::Playing,
                &away,
                Duration::from_secs(60),
                &Ratings::default()
            ),
            "ann disconnected: 0:00 to return"
        );
        let long = SeatHolder::Human {
            name: "ann".to_owned(),
            connected: false,
            grace_left_ms: Some(90_000),
        };
        assert_eq!(
            seat_text(
                GameKind::Checkers,
                &GameStatus::Playing,
                &long,
                Duration::ZERO,
                &Ratings::default()
            ),
            "ann disconnected: 1:30 to return"
        );
        let back = SeatHolder::Human {
            name: "ann".to_owned(),
            connected: true,
            grace_left_ms: None,
        };
        assert_eq!(
            seat_text(
                GameKind::Checkers,
                &GameStatus::Playing,
                &back,
                Duration::from_secs(5),
                &Ratings::default()
            ),
            "ann"
        );
    }

    #[test]
    fn clocks_read_like_clocks() {
        assert_eq!(clock_text(300_000), "5:00");
        assert_eq!(clock_text(61_900), "1:01");
        assert_eq!(clock_text(9_450), "0:09.4");
        assert_eq!(
            time_control_text(TimeControl::Incremental {
                initial_secs: 300,
                increment_secs: 3
            }),
            "5+3"
        );
        assert_eq!(
            time_control_text(TimeControl::PerMove { secs: 10 }),
            "10 s a move"
        );
    }
}
