//! Property tests over random playouts: invariants of the bitboards, text round-trips, and the
//! judge's promise that an illegal move is refused without changing anything. Also: hostile
//! text never panics a parser.

use super::{
    BoardFile, Checkers, Move, Position, Square, count_moves, fen, full_move_text, has_capture,
    parse_fen, parse_move,
};
use crate::game::Game;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// Plays up to `plies` random legal moves from the start, calling `inspect` on every game state
/// reached (the start included).
fn playout(seed: u64, plies: usize, mut inspect: impl FnMut(&Checkers, &mut StdRng)) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Checkers::start();
    let mut moves = Vec::new();
    for _ in 0..=plies {
        inspect(&game, &mut rng);
        game.generate_moves(&mut moves);
        let Some(mv) = moves.choose(&mut rng).copied() else {
            break;
        };
        game.play(&mv).expect("a generated move is legal");
    }
}

/// A move that is not legal here: a step or a jump between random squares, or one of the
/// opponent's moves, whichever is not among the legal moves.
fn illegal_move(position: &Position, legal: &[Move], rng: &mut StdRng) -> Move {
    let mut theirs = Vec::new();
    super::push_moves(
        &position.with_side_to_move(position.side_to_move().opponent()),
        &mut theirs,
    );
    loop {
        let from = Square::from_index(rng.random_range(0..32));
        let to = Square::from_index(rng.random_range(0..32));
        let candidate = match rng.random_range(0..3) {
            0 => Move::step(from, to),
            1 => Move::capture(&[from, to]).unwrap_or(Move::step(from, to)),
            _ => theirs.choose(rng).copied().unwrap_or(Move::step(from, to)),
        };
        if !legal.contains(&candidate) {
            return candidate;
        }
    }
}

