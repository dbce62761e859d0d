//! Differential rules testing: the fast rules of `kingme-shared` (checkers bitboards, Pente line
//! bitboards) against the plain references ([`crate::checkers`], [`crate::pente`]), over
//! positions reached by random playouts. Both sides play the same moves independently, so a
//! difference anywhere (legal moves, captured stones, the position after a move, the outcome)
//! shows up at the first position where it matters and is reported with that position.
//!
//! The checkers comparison follows the movement rules (the references know nothing of the
//! repetition and forty-move draws, which `Checkers` tests on its own); a playout is cut after
//! [`MAX_CHECKERS_PLIES`] plies and a new one starts.

use crate::checkers::{self as plain_checkers, Cell, Colour};
use crate::pente as plain_pente;
use kingme_shared::games::checkers::{Move, Position, Square, fen, push_moves};
use kingme_shared::games::pente::{Pente, PenteRules, Point};
use kingme_shared::{Game, Side};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// Plies after which a checkers playout is cut (kings can shuffle for ever).
pub const MAX_CHECKERS_PLIES: u32 = 200;

/// What a checkers run compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckersReport {
    /// Positions whose legal moves were compared.
    pub positions: u64,
    /// Moves whose resulting positions were compared.
    pub moves: u64,
    /// Positions where the side to move had to capture.
    pub capture_positions: u64,
    /// Capture moves of more than one jump.
    pub multi_jumps: u64,
    /// Positions with at least one king on the board.
    pub king_positions: u64,
    /// Positions where the side to move had no move (and so lost).
    pub lost_positions: u64,
    /// Playouts started.
    pub playouts: u64,
}

/// The plain board for a bitboard position, square by square.
#[must_use]
pub fn plain_checkers_board(position: &Position) -> plain_checkers::Board {
    let mut board = plain_checkers::Board {
        cells: [[Cell::Empty; 8]; 8],
        to_move: colour(position.side_to_move()),
    };
    for square in Square::all() {
        if let Some(piece) = position.piece_at(square) {
            let (row, column) = plain_checkers::square_at(square.number());
            board.cells[row as usize][column as usize] = if piece.king {
                Cell::King(colour(piece.side))
            } else {
                Cell::Man(colour(piece.side))
            };
        }
    }
    board
}

fn colour(side: Side) -> Colour {
    match side {
        Side::First => Colour::Black,
        Side::Second => Colour::White,
    }
}

fn path(mv: &Move) -> Vec<u8> {
    mv.path().map(Square::number).collect()
}

/// Compares the bitboard checkers rules with the plain ones on `positions` positions from random
/// playouts seeded by `seed`. The error names the first position that differs and how.
pub fn checkers(seed: u64, positions: u64) -> Result<CheckersReport, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut report = CheckersReport::default();
    let mut fast = Vec::new();
    'playouts: while report.positions < positions {
        report.playouts += 1;
        let mut position = Position::start();
        let mut plain = plain_checkers::Board::start();
        for _ in 0..=MAX_CHECKERS_PLIES {
            if report.positions >= positions {
                break 'playouts;
            }
            let text = fen(&position);
            if plain_checkers_board(&position) != plain {
                return Err(format!(
                    "{text}: the boards went apart; plain board: {plain:?}"
                ));
            }
            report.positions += 1;
            fast.clear();
            push_moves(&position, &mut fast);
            let mut fast_paths: Vec<Vec<u8>> = fast.iter().map(path).collect();
            fast_paths.sort();
            let mut plain_paths = plain.legal_moves();
            plain_paths.sort();
            if fast_paths != plain_paths {
                return Err(format!(
                    "{text}: legal moves differ: bitboards {fast_paths:?}, plain {plain_paths:?}"
                ));
            }
            for mv in &fast {
                let after = plain.after(&path(mv));
                if plain_checkers_board(&position.after(mv)) != after {
                    return Err(format!(
                        "{text}: after {:?} the positions differ: bitboards {}, plain {after:?}",
                        path(mv),
                        fen(&position.after(mv))
                    ));
                }
                report.moves += 1;
                report.multi_jumps += u64::from(mv.capture_count() > 1);
            }
            report.capture_positions += u64::from(fast.first().is_some_and(Move::is_capture));
            report.king_positions += u64::from(position.kings() != 0);
            let Some(mv) = fast.choose(&mut rng) else {
                report.lost_positions += 1;
                continue 'playouts;
            };
            plain = plain.after(&path(mv));
            position.play_unchecked(mv);
        }
    }
    Ok(report)
}

/// What a Pente run compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PenteReport {
    /// Positions whose legal moves were compared.
    pub positions: u64,
    /// Moves whose captures and outcome were compared.
    pub moves: u64,
    /// Among those, moves that capture.
    pub capturing_moves: u64,
    /// Among those, moves that win.
    pub winning_moves: u64,
    /// Playouts that ended with five in a row.
    pub fives: u64,
    /// Playouts that ended with five captured pairs.
    pub capture_wins: u64,
    /// Playouts that ended with a full board.
    pub full_boards: u64,
    /// Playouts started.
    pub playouts: u64,
}

fn index(row: i32, column: i32) -> u16 {
    (row * plain_pente::SIZE + column) as u16
}

