//! Evaluation weights as data, for any game whose evaluation is a weighted sum of terms: one
//! integer a term, read from a small text file in TOML's form (`[weights]` with `name = integer`
//! lines, and a `[provenance]` section that says where they came from). [`parse`] reads a file
//! against a game's list of term names and its range check; a file that names an unknown term,
//! leaves one out, names one twice or gives a value out of range is refused with the line and the
//! reason. [`evaluation_weights!`](crate::evaluation_weights) defines a game's `Term` enum and its
//! `Weights` (the shipped and hand-set files compiled in and parsed once) from one list, so the
//! names cannot fall out of step; checkers (`checkers_eval::weights`) and Pente
//! (`pente_eval::weights`) use it.

use std::fmt;

/// The largest weights file read (a few hundred bytes is usual).
pub const MAX_FILE_LEN: usize = 64 * 1024;

/// A weights file refused, with the line and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the {game} weights file, line {line}: {reason}")]
pub struct WeightsError {
    /// The game whose weights these are.
    pub game: &'static str,
    /// The line, counting from 1 (0 for the file as a whole).
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

/// A weights file read whole: the weights and the provenance's lines as written.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightsFile<W> {
    /// The weights.
    pub weights: W,
    /// The `[provenance]` section's keys and values (the text after `=`, trimmed, quotes kept).
    pub provenance: Vec<(String, String)>,
}

impl<W> WeightsFile<W> {
    /// The provenance's value for `key`, without quotes around a string.
    #[must_use]
    pub fn provenance(&self, key: &str) -> Option<&str> {
        self.provenance
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim_matches('"'))
    }
}

/// Reads a weights file of `game`'s terms, `names` in order: `[weights]` with every term once,
/// each value passing `check` (by the term's index), then optionally `[provenance]`; `#` starts
/// a comment.
pub fn parse<const N: usize>(
    text: &str,
    game: &'static str,
    names: &[&str; N],
    check: fn(usize, i32) -> Result<(), String>,
) -> Result<WeightsFile<[i32; N]>, WeightsError> {
    let whole = |reason: String| WeightsError {
        game,
        line: 0,
        reason,
    };
    if text.len() > MAX_FILE_LEN {
        return Err(whole(format!(
            "{} bytes, more than the {MAX_FILE_LEN} a weights file may have",
            text.len()
        )));
    }
    let mut values: [Option<i32>; N] = [None; N];
    let mut provenance = Vec::new();
    let mut section = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let fail = |reason: String| WeightsError { game, line, reason };
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
                let Some(term) = names.iter().position(|name| *name == key) else {
                    return Err(fail(format!("unknown term {key:?}")));
                };
                let number: i32 = value
                    .parse()
                    .map_err(|_| fail(format!("{key}: {value:?} is not a whole number")))?;
                check(term, number).map_err(fail)?;
                if values[term].is_some() {
                    return Err(fail(format!("{key} is given twice")));
                }
                values[term] = Some(number);
            }
        }
    }
    let mut weights = [0; N];
    for ((weight, value), name) in weights.iter_mut().zip(values).zip(names) {
        *weight = value.ok_or_else(|| whole(format!("the term {name} has no weight")))?;
    }
    Ok(WeightsFile {
        weights,
        provenance,
    })
}

/// Refuses a weight `value` for the term `name` beyond `max` either way.
pub fn within(name: &str, value: i32, max: i32) -> Result<(), String> {
    if value.abs() > max {
        return Err(format!(
            "{name}: {value} is beyond the largest weight, {max}"
        ));
    }
    Ok(())
}

/// Checks every value of `values` against `check`, for weights made other than from a file.
pub fn check_all<const N: usize>(
    values: &[i32; N],
    game: &'static str,
    check: fn(usize, i32) -> Result<(), String>,
) -> Result<(), WeightsError> {
    for (index, &value) in values.iter().enumerate() {
        check(index, value).map_err(|reason| WeightsError {
            game,
            line: 0,
            reason,
        })?;
    }
    Ok(())
}

