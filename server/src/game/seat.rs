//! A seat at a table, held by a person's session or by a built-in bot, behind one interface:
//! the table asks "the side to move" to move and never cares which it is, as the classic judge
//! asked "the black player" and "the white player".

use super::bot::{Bot, BotAnswer, MoveRequest, SearchPool};
use super::offers::Offer;
use crate::players::Session;
use crate::storage::Participant;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{PlayerId, SeatHolder, ServerMessage};
use std::sync::Arc;

/// Who sits in a seat.
#[derive(Debug)]
pub enum Seat {
    Empty,
    Human {
        session: Arc<Session>,
        /// Whether the player's connection is up (an absent player keeps the seat for the grace
        /// period).
        connected: bool,
        /// Whether the player left the (finished) game: the seat keeps its name for the record
        /// but gets no more messages.
        left: bool,
    },
    Bot(Bot),
}

impl Seat {
    /// An open seat.
    #[must_use]
    pub fn empty() -> Seat {
        Seat::Empty
    }

    /// A seat for a built-in bot at `level`, searching in the shared `pool`.
    #[must_use]
    pub fn bot(level: Level, pool: SearchPool) -> Seat {
        Seat::Bot(Bot::new(level, pool))
    }

    /// A seat for a person.
    #[must_use]
    pub fn human(session: Arc<Session>) -> Seat {
        let connected = session.is_connected();
        Seat::Human {
            session,
            connected,
            left: false,
        }
    }

    /// How others see this seat (the table adds an absent person's time left to return).
    #[must_use]
    pub fn holder(&self) -> SeatHolder {
        match self {
            Seat::Empty => SeatHolder::Empty,
            Seat::Human {
                session, connected, ..
            } => SeatHolder::Human {
                name: session.name.clone(),
                connected: *connected,
                grace_left_ms: None,
            },
            Seat::Bot(bot) => SeatHolder::Bot { level: bot.level },
        }
    }

    /// Who holds the seat, for the database.
    #[must_use]
    pub fn participant(&self) -> Participant {
        match self {
            Seat::Empty => Participant::Empty,
            Seat::Human { session, .. } => session.participant(),
            Seat::Bot(bot) => Participant::Bot(bot.level),
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        matches!(self, Seat::Empty)
    }

    /// Whether the seat chooses its moves by itself (a bot), so the table asks it again when
    /// an answer was lost.
    #[must_use]
    pub fn moves_by_itself(&self) -> bool {
        matches!(self, Seat::Bot(_))
    }

    /// How the seat answers `offer` at once, or `None` when its person will answer: a bot
    /// plays on rather than agree a draw, grants a takeback only in an unrated game, and
    /// always agrees to a rematch.
    #[must_use]
    pub fn answer_offer(&self, offer: Offer, rated: bool) -> Option<bool> {
        match self {
            Seat::Bot(_) => Some(match offer {
                Offer::Draw => false,
                Offer::Takeback => !rated,
                Offer::Rematch => true,
            }),
            Seat::Empty | Seat::Human { .. } => None,
        }
    }

    /// A fresh seat for the same holder in a rematch: the same person, or a bot at the same
    /// level; empty if the person left.
    #[must_use]
    pub fn rematch_twin(&self) -> Seat {
        match self {
            Seat::Bot(bot) => Seat::Bot(bot.twin()),
            seat => seat
                .session()
                .map_or(Seat::Empty, |session| Seat::human(Arc::clone(session))),
        }
    }

    /// The person in the seat, while it still takes part.
    #[must_use]
    pub fn session(&self) -> Option<&Arc<Session>> {
        match self {
            Seat::Human {
                session,
                left: false,
                ..
            } => Some(session),
            _ => None,
        }
    }

    /// Whether the seat is held by `player` (who has not left).
    #[must_use]
    pub fn is_held_by(&self, player: PlayerId) -> bool {
        self.session().is_some_and(|session| session.id == player)
    }

    /// Whether a connected person takes part from this seat.
    #[must_use]
    pub fn has_connected_human(&self) -> bool {
        matches!(
            self,
            Seat::Human {
                connected: true,
                left: false,
                ..
            }
        )
    }

    /// Whether a person who has not left is away (its connection dropped).
    #[must_use]
    pub fn is_absent(&self) -> bool {
        matches!(
            self,
            Seat::Human {
                connected: false,
                left: false,
                ..
            }
        )
    }

    /// Sends a message to the person in the seat (bots need none).
    pub fn send(&self, message: ServerMessage) {
        if let Some(session) = self.session() {
            session.send(message);
        }
    }

    /// Asks the seat's holder for a move: a person gets `your_turn`, a bot starts thinking.
    pub fn ask_to_move<C: From<BotAnswer> + Send + 'static>(
        &mut self,
        your_turn: impl FnOnce() -> ServerMessage,
        bot: MoveRequest<C>,
    ) {
        match self {
            Seat::Empty => {}
            Seat::Human { .. } => self.send(your_turn()),
            Seat::Bot(player) => player.think(bot),
        }
    }

    /// Stops a bot's thinking (the position changed or the game ended).
    pub fn stop(&mut self) {
        if let Seat::Bot(bot) = self {
            bot.stop();
        }
    }

    /// Marks the person's connection as up or down; returns whether the seat is a person's.
    pub fn set_connected(&mut self, up: bool) -> bool {
        match self {
            Seat::Human { connected, .. } => {
                *connected = up;
                true
            }
            _ => false,
        }
    }

    /// Marks that the person left.
    pub fn mark_left(&mut self) {
        if let Seat::Human { left, .. } = self {
            *left = true;
        }
    }
}
