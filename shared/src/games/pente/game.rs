//! Pente as a [`Game`]: the trait's questions answered from the state ([`Pente`] in
//! `position.rs`) and its text form (`position_text.rs`), above both.

use super::point::{Point, SIZE, parse_point};
use super::position::{CAPTURES_TO_WIN, Pente};
use super::rules::{Opening, PenteRules};
use crate::board_view::{BoardLayout, BoardPiece, PieceKind, Surface, Tally};
use crate::game::{Game, MoveEffect, MoveError, Outcome, PositionError, Side};
use crate::game_kind::GameKind;

impl Game for Pente {
    type Move = Point;
    const KIND: GameKind = GameKind::Pente;

    fn layout() -> BoardLayout {
        BoardLayout {
            rows: SIZE,
            columns: SIZE,
            surface: Surface::Intersections,
            column_labels: &[
                "A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "O", "P", "Q",
                "R", "S", "T",
            ],
            row_labels: &[
                "19", "18", "17", "16", "15", "14", "13", "12", "11", "10", "9", "8", "7", "6",
                "5", "4", "3", "2", "1",
            ],
            bottom_side: None,
        }
    }

    fn square_at(row: u8, column: u8) -> Option<u16> {
        let from_bottom = (SIZE - 1).checked_sub(row)?;
        Point::new(from_bottom, column).map(|point| point.index() as u16)
    }

    fn cell_of(square: u16) -> Option<(u8, u8)> {
        let point = Point::from_index(usize::from(square))?;
        Some((SIZE - 1 - point.row(), point.column()))
    }

    fn square_name(square: u16) -> String {
        Point::from_index(usize::from(square)).map_or_else(|| square.to_string(), |p| p.to_string())
    }

    fn piece_on(&self, square: u16) -> Option<BoardPiece> {
        let point = Point::from_index(usize::from(square))?;
        self.board.stone_at(point).map(|side| BoardPiece {
            side,
            kind: PieceKind::Stone,
        })
    }

    fn tallies(&self) -> Vec<Tally> {
        vec![Tally {
            label: "captured pairs",
            counts: [self.captured[0] / 2, self.captured[1] / 2],
            goal: Some(CAPTURES_TO_WIN / 2),
        }]
    }

    fn setup_pieces() -> &'static [BoardPiece] {
        &[
            BoardPiece {
                side: Side::First,
                kind: PieceKind::Stone,
            },
            BoardPiece {
                side: Side::Second,
                kind: PieceKind::Stone,
            },
        ]
    }

    fn from_pieces(
        pieces: &[(u16, BoardPiece)],
        side_to_move: Side,
    ) -> Result<Self, PositionError> {
        let mut stones: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for &(square, piece) in pieces {
            let point = Point::from_index(usize::from(square))
                .ok_or_else(|| PositionError::new(format!("point {square} is off the board")))?;
            stones[piece.side.index()].push(point.to_string());
        }
        let turn = match side_to_move {
            Side::First => 1,
            Side::Second => 2,
        };
        Self::from_position_text(&format!(
            "{turn}:{}:{}:0,0",
            stones[0].join(","),
            stones[1].join(",")
        ))
    }

    fn start() -> Self {
        Pente::default()
    }

    fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    fn generate_moves(&self, out: &mut Vec<Point>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let opening = self.opening();
        if opening == Opening::FirstStone {
            if self.board.is_empty(Point::CENTRE) {
                out.push(Point::CENTRE);
            }
            return;
        }
        for row in 0..SIZE {
            let mut empty = self.board.empty_in_row(row);
            while empty != 0 {
                let column = empty.trailing_zeros() as u8;
                empty &= empty - 1;
                if let Some(point) = Point::new(row, column).filter(|&p| opening.allows(p)) {
                    out.push(point);
                }
            }
        }
    }

    fn play(&mut self, mv: &Point) -> Result<(), MoveError> {
        self.check_legal(*mv)?;
        self.play_unchecked(*mv);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn parse_move(&self, text: &str) -> Result<Point, MoveError> {
        let point = parse_point(text)?;
        self.check_legal(point)?;
        Ok(point)
    }

    fn move_text(&self, mv: &Point) -> String {
        mv.to_string()
    }

    fn move_effect(&self, mv: &Point) -> MoveEffect {
        let removed = self
            .board
            .capture_rays(self.side_to_move, *mv)
            .captured_points(*mv)
            .map(|p| p.index() as u16)
            .collect();
        MoveEffect {
            path: vec![mv.index() as u16],
            removed,
        }
    }

    fn from_position_text(text: &str) -> Result<Self, PositionError> {
        Pente::from_position_text_with_rules(text, PenteRules::default())
    }

    fn position_text(&self) -> String {
        super::position_text::write(self)
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "first player",
            Side::Second => "second player",
        }
    }
}
