//! The weights of the expert's checkers evaluation, as data ([`crate::ai::weights_file`]): one
//! integer a [`Term`], the shipped weights (`shared/data/checkers-weights.toml`, fitted by
//! `kingme tune`) and the hand-set ones they replaced (`shared/data/checkers-weights-hand.toml`,
//! kept to measure against), compiled in and parsed once.

pub use crate::ai::weights_file::{MAX_FILE_LEN, WeightsError};

/// The shipped weights' file, compiled in.
const SHIPPED: &str = include_str!("../../../data/checkers-weights.toml");

/// The hand-set weights the tuning started from, compiled in.
const HAND: &str = include_str!("../../../data/checkers-weights-hand.toml");

/// The largest weight allowed, either sign: far above any term's worth, small enough that no sum
/// of terms overflows an `i32`.
pub const MAX_WEIGHT: i32 = 10_000;

/// A checkers weights file read whole.
pub type WeightsFile = crate::ai::weights_file::WeightsFile<Weights>;

crate::evaluation_weights! {
    game: "checkers",
    shipped: SHIPPED,
    hand: HAND,
    check: check,
    terms: {
        /// A man; the unit of the scale (the fit keeps it at 100).
        Man = "man",
        /// A king.
        King = "king",
        /// Trading down when ahead: the fewer pieces left, the more the lead counts (24 less the
        /// pieces on the board, signed by who is ahead).
        TradeDown = "trade_down",
        /// A man one row from its own back row.
        Advance1 = "advance_1",
        /// A man two rows forward.
        Advance2 = "advance_2",
        /// A man three rows forward.
        Advance3 = "advance_3",
        /// A man four rows forward.
        Advance4 = "advance_4",
        /// A man five rows forward.
        Advance5 = "advance_5",
        /// A man six rows forward, one step from crowning.
        Advance6 = "advance_6",
        /// A man on the bridge squares of the back row (1 and 3 for Black) while the other side
        /// still has men to crown.
        BackGuard = "back_guard",
        /// A man anywhere on its back row while the other side still has men to crown.
        BackRank = "back_rank",
        /// A man on one of the eight central squares.
        CentreMen = "centre_men",
        /// A king on one of the eight central squares.
        CentreKings = "centre_kings",
        /// A king on the edge of the board.
        EdgeKings = "edge_kings",
        /// A move the side would have if it were its turn.
        Mobility = "mobility",
        /// A man stuck in a dog hole: Black's on 28 with White's man on 32, White's on 5 with
        /// Black's on 1.
        DogHoles = "dog_holes",
        /// A runaway man: no enemy piece in the cone of squares ahead of it, so nothing can stop it
        /// crowning.
        Runaways = "runaways",
        /// A king with no empty square next to it.
        TrappedKings = "trapped_kings",
        /// Tempo in the ending: the rows the men have advanced, times the pieces gone from the
        /// board, over eight.
        TempoLate = "tempo_late",
        /// Endgame: each king of the stronger side, the steps to the nearest weak piece (when the
        /// weaker side has only kings, and eight pieces or fewer are left).
        HunterDistance = "hunter_distance",
        /// Endgame: each move the weaker side's kings have.
        WeakKingMoves = "weak_king_moves",
        /// Endgame: each weak king out of the double corners.
        WeakKingsOut = "weak_kings_out",
}
}

/// Whether `value` is an acceptable weight for `term`: within [`MAX_WEIGHT`], and a man and a
/// king worth something.
fn check(term: usize, value: i32) -> Result<(), String> {
    let term = Term::ALL[term];
    crate::ai::weights_file::within(term.name(), value, MAX_WEIGHT)?;
    if matches!(term, Term::Man | Term::King) && value <= 0 {
        return Err(format!(
            "{}: {value}; a piece must be worth more than 0",
            term.name()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_compiled_in_files_read() {
        assert_eq!(Weights::shipped().get(Term::Man), 100);
        assert_eq!(Weights::hand().get(Term::Man), 100);
        assert_eq!(Weights::hand().get(Term::King), 140);
    }

    #[test]
    fn a_file_round_trips_through_its_text() {
        let weights = *Weights::hand();
        let text = format!("# a comment\n{weights}\n[provenance]\nseed = 7\ncommand = \"a # b\"\n");
        let file = Weights::parse(&text).expect("its own text");
        assert_eq!(file.weights, weights);
        assert_eq!(file.provenance("seed"), Some("7"));
        assert_eq!(file.provenance("command"), Some("a # b"));
    }

    fn refusal(text: &str) -> String {
        Weights::parse(text).expect_err(text).to_string()
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let good = Weights::hand().to_string();
        assert!(refusal(&good.replace("king = 140", "")).contains("king has no weight"));
        assert!(refusal(&format!("{good}man = 100\n")).contains("man is given twice"));
        assert!(refusal(&good.replace("king = 140", "queen = 140")).contains("unknown term"));
        assert!(refusal(&good.replace("king = 140", "king = 1e3")).contains("not a whole"));
        assert!(refusal(&good.replace("king = 140", "king = 0")).contains("worth more"));
        assert!(refusal(&good.replace("king = 140", "king = 99999")).contains("largest"));
        assert!(refusal(&good.replace("[weights]", "[wait]")).contains("unknown section"));
        assert!(refusal("man = 100\n").contains("before any [section]"));
        assert!(refusal(&" ".repeat(MAX_FILE_LEN + 1)).contains("more than"));
        assert!(Weights::from_values([MAX_WEIGHT + 1; TERMS]).is_err());
    }
}
