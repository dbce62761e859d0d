//! The weights of the expert's checkers evaluation, as data: one integer a [`Term`], read from a
//! small text file in TOML's form (`[weights]` with `name = integer` lines, and a `[provenance]`
//! section that says where they came from). The shipped weights
//! (`shared/data/checkers-weights.toml`, fitted by `kingme tune`) and the hand-set ones they
//! replaced (`shared/data/checkers-weights-hand.toml`, kept to measure against) are compiled in
//! and parsed once; a file that names an unknown term, leaves one out, names one twice or gives a
//! value out of range is refused with the line and the reason.

use std::fmt;
use std::sync::OnceLock;

/// The shipped weights' file, compiled in.
const SHIPPED: &str = include_str!("../../../data/checkers-weights.toml");

/// The hand-set weights the tuning started from, compiled in.
const HAND: &str = include_str!("../../../data/checkers-weights-hand.toml");

/// The largest weight allowed, either sign: far above any term's worth, small enough that no sum
/// of terms overflows an `i32`.
pub const MAX_WEIGHT: i32 = 10_000;

/// The largest weights file read (a few hundred bytes is usual).
pub const MAX_FILE_LEN: usize = 64 * 1024;

/// Defines [`Term`] and its names in one place, so the list cannot fall out of step.
macro_rules! terms {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// One term of the evaluation, Black's count minus White's; the evaluation is the sum of
        /// each term's count times its weight.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Term {
            $($(#[$doc])* $variant,)*
        }

        impl Term {
            /// Every term, in the order of the weights file.
            pub const ALL: [Term; [$($name),*].len()] = [$(Term::$variant),*];

            /// The term's name in the weights file.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(Term::$variant => $name,)*
                }
            }
        }
    };
}

terms! {
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

/// How many terms there are.
pub const TERMS: usize = Term::ALL.len();

/// One weight a term, in the evaluation's unit (a man is 100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weights([i32; TERMS]);

/// A weights file refused, with the line and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the checkers weights file, line {line}: {reason}")]
pub struct WeightsError {
    /// The line, counting from 1 (0 for the file as a whole).
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

/// A weights file read whole: the weights and the provenance's lines as written.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightsFile {
    /// The weights.
    pub weights: Weights,
    /// The `[provenance]` section's keys and values (the text after `=`, trimmed, quotes kept).
    pub provenance: Vec<(String, String)>,
}

impl WeightsFile {
    /// The provenance's value for `key`, without quotes around a string.
    #[must_use]
    pub fn provenance(&self, key: &str) -> Option<&str> {
        self.provenance
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim_matches('"'))
    }
}

