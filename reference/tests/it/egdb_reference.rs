//! The endgame databases against an independent solution: every position of two and three
//! pieces solved again over the reference rules (`kingme_reference::checkers`, an 8x8
//! array written from the rule text) by plain value iteration, sharing no code with kingme's
//! retrograde analysis, its index or its move generator. Every verdict must agree, so the
//! win/loss/draw counts do too. The iteration also gives each won position its exact distance to
//! the win, which a depth-limited search over the reference rules confirms for the slowest wins of
//! two kings against one; from those the expert, with the database, must convert within the
//! forty-move rule.

use kingme_reference::checkers::{Board, Cell, Colour, square_at};
use kingme_shared::ai::egdb::{Verdict, solve};
use kingme_shared::ai::{Level, Limits, think};
use kingme_shared::games::checkers::{Checkers, Position};
use kingme_shared::{AnyGame, Game, Side};
use std::collections::HashMap;
use std::sync::Arc;

/// What may stand on a square, besides nothing.
const PIECES: [Cell; 4] = [
    Cell::Man(Colour::Black),
    Cell::King(Colour::Black),
    Cell::Man(Colour::White),
    Cell::King(Colour::White),
];

/// A board as a number: three bits a square and the side to move.
fn key(board: &Board) -> u128 {
    let mut key = u128::from(board.to_move == Colour::White);
    for number in 1..=32u8 {
        let (row, column) = square_at(number);
        let code = match board.at(row, column) {
            Cell::Empty => 0u128,
            Cell::Man(Colour::Black) => 1,
            Cell::King(Colour::Black) => 2,
            Cell::Man(Colour::White) => 3,
            Cell::King(Colour::White) => 4,
        };
        key |= code << (1 + 3 * u32::from(number));
    }
    key
}

/// Every board with `n` pieces, both colours present, no man on its far row, either side to
/// move.
fn boards(n: usize) -> Vec<Board> {
    let mut out = Vec::new();
    let mut squares = vec![0u8; n];
    fn place(n: usize, at: usize, from: u8, squares: &mut Vec<u8>, out: &mut Vec<Board>) {
        if at == n {
            for kinds in 0..PIECES.len().pow(n as u32) {
                let mut board = Board::start();
                board.cells = [[Cell::Empty; 8]; 8];
                let (mut black, mut white, mut ok) = (false, false, true);
                for (slot, &square) in squares.iter().enumerate() {
                    let piece = PIECES[kinds / PIECES.len().pow(slot as u32) % PIECES.len()];
                    let (row, column) = square_at(square);
                    match piece {
                        Cell::Man(Colour::Black) => ok &= row != 7,
                        Cell::Man(Colour::White) => ok &= row != 0,
                        _ => {}
                    }
                    black |= matches!(piece, Cell::Man(Colour::Black) | Cell::King(Colour::Black));
                    white |= matches!(piece, Cell::Man(Colour::White) | Cell::King(Colour::White));
                    board.cells[row as usize][column as usize] = piece;
                }
                if ok && black && white {
                    for to_move in [Colour::Black, Colour::White] {
                        out.push(Board { to_move, ..board });
                    }
                }
            }
            return;
        }
        for square in from..=32 {
            squares[at] = square;
            place(n, at + 1, square + 1, squares, out);
        }
    }
    place(n, 0, 1, &mut squares, &mut out);
    out
}

/// The solution by value iteration: for each board its verdict and, when decided, the plies
/// to the end with best play (the winner hurries, the loser delays).
struct Solution {
    boards: Vec<Board>,
    verdicts: Vec<Verdict>,
    distances: Vec<u32>,
}

fn solve_by_iteration() -> Solution {
    let mut all = boards(2);
    all.extend(boards(3));
    let boards = all;
    let at: HashMap<u128, usize> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| (key(b), i))
        .collect();
    // Children by index; `None` for a child where the side to move has no piece (it has lost).
    let children: Vec<Vec<Option<usize>>> = boards
        .iter()
        .map(|board| {
            board
                .legal_moves()
                .iter()
                .map(|path| {
                    let child = board.after(path);
                    let any = child.cells.iter().flatten().any(|cell| match cell {
                        Cell::Man(c) | Cell::King(c) => *c == child.to_move,
                        Cell::Empty => false,
                    });
                    any.then(|| at[&key(&child)])
                })
                .collect()
        })
        .collect();
    // Decided boards: (won, distance). A pass decides from the previous passes only, so the
    // pass number is the exact distance.
    let mut decided: Vec<Option<(bool, u32)>> = children
        .iter()
        .map(|moves| moves.is_empty().then_some((false, 0)))
        .collect();
    for pass in 1.. {
        let mut news = Vec::new();
        for (index, moves) in children.iter().enumerate() {
            if decided[index].is_some() {
                continue;
            }
            let lost_child = |child: &Option<usize>| match child {
                None => true,
                Some(c) => matches!(decided[*c], Some((false, _))),
            };
            let won_child = |child: &Option<usize>| match child {
                None => false,
                Some(c) => matches!(decided[*c], Some((true, _))),
            };
            if moves.iter().any(lost_child) {
                news.push((index, (true, pass)));
            } else if moves.iter().all(won_child) {
                news.push((index, (false, pass)));
            }
        }
        if news.is_empty() {
            break;
        }
        for (index, value) in news {
            decided[index] = Some(value);
        }
    }
    let verdicts = decided
        .iter()
        .map(|d| match d {
            Some((true, _)) => Verdict::Win,
            Some((false, _)) => Verdict::Loss,
            None => Verdict::Draw,
        })
        .collect();
    let distances = decided
        .iter()
        .map(|d| d.map_or(u32::MAX, |(_, n)| n))
        .collect();
    Solution {
        boards,
        verdicts,
        distances,
    }
}