fn point_of(row: i32, column: i32) -> Option<Point> {
    Point::new(u8::try_from(row).ok()?, u8::try_from(column).ok()?)
}

/// Where the two games differ in stones, turn or captures, if they do.
fn pente_difference(fast: &Pente, plain: &plain_pente::Game) -> Option<String> {
    for row in 0..plain_pente::SIZE {
        for column in 0..plain_pente::SIZE {
            let point = point_of(row, column)?;
            let stone = fast.board().stone_at(point);
            if stone != plain.at(row, column) {
                return Some(format!(
                    "at {point}: bitboards {stone:?}, plain {:?}",
                    plain.at(row, column)
                ));
            }
        }
    }
    let captured = [
        fast.captured_by(Side::First),
        fast.captured_by(Side::Second),
    ];
    if captured != plain.captured || fast.side_to_move() != plain.to_move {
        return Some(format!(
            "captures or turn: bitboards {captured:?} {:?}, plain {:?} {:?}",
            fast.side_to_move(),
            plain.captured,
            plain.to_move
        ));
    }
    if fast.outcome() != plain.outcome {
        return Some(format!(
            "outcome: bitboards {:?}, plain {:?}",
            fast.outcome(),
            plain.outcome
        ));
    }
    None
}

/// A random legal point, usually near a stone already placed so that captures and fives come up
/// far more often than with uniform play.
fn pick_point(game: &Pente, legal: &[Point], rng: &mut StdRng) -> Option<Point> {
    if rng.random_bool(0.8) {
        let stones: Vec<Point> = Side::BOTH
            .iter()
            .flat_map(|&side| game.board().stones(side))
            .collect();
        if let Some(stone) = stones.choose(rng) {
            let near = stone.offset(rng.random_range(-2..=2), rng.random_range(-2..=2));
            if let Some(point) = near.filter(|&point| game.is_legal(point)) {
                return Some(point);
            }
        }
    }
    legal.choose(rng).copied()
}

/// Compares the bitboard Pente rules with the plain ones on `positions` positions from random
/// playouts seeded by `seed` (tournament rule on in half of them): legal points, the stones every
/// legal move captures and the outcome it leads to, and the whole state after the move played.
pub fn pente(seed: u64, positions: u64) -> Result<PenteReport, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut report = PenteReport::default();
    let mut legal = Vec::new();
    while report.positions < positions {
        report.playouts += 1;
        let tournament = rng.random_bool(0.5);
        let mut game = Pente::with_rules(PenteRules { tournament });
        let mut plain = plain_pente::Game::new(tournament);
        while report.positions < positions {
            let text = game.position_text();
            if let Some(difference) = pente_difference(&game, &plain) {
                return Err(format!("{text}: the games went apart: {difference}"));
            }
            report.positions += 1;
            game.generate_moves(&mut legal);
            let fast_points: Vec<u16> = legal.iter().map(|p| p.index() as u16).collect();
            let plain_points: Vec<u16> = plain
                .legal_points()
                .iter()
                .map(|&(row, column)| index(row, column))
                .collect();
            if fast_points != plain_points {
                return Err(format!(
                    "{text}: legal points differ: bitboards {fast_points:?}, plain {plain_points:?}"
                ));
            }
            let mut probe = game.clone();
            for &point in &legal {
                let (row, column) = (i32::from(point.row()), i32::from(point.column()));
                let mut removed = game.move_effect(&point).removed;
                removed.sort_unstable();
                let mut plain_after = plain.clone();
                let mut plain_removed: Vec<u16> = plain_after
                    .play(row, column)
                    .iter()
                    .map(|&(r, c)| index(r, c))
                    .collect();
                plain_removed.sort_unstable();
                if removed != plain_removed {
                    return Err(format!(
                        "{text}: {point} captures {removed:?} on the bitboards, {plain_removed:?} \
                         on the plain board"
                    ));
                }
                let undo = probe.play_unchecked(point);
                let outcome = probe.outcome();
                probe.undo(undo);
                if outcome != plain_after.outcome {
                    return Err(format!(
                        "{text}: after {point} the outcome is {outcome:?} on the bitboards, {:?} \
                         on the plain board",
                        plain_after.outcome
                    ));
                }
                report.moves += 1;
                report.capturing_moves += u64::from(!removed.is_empty());
                report.winning_moves += u64::from(outcome.is_some());
            }
            let Some(point) = pick_point(&game, &legal, &mut rng) else {
                break;
            };
            game.play(&point)
                .map_err(|err| format!("{text}: {point}: {err}"))?;
            plain.play(i32::from(point.row()), i32::from(point.column()));
            if let Some(outcome) = game.outcome() {
                if let Some(difference) = pente_difference(&game, &plain) {
                    return Err(format!("{text} then {point}: {difference}"));
                }
                match outcome {
                    kingme_shared::Outcome::Win { reason, .. } => match reason {
                        kingme_shared::WinReason::FiveCaptures => report.capture_wins += 1,
                        _ => report.fives += 1,
                    },
                    kingme_shared::Outcome::Draw { .. } => report.full_boards += 1,
                }
                break;
            }
        }
    }
    Ok(report)
}