/// A slow move generator written independently of the bitboards, square by square on (row,
/// column) coordinates, to check `movegen` against: the paths of all legal moves, as square
/// numbers, sorted.
fn reference_moves(position: &Position) -> Vec<Vec<u8>> {
    fn coordinates(index: u8) -> (i8, i8) {
        let row = (index / 4) as i8;
        let column = 2 * (index % 4) as i8 + if row % 2 == 0 { 1 } else { 0 };
        (row, column)
    }
    fn index(row: i8, column: i8) -> Option<u8> {
        ((0..8).contains(&row) && (0..8).contains(&column) && (row + column) % 2 == 1)
            .then(|| (row * 4 + column / 2) as u8)
    }
    let us = position.side_to_move();
    let forward: i8 = if us == crate::game::Side::First {
        1
    } else {
        -1
    };
    let crowning_row: i8 = if forward == 1 { 7 } else { 0 };
    let occupied = |i: u8| (position.black() | position.white()) & (1 << i) != 0;
    let enemy = |i: u8| position.pieces(us.opponent()) & (1 << i) != 0;
    let mut captures = Vec::new();
    let mut steps = Vec::new();
    for origin in 0..32u8 {
        if position.pieces(us) & (1 << origin) == 0 {
            continue;
        }
        let king = position.kings() & (1 << origin) != 0;
        let rows: &[i8] = if king {
            &[1, -1]
        } else {
            std::slice::from_ref(&forward)
        };
        // Depth-first over jump sequences; `path` holds bit indices, `taken` captured ones.
        let mut stack = vec![(vec![origin], Vec::<u8>::new())];
        while let Some((path, taken)) = stack.pop() {
            let at = *path.last().expect("a path has its origin");
            let (row, column) = coordinates(at);
            let mut extended = false;
            let crowned = !king && path.len() > 1 && row == crowning_row;
            for &dr in rows {
                for dc in [-1, 1] {
                    let (Some(over), Some(land)) = (
                        index(row + dr, column + dc),
                        index(row + 2 * dr, column + 2 * dc),
                    ) else {
                        continue;
                    };
                    let land_free = !occupied(land) || land == origin;
                    if crowned || !enemy(over) || taken.contains(&over) || !land_free {
                        continue;
                    }
                    extended = true;
                    let mut next = path.clone();
                    next.push(land);
                    let mut next_taken = taken.clone();
                    next_taken.push(over);
                    stack.push((next, next_taken));
                }
            }
            if !extended && path.len() > 1 {
                captures.push(path.iter().map(|i| i + 1).collect::<Vec<u8>>());
            }
        }
        for &dr in rows {
            for dc in [-1, 1] {
                let (row, column) = coordinates(origin);
                if let Some(to) = index(row + dr, column + dc).filter(|&to| !occupied(to)) {
                    steps.push(vec![origin + 1, to + 1]);
                }
            }
        }
    }
    let mut moves = if captures.is_empty() { steps } else { captures };
    moves.sort();
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_playouts_keep_every_invariant(seed in any::<u64>(), plies in 0usize..160) {
        playout(seed, plies, |game, rng| {
            let position = *game.position();
            // Colours never overlap; kings are pieces.
            assert_eq!(position.black() & position.white(), 0);
            assert_eq!(position.kings() & !(position.black() | position.white()), 0);
            assert!(position.black().count_ones() <= 12 && position.white().count_ones() <= 12);
            // FEN round-trips.
            let text = fen(&position);
            assert_eq!(parse_fen(&text), Ok(position), "{text}");
            let legal = game.legal_moves();
            if game.outcome().is_none() {
                // The bitboard generator agrees with a square-by-square one.
                let mut paths: Vec<Vec<u8>> = legal
                    .iter()
                    .map(|mv| mv.path().map(Square::number).collect())
                    .collect();
                paths.sort();
                assert_eq!(paths, reference_moves(&position), "{text}");
                assert_eq!(legal.len() as u64, count_moves(&position), "{text}");
                // Captures are compulsory.
                assert!(legal.iter().all(|mv| mv.is_capture() == has_capture(&position)));
            }
            for mv in &legal {
                // Every legal move's text, short or full, reads back to the same move.
                let short = game.move_text(mv);
                assert_eq!(game.parse_move(&short).as_ref(), Ok(mv), "{text} {short}");
                let full = full_move_text(mv);
                assert_eq!(parse_move(&position, &full).as_ref(), Ok(mv), "{text} {full}");
            }
            // An illegal move is refused and nothing changes.
            let wrong = illegal_move(&position, &legal, rng);
            let mut copy = game.clone();
            assert!(copy.play(&wrong).is_err(), "{text}: {wrong:?}");
            assert_eq!(&copy, game);
        });
    }

    #[test]
    fn random_positions_agree_with_the_reference(
        squares in proptest::collection::vec(0u8..8, 32),
        white_to_move in any::<bool>(),
    ) {
        // Each square: 0..=3 empty, 4 Black man, 5 Black king, 6 White man, 7 White king; kings
        // are common so that long king captures and loops come up.
        let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
        for (index, &code) in squares.iter().enumerate() {
            let bit = 1u32 << index;
            let side_mask = if code < 6 { &mut black } else { &mut white };
            if code < 4 || side_mask.count_ones() == 12 {
                continue;
            }
            *side_mask |= bit;
            let man_on_crowning_row = if code < 6 {
                super::crowning_row(crate::game::Side::First)
            } else {
                super::crowning_row(crate::game::Side::Second)
            } & bit != 0;
            if code % 2 == 1 || man_on_crowning_row {
                kings |= bit;
            }
        }
        let side = if white_to_move { crate::game::Side::Second } else { crate::game::Side::First };
        let position = Position::from_parts(black, white, kings, side).expect("a valid position");
        let mut moves = Vec::new();
        super::push_moves(&position, &mut moves);
        let mut paths: Vec<Vec<u8>> = moves
            .iter()
            .map(|mv| mv.path().map(Square::number).collect())
            .collect();
        paths.sort();
        prop_assert_eq!(&paths, &reference_moves(&position), "{}", fen(&position));
        prop_assert_eq!(moves.len() as u64, count_moves(&position));
        for mv in &moves {
            let text = super::move_text(&position, mv);
            prop_assert_eq!(parse_move(&position, &text), Ok(*mv), "{} {}", fen(&position), text);
            // A capture's count, read from its path's length, is the pieces it takes.
            prop_assert_eq!(mv.capture_count(), mv.captured().count_ones(), "{}", text);
        }
    }

    #[test]
    fn hostile_text_never_panics(text in "\\PC{0,80}") {
        let _ = parse_fen(&text);
        let _ = parse_move(&Position::start(), &text);
        let _ = text.parse::<BoardFile>();
    }

    #[test]
    fn board_files_round_trip(seed in any::<u64>(), plies in 0usize..120) {
        playout(seed, plies, |game, rng| {
            let file = BoardFile {
                position: *game.position(),
                time_limit: rng
                    .random_bool(0.5)
                    .then(|| std::time::Duration::from_millis(rng.random_range(1..=86_400_000))),
            };
            assert_eq!(file.to_string().parse::<BoardFile>(), Ok(file));
        });
    }
}
