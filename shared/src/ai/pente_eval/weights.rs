//! The weights of Pente's evaluation, as data ([`crate::ai::weights_file`]): one integer a
//! [`Term`], the expert's (`shared/data/pente-weights.toml`) and the hand-set ones
//! (`shared/data/pente-weights-hand.toml`: exactly the evaluation before its weights became
//! data, which the levels below the expert keep), compiled in and parsed once. The expert's are
//! the hand-set ones too for now: the weights `kingme tune --game pente` fitted
//! (`shared/data/pente-weights-fit.toml`) measured no better against the yardstick. Every term
//! is counted from the side to move.

/// The expert's weights' file, compiled in.
const SHIPPED: &str = include_str!("../../../data/pente-weights.toml");

/// The hand-set weights, compiled in.
const HAND: &str = include_str!("../../../data/pente-weights-hand.toml");

/// The largest weight allowed, either sign.
pub const MAX_WEIGHT: i32 = 10_000;

/// A Pente weights file read whole.
pub type WeightsFile = crate::ai::weights_file::WeightsFile<Weights>;

crate::evaluation_weights! {
    game: "Pente",
    shipped: SHIPPED,
    hand: HAND,
    check: check,
    terms: {
        /// A five-point window holding one stone of one side and none of the other (the side
        /// to move's minus the other's).
        Window1 = "window_1",
        /// A window with two stones.
        Window2 = "window_2",
        /// A window with three stones; the unit of the scale (the fit keeps it).
        Window3 = "window_3",
        /// A window with four stones (in the samples always 0: the side to move with a four
        /// wins, and one facing a four is searched further).
        Window4 = "window_4",
        /// An open three of the side to move (six points, empty at both ends, three stones of
        /// its own between them): it makes an open four next.
        OpenThreeMover = "open_three_mover",
        /// An open three of the side that just moved, which the side to move must answer.
        OpenThreeWaiting = "open_three_waiting",
        /// The move: 1 for the side to move.
        Tempo = "tempo",
        /// One pair captured (the side to move's minus the other's).
        Pairs1 = "pairs_1",
        /// Two pairs captured.
        Pairs2 = "pairs_2",
        /// Three pairs captured.
        Pairs3 = "pairs_3",
        /// Four pairs captured, one from the fifth.
        Pairs4 = "pairs_4",
        /// The side to move can take a pair, having none yet.
        Take0 = "take_0",
        /// The side to move can take a pair, having one.
        Take1 = "take_1",
        /// The side to move can take a pair, having two.
        Take2 = "take_2",
        /// The side to move can take a pair, having three (the fourth, one from the fifth).
        Take3 = "take_3",
        /// One pair of the side to move can be taken, the other side having no pair yet.
        Exposed0 = "exposed_0",
        /// One pair exposed, the other side having one.
        Exposed1 = "exposed_1",
        /// One pair exposed, the other side having two.
        Exposed2 = "exposed_2",
        /// One pair exposed, the other side having three.
        Exposed3 = "exposed_3",
        /// Two or more pairs of the side to move can be taken, the other side having none yet.
        ExposedTwice0 = "exposed_twice_0",
        /// Two or more exposed, the other side having one.
        ExposedTwice1 = "exposed_twice_1",
        /// Two or more exposed, the other side having two.
        ExposedTwice2 = "exposed_twice_2",
        /// Two or more exposed, the other side having three.
        ExposedTwice3 = "exposed_twice_3",
        /// The side to move faces one four (not in the samples: the search extends it).
        FourAgainst = "four_against",
        /// The side to move faces two fours or more (not in the samples).
        FoursAgainst = "fours_against",
    }
}

/// Whether `value` is an acceptable weight: within [`MAX_WEIGHT`].
fn check(term: usize, value: i32) -> Result<(), String> {
    crate::ai::weights_file::within(Term::ALL[term].name(), value, MAX_WEIGHT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_compiled_in_files_read_and_round_trip() {
        assert_eq!(Weights::hand().get(Term::Window3), 60);
        assert_eq!(
            Weights::shipped().get(Term::Window3),
            Weights::hand().get(Term::Window3)
        );
        let text = format!("{}\n[provenance]\nseed = 7\n", Weights::shipped());
        let file = Weights::parse(&text).expect("its own text");
        assert_eq!(file.weights, *Weights::shipped());
        assert_eq!(file.provenance("seed"), Some("7"));
        let refusal = Weights::parse(&text.replace("tempo =", "tempi =")).expect_err("unknown");
        assert!(
            refusal.to_string().contains("the Pente weights file, line"),
            "{refusal}"
        );
        assert!(Weights::from_values([MAX_WEIGHT + 1; TERMS]).is_err());
    }
}
