//! What the list of legal moves shows, the same in the side panel and in plain mode, and how a
//! typed number or text becomes a move. One meaning everywhere: checkers numbers its moves
//! (type `3` or `11-15`); noughts and crosses lists its free squares by their own numbers (type
//! `5` for square 5); a board too big to list (Pente's 361 points) gives the count of free
//! points and a handful of suggestions near the stones (type any point, like `K10`).

use kingme_shared::{AnyGame, GameKind};

/// Suggestions shown for a board too big to list.
pub(crate) const SUGGESTIONS: usize = 6;

/// Boards with more points than this are not listed move by move.
const LISTED_POINTS: usize = 100;

/// The legal moves as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MoveList {
    /// Moves numbered from 1: a typed number picks one.
    Numbered(Vec<String>),
    /// Moves that are square numbers themselves: a typed number is the square.
    Squares(Vec<String>),
    /// Too many to list: how many points are free, and a few near the stones.
    Points { free: usize, near: Vec<String> },
}

impl MoveList {
    /// The list for `game`, whose legal moves are `legal` (in the server's order).
    #[must_use]
    pub(crate) fn new(game: &AnyGame, legal: &[String]) -> MoveList {
        let kind = game.kind();
        let layout = AnyGame::layout(kind);
        if usize::from(layout.rows) * usize::from(layout.columns) > LISTED_POINTS {
            return MoveList::Points {
                free: legal.len(),
                near: suggestions(game, legal),
            };
        }
        let numbers = |text: &String| text.bytes().all(|b| b.is_ascii_digit());
        if !legal.is_empty() && legal.iter().all(numbers) && is_numbered_board(kind) {
            MoveList::Squares(legal.to_vec())
        } else {
            MoveList::Numbered(legal.to_vec())
        }
    }

    /// The heading above the list.
    #[must_use]
    pub(crate) fn heading(&self) -> &'static str {
        match self {
            MoveList::Numbered(_) => "Legal moves (number or text):",
            MoveList::Squares(_) => "Free squares (type one):",
            MoveList::Points { .. } => "Free points (type any):",
        }
    }

    /// The items shown, each a short text.
    #[must_use]
    pub(crate) fn items(&self) -> Vec<String> {
        match self {
            MoveList::Numbered(moves) => moves
                .iter()
                .enumerate()
                .map(|(i, text)| format!("{}:{text}", i + 1))
                .collect(),
            MoveList::Squares(squares) => squares.clone(),
            MoveList::Points { free, near } => {
                let mut items = vec![format!("{free} free;")];
                if !near.is_empty() {
                    items.push("near the stones:".to_owned());
                    items.extend(near.iter().cloned());
                }
                items
            }
        }
    }

    /// The list on one line, as plain mode prints it.
    #[must_use]
    pub(crate) fn line(&self) -> String {
        match self {
            MoveList::Numbered(_) => format!("legal moves: {}", self.items().join("  ")),
            MoveList::Squares(_) => format!("free squares: {}", self.items().join(" ")),
            MoveList::Points { free, near } if near.is_empty() => {
                format!("{free} free points: type any one, like K10")
            }
            MoveList::Points { free, near } => format!(
                "{free} free points: type any one; near the stones: {}",
                near.join(" ")
            ),
        }
    }

    /// The move a typed text stands for: a number from a numbered list, else the move's own
    /// text checked against the position. Returns the move's standard text.
    pub(crate) fn choose(&self, game: &AnyGame, text: &str) -> Result<String, String> {
        let text = text.trim();
        if let MoveList::Numbered(moves) = self
            && !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit())
        {
            return text
                .parse::<usize>()
                .ok()
                .and_then(|n| moves.get(n.wrapping_sub(1)))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "there is no move number {text}: choose 1 to {}",
                        moves.len()
                    )
                });
        }
        game.parse_move(text)
            .map(|mv| game.move_text(&mv))
            .map_err(|err| err.to_string())
    }
}

/// Whether a game names its squares by bare numbers (noughts and crosses: 1 to 9).
fn is_numbered_board(kind: GameKind) -> bool {
    AnyGame::square_name(kind, 1)
        .bytes()
        .all(|b| b.is_ascii_digit())
}

