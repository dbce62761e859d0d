//! Game variants as data: a [`GameSpec`] is a game and the rule variant it is played under
//! (Pente with or without the tournament rule, ...), and the one way to start or read a position
//! for it.
//!
//! The list of variants lives here, inside `games/`, so nothing outside it needs to know which
//! game has which variants: the wire, the database, the server and the client carry a
//! `GameSpec`, ask it for a start position with [`GameSpec::start`], and show it by its name.
//! A spec is valid by construction: its fields are private, and every way to make one (the
//! constants, [`GameSpec::new`], the text form, deserializing) checks that the variant belongs
//! to the game, so hostile input gets an error, never a spec the rules cannot play.

use crate::any_game::{AnyGame, GameKind};
use crate::game::PositionError;
use crate::games::checkers::{BoardFile, BoardFileError, Checkers};
use crate::games::pente::{Pente, PenteRules};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The longest text [`GameSpec::start`] reads, in bytes: a checkers board file, the longest of
/// the position forms.
pub const MAX_START_TEXT: usize = crate::games::checkers::MAX_BOARD_FILE_LEN;

/// A rule variant. Which games have which variants is [`GameSpec::ALL`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// The game's standard rules (Pente: with the tournament rule, as pente.org plays it).
    #[default]
    Standard,
    /// Pente without the tournament rule: only the opening on K10 is prescribed.
    Free,
}

impl Variant {
    /// The code the database stores.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Free => "free",
        }
    }

    /// Reads a stored code back.
    pub fn from_code(code: &str) -> Result<Variant, SpecError> {
        match code {
            "standard" => Ok(Variant::Standard),
            "free" => Ok(Variant::Free),
            other => Err(SpecError::UnknownVariant(other.to_owned())),
        }
    }
}

/// A game and its rule variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "SpecParts", into = "SpecParts")]
pub struct GameSpec {
    kind: GameKind,
    variant: Variant,
}

/// The wire form of a spec, checked by [`GameSpec::new`] when read.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct SpecParts {
    kind: GameKind,
    variant: Variant,
}

impl TryFrom<SpecParts> for GameSpec {
    type Error = SpecError;

    fn try_from(parts: SpecParts) -> Result<Self, Self::Error> {
        GameSpec::new(parts.kind, parts.variant)
    }
}

impl From<GameSpec> for SpecParts {
    fn from(spec: GameSpec) -> Self {
        SpecParts {
            kind: spec.kind,
            variant: spec.variant,
        }
    }
}

/// What a spec is called: on command lines and in lists (`name`), and in a text record's
/// `Rule:` line (`rule`).
struct Names {
    spec: GameSpec,
    name: &'static str,
    rule: &'static str,
}

/// Every spec with its names: the one list of variants.
const NAMES: [Names; 4] = [
    Names {
        spec: GameSpec::standard(GameKind::Checkers),
        name: "checkers",
        rule: "standard",
    },
    Names {
        spec: GameSpec::standard(GameKind::Pente),
        name: "pente",
        rule: "tournament",
    },
    Names {
        spec: GameSpec {
            kind: GameKind::Pente,
            variant: Variant::Free,
        },
        name: "pente-free",
        rule: "free",
    },
    Names {
        spec: GameSpec::standard(GameKind::TicTacToe),
        name: "tictactoe",
        rule: "standard",
    },
];

/// A spec that cannot be: a variant of another game, or a name that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("{kind} has no {} variant; {kind} is played as {}", variant.code(), GameSpec::names_of(*kind))]
    /// The variant belongs to another game.
    NotAVariant {
        /// The game named.
        kind: GameKind,
        /// The variant it does not have.
        variant: Variant,
    },
    #[error("expected a game: {names}, got {0:?}", names = GameSpec::names())]
    /// A name that is no game of ours.
    UnknownName(String),
    #[error("expected Rule: {} for {kind}, got {rule:?}", GameSpec::rules_of(*kind))]
    /// A rule name the game does not have.
    UnknownRule {
        /// The game named.
        kind: GameKind,
        /// The rule as given.
        rule: String,
    },
    #[error("expected a variant: standard or free, got {0:?}")]
    /// A variant name that is none of ours.
    UnknownVariant(String),
}

/// A start position that could not be read: the error of the form the text most resembles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// Not a position text of the game.
    #[error("not a {kind} position: {error}")]
    Position {
        /// The game whose position it was to be.
        kind: GameKind,
        /// Why the text is not one.
        error: PositionError,
    },
    /// Several lines, read as a checkers board file, and not a valid one.
    #[error("not a valid board file: {0}")]
    BoardFile(BoardFileError),
}

impl GameSpec {
    /// Every spec, in the order menus list them.
    pub const ALL: [GameSpec; 4] = [NAMES[0].spec, NAMES[1].spec, NAMES[2].spec, NAMES[3].spec];