/// The reference board as kingme's position (square n is bit n - 1).
fn position(board: &Board) -> Position {
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    for number in 1..=32u8 {
        let (row, column) = square_at(number);
        let bit = 1u32 << (number - 1);
        match board.at(row, column) {
            Cell::Empty => {}
            Cell::Man(Colour::Black) => black |= bit,
            Cell::King(Colour::Black) => (black, kings) = (black | bit, kings | bit),
            Cell::Man(Colour::White) => white |= bit,
            Cell::King(Colour::White) => (white, kings) = (white | bit, kings | bit),
        }
    }
    let side = match board.to_move {
        Colour::Black => Side::First,
        Colour::White => Side::Second,
    };
    Position::from_parts(black, white, kings, side).expect("a valid board")
}

/// Whether the side to move wins within `plies` by the reference rules alone.
fn wins_within(board: &Board, plies: u32, memo: &mut HashMap<(u128, u32, bool), bool>) -> bool {
    forced(board, plies, true, memo)
}

fn forced(
    board: &Board,
    plies: u32,
    win: bool,
    memo: &mut HashMap<(u128, u32, bool), bool>,
) -> bool {
    let k = (key(board), plies, win);
    if let Some(&known) = memo.get(&k) {
        return known;
    }
    let moves = board.legal_moves();
    let answer = if moves.is_empty() {
        !win
    } else if plies == 0 {
        false
    } else if win {
        moves
            .iter()
            .any(|path| forced(&board.after(path), plies - 1, false, memo))
    } else {
        moves
            .iter()
            .all(|path| forced(&board.after(path), plies - 1, true, memo))
    };
    memo.insert(k, answer);
    answer
}

#[test]
fn every_verdict_of_up_to_three_pieces_agrees_with_the_reference_and_two_kings_convert() {
    let reference = solve_by_iteration();
    let tables = solve(3, |_| {});
    let mut counts: HashMap<(usize, Verdict), [u32; 2]> = HashMap::new();
    for (board, &expected) in reference.boards.iter().zip(&reference.verdicts) {
        let pieces = board
            .cells
            .iter()
            .flatten()
            .filter(|&&c| c != Cell::Empty)
            .count();
        let got = tables.verdict(&position(board));
        assert_eq!(got, Some(expected), "{board:?}");
        let tally = counts.entry((pieces, expected)).or_default();
        tally[0] += 1;
        tally[1] += u32::from(got == Some(expected));
    }
    // Every kind of result occurs with two and with three pieces, each counted alike.
    for pieces in [2, 3] {
        for verdict in [Verdict::Win, Verdict::Loss, Verdict::Draw] {
            let [expected, agreed] = counts[&(pieces, verdict)];
            assert!(expected > 0 && agreed == expected, "{pieces} {verdict:?}");
        }
    }

    // Two kings against one, the kings to move: the slowest wins, by the iteration's distance,
    // are confirmed by a plain search (won in that many plies, not in two fewer).
    let two_kings = |board: &Board| {
        let cells: Vec<Cell> = board.cells.iter().flatten().copied().collect();
        let mover = board.to_move;
        cells.iter().filter(|&&c| c == Cell::King(mover)).count() == 2
            && cells
                .iter()
                .filter(|&&c| matches!(c, Cell::King(_)))
                .count()
                == 3
    };
    let won: Vec<usize> = (0..reference.boards.len())
        .filter(|&i| two_kings(&reference.boards[i]) && reference.verdicts[i] == Verdict::Win)
        .collect();
    let slowest = won
        .iter()
        .map(|&i| reference.distances[i])
        .max()
        .expect("won positions");
    assert!(slowest > 5 && slowest % 2 == 1, "{slowest}");
    let hardest: Vec<&Board> = won
        .iter()
        .filter(|&&i| reference.distances[i] == slowest)
        .map(|&i| &reference.boards[i])
        .collect();
    let mut tally: Vec<_> = counts.iter().map(|(k, v)| (*k, v[0])).collect();
    tally.sort_by_key(|&((pieces, verdict), _)| (pieces, verdict.code()));
    println!(
        "verdicts: {tally:?}; slowest two-kings win {slowest} plies, {} such",
        hardest.len()
    );
    let mut memo = HashMap::new();
    for board in hardest.iter().take(3) {
        assert!(wins_within(board, slowest, &mut memo), "{board:?}");
        assert!(!wins_within(board, slowest - 2, &mut memo), "{board:?}");
    }

    // From the slowest wins, the expert with the database converts against the expert with the
    // database, within the forty-move rule.
    let db = Arc::new(
        kingme_shared::ai::egdb::Egdb::parse(kingme_shared::ai::egdb::encode(&tables))
            .expect("a fresh database"),
    );
    let limits = Limits {
        nodes: Some(4_000),
        egdb: Some(db),
        ..Limits::default()
    };
    for board in hardest.iter().take(4) {
        let start = Checkers::from_position(position(board));
        let winner = start.side_to_move();
        let mut game = AnyGame::Checkers(start);
        let mut plies = 0;
        while game.outcome().is_none() {
            let report = think(&game, Level::Expert, &limits, plies).expect("a move");
            game.play(&report.best).expect("a legal move");
            plies += 1;
        }
        let outcome = game.outcome().expect("over");
        assert_eq!(
            outcome.winner(),
            Some(winner),
            "{board:?}: {outcome:?} after {plies} plies"
        );
    }
}
