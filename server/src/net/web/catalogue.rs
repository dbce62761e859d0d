//! `/catalogue.json`: what the web page needs to know about the games, taken from the rules
//! crate rather than written again in JavaScript: each game's board (rows, columns, surface,
//! labels, the side at the bottom, the sides' names, every square's number, name and cell, the
//! bot levels' measured ratings in that game), the game specs a game can be created with, and
//! the bot levels, and the evaluation beyond which the review board calls a position a forced
//! win. The page reads position texts
//! with these square names; everything else comes over the WebSocket.

use super::WebDoor;
use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use kingme_shared::ai::Level;
use kingme_shared::ai::ladder::measured_rating;
use kingme_shared::board_view::Surface;
use kingme_shared::games::spec::GameSpec;
use kingme_shared::{AnyGame, GameKind, Side};
use serde::Serialize;

/// Everything the page is told about the games.
#[derive(Debug, Serialize)]
struct Catalogue {
    boards: Vec<Board>,
    specs: Vec<SpecEntry>,
    levels: Vec<LevelEntry>,
    /// An evaluation beyond this (either way) is a forced win, not an advantage: the review
    /// board's graph and notes say so.
    mate_bound: i32,
}

/// One game's board.
#[derive(Debug, Serialize)]
struct Board {
    kind: GameKind,
    name: &'static str,
    rows: u8,
    columns: u8,
    /// `squares`, `checkered` (only the dark squares are used) or `intersections`.
    surface: &'static str,
    column_labels: &'static [&'static str],
    row_labels: &'static [&'static str],
    bottom_side: Option<Side>,
    side_names: [&'static str; 2],
    squares: Vec<Square>,
    /// The levels the ladder has placed in this game, with their measured ratings.
    bot_ratings: Vec<BotRating>,
}

/// A bot level's measured rating in one game.
#[derive(Debug, Serialize)]
struct BotRating {
    level: Level,
    rating: i32,
}

/// A square (or point) of a board: its number on the wire, its name in move texts and position
/// texts, and its cell (row 0 at the top of the standard diagram).
#[derive(Debug, Serialize)]
struct Square {
    square: u16,
    name: String,
    row: u8,
    column: u8,
}

#[derive(Debug, Serialize)]
struct SpecEntry {
    spec: GameSpec,
    name: &'static str,
}

#[derive(Debug, Serialize)]
struct LevelEntry {
    level: Level,
    name: &'static str,
}

fn board(kind: GameKind) -> Board {
    let layout = AnyGame::layout(kind);
    let mut squares = Vec::new();
    for row in 0..layout.rows {
        for column in 0..layout.columns {
            if let Some(square) = AnyGame::square_at(kind, row, column) {
                squares.push(Square {
                    square,
                    name: AnyGame::square_name(kind, square),
                    row,
                    column,
                });
            }
        }
    }
    Board {
        kind,
        name: kind.name(),
        rows: layout.rows,
        columns: layout.columns,
        surface: match layout.surface {
            Surface::Squares { checkered: false } => "squares",
            Surface::Squares { checkered: true } => "checkered",
            Surface::Intersections => "intersections",
        },
        column_labels: layout.column_labels,
        row_labels: layout.row_labels,
        bottom_side: layout.bottom_side,
        side_names: [Side::First, Side::Second].map(|side| AnyGame::kind_side_name(kind, side)),
        squares,
        bot_ratings: Level::ALL
            .into_iter()
            .filter_map(|level| {
                measured_rating(kind, level).map(|rating| BotRating { level, rating })
            })
            .collect(),
    }
}

/// The catalogue as JSON text.
fn catalogue_json() -> String {
    let catalogue = Catalogue {
        boards: GameKind::ALL.into_iter().map(board).collect(),
        specs: GameSpec::ALL
            .into_iter()
            .map(|spec| SpecEntry {
                spec,
                name: spec.name(),
            })
            .collect(),
        levels: Level::ALL
            .into_iter()
            .map(|level| LevelEntry {
                level,
                name: level.name(),
            })
            .collect(),
        mate_bound: kingme_shared::ai::score::MATE_BOUND,
    };
    // Plain data of our own: serializing it cannot fail, but an empty object is a safe answer.
    serde_json::to_string(&catalogue).unwrap_or_else(|_| "{}".to_owned())
}

/// The route `/catalogue.json`.
pub fn routes() -> Router<WebDoor> {
    Router::new().route(
        "/catalogue.json",
        get(|| async {
            (
                [(header::CONTENT_TYPE, "application/json")],
                catalogue_json(),
            )
                .into_response()
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_lists_each_square_once_with_its_cell() {
        let boards: Vec<Board> = GameKind::ALL.into_iter().map(board).collect();
        let counts: Vec<usize> = boards.iter().map(|board| board.squares.len()).collect();
        assert_eq!(counts, [32, 361, 9]);
        for board in &boards {
            for square in &board.squares {
                assert_eq!(
                    AnyGame::cell_of(board.kind, square.square),
                    Some((square.row, square.column))
                );
            }
        }
        let json = catalogue_json();
        assert!(json.contains(r#""name":"K10""#), "{json}");
        assert!(json.contains(r#""surface":"checkered""#), "{json}");
        assert!(
            json.contains(r#""bot_ratings":[{"level":"Random","rating":0}"#),
            "{json}"
        );
    }
}