/// Up to [`SUGGESTIONS`] legal points nearest the stones (next to the most stones first, then
/// in the list's order); with no stone on the board, the points nearest the centre.
fn suggestions(game: &AnyGame, legal: &[String]) -> Vec<String> {
    let kind = game.kind();
    let layout = AnyGame::layout(kind);
    let mut stones = Vec::new();
    for row in 0..layout.rows {
        for column in 0..layout.columns {
            if let Some(square) = AnyGame::square_at(kind, row, column)
                && game.piece_on(square).is_some()
            {
                stones.push((i16::from(row), i16::from(column)));
            }
        }
    }
    if stones.is_empty() {
        stones.push((i16::from(layout.rows) / 2, i16::from(layout.columns) / 2));
    }
    let distance = |a: (i16, i16), b: (i16, i16)| (a.0 - b.0).abs().max((a.1 - b.1).abs());
    let mut scored: Vec<(i16, usize, usize, &String)> = legal
        .iter()
        .enumerate()
        .filter_map(|(order, text)| {
            let mv = game.parse_move(text).ok()?;
            let square = *game.move_effect(&mv).path.first()?;
            let (row, column) = AnyGame::cell_of(kind, square)?;
            let point = (i16::from(row), i16::from(column));
            let nearest = stones.iter().map(|&s| distance(s, point)).min()?;
            let neighbours = stones.iter().filter(|&&s| distance(s, point) == 1).count();
            Some((nearest, usize::MAX - neighbours, order, text))
        })
        .collect();
    scored.sort_unstable();
    scored
        .into_iter()
        .take(SUGGESTIONS)
        .map(|(_, _, _, text)| text.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(kind: GameKind, moves: &[&str]) -> (AnyGame, Vec<String>) {
        let mut game = AnyGame::start(kind);
        for text in moves {
            game.play_text(text).expect("legal");
        }
        let legal = game.legal_move_texts();
        (game, legal)
    }

    #[test]
    fn noughts_and_crosses_lists_squares_by_their_own_numbers() {
        let (game, legal) = after(GameKind::TicTacToe, &["1", "5"]);
        let list = MoveList::new(&game, &legal);
        assert_eq!(list.items(), vec!["2", "3", "4", "6", "7", "8", "9"]);
        // Typing 7 plays square 7, whatever its place in the list.
        assert_eq!(list.choose(&game, "7"), Ok("7".to_owned()));
        assert!(list.choose(&game, "5").is_err(), "5 is taken");
    }

    #[test]
    fn checkers_numbers_its_moves() {
        let (game, legal) = after(GameKind::Checkers, &[]);
        let list = MoveList::new(&game, &legal);
        assert_eq!(list.items()[0], format!("1:{}", legal[0]));
        assert_eq!(list.choose(&game, "1"), Ok(legal[0].clone()));
        assert_eq!(list.choose(&game, "11-15"), Ok("11-15".to_owned()));
        let err = list.choose(&game, "99").expect_err("no such number");
        assert!(err.contains("choose 1 to 7"), "{err}");
    }

    #[test]
    fn pente_counts_its_free_points_and_suggests_a_few_near_the_stones() {
        let (game, legal) = after(GameKind::Pente, &["K10", "L11"]);
        let list = MoveList::new(&game, &legal);
        let MoveList::Points { free, near } = &list else {
            panic!("{list:?}");
        };
        assert_eq!(*free, legal.len());
        assert!(!near.is_empty() && near.len() <= SUGGESTIONS, "{near:?}");
        for point in near {
            assert!(legal.contains(point), "{point}");
        }
        let (game, legal) = after(GameKind::Pente, &["K10", "L11", "O10", "M12"]);
        let MoveList::Points { near, .. } = MoveList::new(&game, &legal) else {
            panic!("a list of points");
        };
        // Next to two stones first: K11 and L10 touch K10 and L11; N11 touches O10 and M12.
        for point in ["K11", "L10", "N11"] {
            assert!(near.contains(&point.to_owned()), "{point} in {near:?}");
        }
        assert!(list.line().len() < 100, "{}", list.line());
        assert_eq!(list.choose(&game, "A1"), Ok("A1".to_owned()));
        assert!(list.choose(&game, "3").is_err(), "no numbers in Pente");
    }
}
