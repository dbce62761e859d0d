//! What one player asks the other to agree to (a draw, a takeback, a rematch) and the offers
//! still waiting for an answer. An offer belongs to the position it was made in: it is kept with
//! the judge's epoch at that moment and lapses by itself once the position changes, so no
//! command has to remember to clear it.

use kingme_shared::Side;

/// Something a player asks the other to agree to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    Draw,
    Takeback,
    Rematch,
}

impl Offer {
    /// The offer's name in a refusal ("there is no draw offer to answer").
    #[must_use]
    pub fn noun(self) -> &'static str {
        match self {
            Offer::Draw => "draw offer",
            Offer::Takeback => "takeback request",
            Offer::Rematch => "rematch offer",
        }
    }

    /// Whether making the offer the other side is already making agrees to it (two draw
    /// offers are a draw; two takeback requests are two requests, each for its own move).
    #[must_use]
    pub fn meets_itself(self) -> bool {
        matches!(self, Offer::Draw | Offer::Rematch)
    }

    fn index(self) -> usize {
        match self {
            Offer::Draw => 0,
            Offer::Takeback => 1,
            Offer::Rematch => 2,
        }
    }
}

/// The offers waiting for an answer, each with the side that made it and the position's epoch.
#[derive(Debug, Default, Clone)]
pub struct Offers {
    pending: [Option<(Side, u64)>; 3],
}

impl Offers {
    /// Records that `by` made `offer` in the position numbered `epoch`.
    pub fn make(&mut self, offer: Offer, by: Side, epoch: u64) {
        self.pending[offer.index()] = Some((by, epoch));
    }

    /// Who made `offer`, if it still stands in the position numbered `epoch`.
    #[must_use]
    pub fn by(&self, offer: Offer, epoch: u64) -> Option<Side> {
        self.pending[offer.index()]
            .filter(|&(_, made)| made == epoch)
            .map(|(by, _)| by)
    }

    /// Takes `offer` out to answer it, if `by` made it and it still stands at `epoch`.
    pub fn take(&mut self, offer: Offer, by: Side, epoch: u64) -> bool {
        let stands = self.by(offer, epoch) == Some(by);
        self.pending[offer.index()] = None;
        stands
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offer_lapses_when_the_position_changes() {
        let mut offers = Offers::default();
        offers.make(Offer::Draw, Side::First, 4);
        assert_eq!(offers.by(Offer::Draw, 4), Some(Side::First));
        assert_eq!(offers.by(Offer::Takeback, 4), None);
        assert_eq!(offers.by(Offer::Draw, 5), None, "a move was played since");
        assert!(!offers.take(Offer::Draw, Side::First, 5));
        assert_eq!(
            offers.by(Offer::Draw, 4),
            None,
            "taking clears it either way"
        );
    }

    #[test]
    fn only_the_side_that_made_an_offer_can_have_it_answered() {
        let mut offers = Offers::default();
        offers.make(Offer::Takeback, Side::Second, 1);
        assert!(!offers.take(Offer::Takeback, Side::First, 1));
        offers.make(Offer::Takeback, Side::Second, 1);
        assert!(offers.take(Offer::Takeback, Side::Second, 1));
        assert!(
            !offers.take(Offer::Takeback, Side::Second, 1),
            "answered once"
        );
    }
}