    /// A game under its standard rules.
    #[must_use]
    pub const fn standard(kind: GameKind) -> GameSpec {
        GameSpec {
            kind,
            variant: Variant::Standard,
        }
    }

    /// A game under a variant, if the game has it.
    pub fn new(kind: GameKind, variant: Variant) -> Result<GameSpec, SpecError> {
        let spec = GameSpec { kind, variant };
        if GameSpec::ALL.contains(&spec) {
            Ok(spec)
        } else {
            Err(SpecError::NotAVariant { kind, variant })
        }
    }

    /// The same game under the rule a text record's `Rule:` line names (`tournament`, `free`).
    pub fn with_rule(kind: GameKind, rule: &str) -> Result<GameSpec, SpecError> {
        NAMES
            .iter()
            .find(|names| names.spec.kind == kind && names.rule == rule)
            .map(|names| names.spec)
            .ok_or_else(|| SpecError::UnknownRule {
                kind,
                rule: rule.to_owned(),
            })
    }

    /// Which game.
    #[must_use]
    pub fn kind(self) -> GameKind {
        self.kind
    }

    /// Which variant of it.
    #[must_use]
    pub fn variant(self) -> Variant {
        self.variant
    }

    fn names_entry(self) -> &'static Names {
        // Every spec that can exist is listed (construction checks it), so the search finds one;
        // the first entry is only a formality.
        NAMES
            .iter()
            .find(|names| names.spec == self)
            .unwrap_or(&NAMES[0])
    }

    /// The name on command lines and in lists: `checkers`, `pente`, `pente-free`, `tictactoe`.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.names_entry().name
    }

    /// The rule's name in a text record's `Rule:` line.
    #[must_use]
    pub fn rule(self) -> &'static str {
        self.names_entry().rule
    }

    /// Whether the game is played under more than one rule (its records then name the rule).
    #[must_use]
    pub fn has_variants(kind: GameKind) -> bool {
        NAMES.iter().filter(|names| names.spec.kind == kind).count() > 1
    }

    fn names() -> String {
        let names: Vec<&str> = NAMES.iter().map(|names| names.name).collect();
        names.join(", ")
    }

    fn names_of(kind: GameKind) -> String {
        let names: Vec<&str> = NAMES
            .iter()
            .filter(|names| names.spec.kind == kind)
            .map(|names| names.name)
            .collect();
        names.join(" or ")
    }

    fn rules_of(kind: GameKind) -> String {
        let rules: Vec<&str> = NAMES
            .iter()
            .filter(|names| names.spec.kind == kind)
            .map(|names| names.rule)
            .collect();
        rules.join(" or ")
    }

    fn pente_rules(self) -> PenteRules {
        PenteRules {
            tournament: self.variant != Variant::Free,
        }
    }

    /// The game's standard start position under these rules.
    #[must_use]
    pub fn standard_start(self) -> AnyGame {
        match self.kind {
            GameKind::Pente => AnyGame::Pente(Pente::with_rules(self.pente_rules())),
            kind => AnyGame::start(kind),
        }
    }

    /// The one way to start a game of this spec: the standard start for `None` or a blank
    /// text, else the text read in the game's position notation (checkers also takes the
    /// classic board file's lines). When the text is neither, the error is that of the form it
    /// resembles: a board file's for several lines, the notation's otherwise.
    pub fn start(self, position: Option<&str>) -> Result<AnyGame, StartError> {
        let Some(text) = position.filter(|text| !text.trim().is_empty()) else {
            return Ok(self.standard_start());
        };
        let read = match self.kind {
            GameKind::Pente => {
                Pente::from_position_text_with_rules(text.trim(), self.pente_rules())
                    .map(AnyGame::Pente)
            }
            kind => AnyGame::from_position_text(kind, text.trim()),
        };
        read.or_else(|error| match self.kind {
            GameKind::Checkers if text.trim().lines().count() > 1 => text
                .parse::<BoardFile>()
                .map(|file| AnyGame::Checkers(Checkers::from_position(file.position)))
                .map_err(StartError::BoardFile),
            kind => Err(StartError::Position { kind, error }),
        })
    }
}