impl Weights {
    /// The weights shipped with kingme, fitted by `kingme tune`.
    ///
    /// # Panics
    /// If the compiled-in file does not parse: a build mistake the tests catch.
    #[must_use]
    pub fn shipped() -> &'static Weights {
        static SHIPPED_WEIGHTS: OnceLock<Weights> = OnceLock::new();
        SHIPPED_WEIGHTS.get_or_init(|| compiled_in(SHIPPED))
    }

    /// The hand-set weights the tuning replaced (the evaluation as it was before it).
    ///
    /// # Panics
    /// If the compiled-in file does not parse: a build mistake the tests catch.
    #[must_use]
    pub fn hand() -> &'static Weights {
        static HAND_WEIGHTS: OnceLock<Weights> = OnceLock::new();
        HAND_WEIGHTS.get_or_init(|| compiled_in(HAND))
    }

    /// Weights from one value a term, in [`Term::ALL`]'s order, refused if one is out of range.
    pub fn from_values(values: [i32; TERMS]) -> Result<Weights, WeightsError> {
        for (term, value) in Term::ALL.iter().zip(values) {
            check(*term, value).map_err(|reason| WeightsError { line: 0, reason })?;
        }
        Ok(Weights(values))
    }

    /// The weight of `term`.
    #[inline(always)]
    #[must_use]
    pub const fn get(&self, term: Term) -> i32 {
        self.0[term as usize]
    }

    /// Every weight, in [`Term::ALL`]'s order.
    #[must_use]
    pub const fn values(&self) -> [i32; TERMS] {
        self.0
    }

    /// Reads a weights file: `[weights]` with every term once, then optionally `[provenance]`;
    /// `#` starts a comment.
    pub fn parse(text: &str) -> Result<WeightsFile, WeightsError> {
        if text.len() > MAX_FILE_LEN {
            return Err(WeightsError {
                line: 0,
                reason: format!(
                    "{} bytes, more than the {MAX_FILE_LEN} a weights file may have",
                    text.len()
                ),
            });
        }
        let mut values: [Option<i32>; TERMS] = [None; TERMS];
        let mut provenance = Vec::new();
        let mut section = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let fail = |reason: String| WeightsError { line, reason };
            let content = match raw.split_once('#') {
                // A `#` inside a quoted provenance value is part of it.
                Some((before, _)) if before.matches('"').count() % 2 == 0 => before,
                _ => raw,
            }
            .trim();
            if content.is_empty() {
                continue;
            }
            if let Some(name) = content.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
                section = match name.trim() {
                    "weights" => Some(true),
                    "provenance" => Some(false),
                    other => {
                        return Err(fail(format!(
                            "unknown section [{other}]; expected [weights] or [provenance]"
                        )));
                    }
                };
                continue;
            }
            let Some((key, value)) = content.split_once('=') else {
                return Err(fail(format!("expected name = value, found {content:?}")));
            };
            let (key, value) = (key.trim(), value.trim());
            match section {
                None => return Err(fail("a value before any [section]".to_owned())),
                Some(false) => provenance.push((key.to_owned(), value.to_owned())),
                Some(true) => {
                    let Some(term) = Term::ALL.iter().find(|t| t.name() == key) else {
                        return Err(fail(format!("unknown term {key:?}")));
                    };
                    let number: i32 = value
                        .parse()
                        .map_err(|_| fail(format!("{key}: {value:?} is not a whole number")))?;
                    check(*term, number).map_err(fail)?;
                    let slot = &mut values[*term as usize];
                    if slot.is_some() {
                        return Err(fail(format!("{key} is given twice")));
                    }
                    *slot = Some(number);
                }
            }
        }
        let mut weights = [0; TERMS];
        for (term, (weight, value)) in Term::ALL.iter().zip(weights.iter_mut().zip(values)) {
            *weight = value.ok_or_else(|| WeightsError {
                line: 0,
                reason: format!("the term {} has no weight", term.name()),
            })?;
        }
        Ok(WeightsFile {
            weights: Weights(weights),
            provenance,
        })
    }
}

/// Whether `value` is an acceptable weight for `term`: within [`MAX_WEIGHT`], and a man and a
/// king worth something.
fn check(term: Term, value: i32) -> Result<(), String> {
    if value.abs() > MAX_WEIGHT {
        return Err(format!(
            "{}: {value} is beyond the largest weight, {MAX_WEIGHT}",
            term.name()
        ));
    }
    if matches!(term, Term::Man | Term::King) && value <= 0 {
        return Err(format!(
            "{}: {value}; a piece must be worth more than 0",
            term.name()
        ));
    }
    Ok(())
}

/// A compiled-in file's weights.
#[allow(clippy::panic)]
fn compiled_in(text: &str) -> Weights {
    match Weights::parse(text) {
        Ok(file) => file.weights,
        Err(err) => panic!("{err} (a compiled-in file: a build mistake)"),
    }
}

impl fmt::Display for Weights {
    /// The `[weights]` section as the file has it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "[weights]")?;
        for term in Term::ALL {
            writeln!(f, "{} = {}", term.name(), self.get(term))?;
        }
        Ok(())
    }
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