/// Writes the `[weights]` section as the file has it.
pub fn write<const N: usize>(
    f: &mut fmt::Formatter<'_>,
    names: &[&str; N],
    values: &[i32; N],
) -> fmt::Result {
    writeln!(f, "[weights]")?;
    for (name, value) in names.iter().zip(values) {
        writeln!(f, "{name} = {value}")?;
    }
    Ok(())
}

/// Defines a game's evaluation terms and weights from one list: the `Term` enum (documented
/// variants, `Term::ALL` in the file's order, `Term::name`), `TERMS`, and `Weights` with the
/// shipped and hand-set weights compiled in (the constants named, parsed once; a file that does
/// not parse is a build mistake the tests catch), `from_values`, `get`, `values`, `parse` and
/// the file's text as `Display`. `check` decides which values a term may have.
#[macro_export]
macro_rules! evaluation_weights {
    (
        game: $game:literal,
        shipped: $shipped:ident,
        hand: $hand:ident,
        check: $check:path,
        terms: { $($(#[$doc:meta])* $variant:ident = $name:literal,)* }
    ) => {
        /// One term of the evaluation; the evaluation is the sum of each term's count times its
        /// weight.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Term {
            $($(#[$doc])* $variant,)*
        }

        impl Term {
            /// Every term, in the order of the weights file.
            pub const ALL: [Term; [$($name),*].len()] = [$(Term::$variant),*];

            /// Every term's name in the weights file, in the same order.
            pub const NAMES: [&'static str; [$($name),*].len()] = [$($name),*];

            /// The term's name in the weights file.
            #[must_use]
            pub const fn name(self) -> &'static str {
                Term::NAMES[self as usize]
            }
        }

        /// How many terms there are.
        pub const TERMS: usize = Term::ALL.len();

        /// One weight a term, in the evaluation's unit.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct Weights([i32; TERMS]);

        impl Weights {
            /// The weights the expert plays with, shipped with kingme (as `kingme tune` fitted
            /// them, once a fit measured better than the hand-set weights).
            ///
            /// # Panics
            /// If the compiled-in file does not parse: a build mistake the tests catch.
            #[must_use]
            pub fn shipped() -> &'static Weights {
                static SHIPPED_WEIGHTS: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
                SHIPPED_WEIGHTS.get_or_init(|| Weights::compiled_in($shipped))
            }

            /// The hand-set weights the tuning started from.
            ///
            /// # Panics
            /// If the compiled-in file does not parse: a build mistake the tests catch.
            #[must_use]
            pub fn hand() -> &'static Weights {
                static HAND_WEIGHTS: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
                HAND_WEIGHTS.get_or_init(|| Weights::compiled_in($hand))
            }

            /// Weights from one value a term, in [`Term::ALL`]'s order, refused if one is out
            /// of range.
            pub fn from_values(
                values: [i32; TERMS],
            ) -> Result<Weights, $crate::ai::weights_file::WeightsError> {
                $crate::ai::weights_file::check_all(&values, $game, $check)?;
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

            /// Reads a weights file: `[weights]` with every term once, then optionally
            /// `[provenance]`; `#` starts a comment.
            pub fn parse(
                text: &str,
            ) -> Result<
                $crate::ai::weights_file::WeightsFile<Weights>,
                $crate::ai::weights_file::WeightsError,
            > {
                let file = $crate::ai::weights_file::parse(text, $game, &Term::NAMES, $check)?;
                Ok($crate::ai::weights_file::WeightsFile {
                    weights: Weights(file.weights),
                    provenance: file.provenance,
                })
            }

            /// A compiled-in file's weights.
            #[allow(clippy::panic)]
            fn compiled_in(text: &str) -> Weights {
                match Weights::parse(text) {
                    Ok(file) => file.weights,
                    Err(err) => panic!("{err} (a compiled-in file: a build mistake)"),
                }
            }
        }

        impl std::fmt::Display for Weights {
            /// The `[weights]` section as the file has it.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                $crate::ai::weights_file::write(f, &Term::NAMES, &self.0)
            }
        }
    };
}