impl From<GameKind> for GameSpec {
    fn from(kind: GameKind) -> Self {
        GameSpec::standard(kind)
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameSpec {
    type Err = SpecError;

    /// A spec's name (`pente-free`), or a game's name or alias (`draughts`, `tic-tac-toe`) for
    /// its standard rules, or a game's name and a rule (`pente-tournament`, `pente free`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        if let Some(names) = NAMES.iter().find(|names| names.name == wanted) {
            return Ok(names.spec);
        }
        if let Ok(kind) = wanted.parse::<GameKind>() {
            return Ok(GameSpec::standard(kind));
        }
        wanted
            .split_once(['-', ' ', ':'])
            .and_then(|(game, rule)| {
                let kind = game.parse::<GameKind>().ok()?;
                GameSpec::with_rule(kind, rule.trim()).ok()
            })
            .ok_or_else(|| SpecError::UnknownName(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    #[test]
    fn every_spec_reads_back_from_its_name_and_its_rule() {
        for spec in GameSpec::ALL {
            assert_eq!(spec.name().parse::<GameSpec>(), Ok(spec));
            assert_eq!(GameSpec::with_rule(spec.kind(), spec.rule()), Ok(spec));
            assert_eq!(GameSpec::new(spec.kind(), spec.variant()), Ok(spec));
        }
        assert_eq!(
            "Pente Free".parse::<GameSpec>(),
            GameSpec::new(GameKind::Pente, Variant::Free)
        );
        assert_eq!(
            "draughts".parse::<GameSpec>(),
            Ok(GameSpec::standard(GameKind::Checkers))
        );
        assert_eq!(
            "tic-tac-toe".parse::<GameSpec>(),
            Ok(GameSpec::standard(GameKind::TicTacToe))
        );
        let err = "chess".parse::<GameSpec>().unwrap_err().to_string();
        assert!(
            err.contains("checkers, pente, pente-free, tictactoe"),
            "{err}"
        );
        assert!("checkers-free".parse::<GameSpec>().is_err());
    }

    #[test]
    fn a_variant_of_another_game_is_refused() {
        let err = GameSpec::new(GameKind::Checkers, Variant::Free).unwrap_err();
        assert_eq!(
            err.to_string(),
            "checkers has no free variant; checkers is played as checkers"
        );
        let err = GameSpec::with_rule(GameKind::Pente, "maybe").unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected Rule: tournament or free for pente, got \"maybe\""
        );
        assert!(GameSpec::has_variants(GameKind::Pente));
        assert!(!GameSpec::has_variants(GameKind::Checkers));
    }

    #[test]
    fn a_hostile_spec_on_the_wire_is_an_error_not_a_panic() {
        let config = bincode::config::standard();
        let good = GameSpec::new(GameKind::Pente, Variant::Free).unwrap();
        let bytes = bincode::serde::encode_to_vec(good, config).unwrap();
        assert_eq!(bytes, [1, 1], "the kind's and the variant's index");
        let (back, _): (GameSpec, usize) =
            bincode::serde::decode_from_slice(&bytes, config).unwrap();
        assert_eq!(back, good);
        for bad in [[0u8, 1], [2, 1], [1, 9], [7, 0]] {
            let read: Result<(GameSpec, usize), _> =
                bincode::serde::decode_from_slice(&bad, config);
            assert!(read.is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_variant_decides_the_rules_of_the_start() {
        let free = "pente-free".parse::<GameSpec>().unwrap();
        let tournament = GameSpec::standard(GameKind::Pente);
        let play = |spec: GameSpec| {
            let mut game = spec.standard_start();
            ["K10", "A1", "K11"]
                .iter()
                .try_for_each(|text| game.play_text(text).map(|_| ()))
        };
        assert!(play(free).is_ok());
        assert!(play(tournament).is_err());
        // A position text is read under the spec's rules too.
        let AnyGame::Pente(game) = free.start(Some("1:K10:A1:0,0")).unwrap() else {
            panic!("a Pente game");
        };
        assert_eq!(game.rules(), PenteRules::FREE);
        assert_ne!(free.standard_start(), tournament.standard_start());
    }

    #[test]
    fn start_reads_the_notation_or_a_board_file_and_reports_the_form_it_resembles() {
        let checkers = GameSpec::standard(GameKind::Checkers);
        assert_eq!(checkers.start(None), Ok(checkers.standard_start()));
        assert_eq!(checkers.start(Some("  ")), Ok(checkers.standard_start()));
        let fen = checkers.start(Some(" W:WK32:BK1 ")).unwrap();
        assert_eq!(
            fen,
            AnyGame::from_position_text(GameKind::Checkers, "W:WK32:BK1").unwrap()
        );
        let board_file = "1111\n1111\n1111\n0000\n0000\n2222\n2222\n2222\n1\n";
        assert_eq!(
            checkers.start(Some(board_file)),
            Ok(AnyGame::Checkers(Checkers::start()))
        );
        let broken = "1111\n1111\n1111\n0000\n0000\n2222\n2222\n22x2\n2\n";
        let err = checkers.start(Some(broken)).unwrap_err().to_string();
        assert!(
            err.contains("board file") && err.contains("line 8"),
            "{err}"
        );
        assert!(!err.contains("FEN"), "{err}");
        let err = checkers.start(Some("W:W9:B1,1")).unwrap_err().to_string();
        assert!(err.starts_with("not a checkers position"), "{err}");
        assert!(!err.contains("board file"), "{err}");
        // Only checkers has board files.
        let ttt = GameSpec::standard(GameKind::TicTacToe);
        let err = ttt.start(Some("XO-\n---\n---")).unwrap_err().to_string();
        assert!(err.starts_with("not a tictactoe position"), "{err}");
    }
}
