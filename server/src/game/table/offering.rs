//! Offers between the players, through one path: a player makes an offer (a draw, a takeback,
//! a rematch), the other seat answers for itself at once (a bot) or its person answers later,
//! and an agreed offer is carried out. Pending offers live in [`Offers`](crate::game::offers),
//! keyed by the judge's epoch, so a move or a takeback voids them without anyone clearing them.

use super::{Table, create};
use crate::game::offers::Offer;
use crate::players::Session;
use crate::refusal::Refusal;
use kingme_shared::Side;
use kingme_shared::protocol::{EndReason, GameStatus, ServerMessage};
use std::sync::Arc;

impl Table {
    /// `session`'s seat makes `offer`.
    pub(super) async fn offer(
        &mut self,
        session: &Arc<Session>,
        offer: Offer,
    ) -> Result<(), Refusal> {
        let side = self.offering_side(session, offer)?;
        let opponent = side.opponent();
        let epoch = self.judge.epoch();
        if offer.meets_itself() && self.offers.by(offer, epoch) == Some(opponent) {
            // Both want it: the offer on the table is agreed.
            self.offers.take(offer, opponent, epoch);
            self.agreed(offer, opponent).await;
            return Ok(());
        }
        self.broadcast(&offered(offer, self.id, side));
        match self.seats[opponent.index()].answer_offer(offer, self.setup.rated) {
            Some(true) => self.agreed(offer, side).await,
            Some(false) => self.declined(offer, opponent),
            None => self.offers.make(offer, side, epoch),
        }
        Ok(())
    }

    /// `session`'s seat answers the other side's `offer`.
    pub(super) async fn answer(
        &mut self,
        session: &Arc<Session>,
        offer: Offer,
        accept: bool,
    ) -> Result<(), Refusal> {
        let side = self.playing_side(session)?;
        if !self.offers.take(offer, side.opponent(), self.judge.epoch()) {
            return Err(Refusal::NothingToAnswer(offer.noun()));
        }
        if accept {
            self.agreed(offer, side.opponent()).await;
        } else {
            self.declined(offer, side);
        }
        Ok(())
    }

    /// Who may make `offer` now, or why not.
    fn offering_side(&self, session: &Session, offer: Offer) -> Result<Side, Refusal> {
        match offer {
            Offer::Draw => self.playing_side(session),
            Offer::Takeback => {
                let side = self.playing_side(session)?;
                self.judge
                    .takeback_plies(side)
                    .map(|_| side)
                    .ok_or(Refusal::NothingToTakeBack)
            }
            Offer::Rematch => {
                let side = self.player_side(session)?;
                if matches!(self.judge.status(), GameStatus::Over(_)) {
                    Ok(side)
                } else {
                    Err(Refusal::RematchTooEarly)
                }
            }
        }
    }

    /// Carries out `offer`, made by `by` and agreed by the other side.
    async fn agreed(&mut self, offer: Offer, by: Side) {
        match offer {
            Offer::Draw => self.end(None, EndReason::DrawAgreed),
            Offer::Takeback => self.take_back(by),
            Offer::Rematch => self.start_rematch().await,
        }
    }

    fn declined(&mut self, offer: Offer, by: Side) {
        let game = self.id;
        match offer {
            Offer::Draw => self.broadcast(&ServerMessage::DrawDeclined { game, by }),
            Offer::Takeback => self.broadcast(&ServerMessage::TakebackDeclined { game, by }),
            // A rematch offer is simply left unanswered.
            Offer::Rematch => {}
        }
    }

    /// Opens the rematch, colours swapped: the new first seat goes to the old second seat's
    /// holder and the other way round. The game is over, so waiting here for a game id (when a
    /// burst of new games used up those reserved ahead) and for the rematch to be stored holds
    /// up nothing. The rematch is announced only once stored, and before its table opens (so
    /// `RematchStarted` comes before the rematch's state); if it cannot be, the players are
    /// told why.
    async fn start_rematch(&mut self) {
        let seats = [Side::Second, Side::First].map(|old| self.seats[old.index()].rematch_twin());
        let created = match self.context.registry.next_id(&self.context.storage).await {
            Ok(id) => create(&self.context, id, self.setup.clone(), seats, Vec::new()).await,
            Err(refusal) => Err(refusal),
        };
        let created = match created {
            Ok(created) => created,
            Err(refusal) => {
                let notice = ServerMessage::Error {
                    kind: refusal.kind(),
                    message: format!("no rematch of game {}: {refusal}", self.id),
                    fatal: false,
                };
                self.broadcast(&notice);
                return;
            }
        };
        self.broadcast(&ServerMessage::RematchStarted {
            game: self.id,
            rematch: created.id(),
        });
        self.settle().await;
        created.open();
    }
}

/// The announcement that `by` made `offer`.
fn offered(offer: Offer, game: kingme_shared::protocol::GameId, by: Side) -> ServerMessage {
    match offer {
        Offer::Draw => ServerMessage::DrawOffered { game, by },
        Offer::Takeback => ServerMessage::TakebackRequested { game, by },
        Offer::Rematch => ServerMessage::RematchOffered { game, by },
    }
}
