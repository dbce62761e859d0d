//! AI speed: the expert's search in nodes per second, for checkers and Pente, at a fixed depth
//! from a middle-game position (fixed depth, so every run searches the same tree), and the
//! perfect noughts-and-crosses solve of the empty board, and the checkers endgame databases:
//! solving every position of up to three pieces, and probing the result. Run with `cargo bench -p kingme-shared
//! --bench ai`; criterion reports the throughput in nodes (elements) per second, and
//! docs/measurements/strength.md records the figures.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kingme_shared::ai::{Level, Limits, egdb, think};
use kingme_shared::games::checkers::parse_fen;
use kingme_shared::{AnyGame, GameKind};
use std::hint::black_box;

/// A checkers middle game: the "Single Corner" ballot played on a few moves.
const CHECKERS: &str = "B:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15";

/// A Pente middle game with threats on both sides.
const PENTE: &str = "1:K10,M10,N9,H10,L12:L10,M11,J11,K11,N12:0,0";

fn bench_expert(c: &mut Criterion, name: &str, kind: GameKind, position: &str, depth: u32) {
    let game = AnyGame::from_position_text(kind, position).expect("a bench position");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let nodes = think(&game, Level::Expert, &limits, 0)
        .expect("a move")
        .nodes;
    let mut group = c.benchmark_group("expert");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(name, |b| {
        b.iter(|| think(black_box(&game), Level::Expert, &limits, 0));
    });
    group.finish();
}

fn checkers(c: &mut Criterion) {
    bench_expert(c, "checkers depth 10", GameKind::Checkers, CHECKERS, 10);
}

fn pente(c: &mut Criterion) {
    bench_expert(c, "pente depth 5", GameKind::Pente, PENTE, 5);
}

fn tictactoe(c: &mut Criterion) {
    let game = AnyGame::start(GameKind::TicTacToe);
    let nodes = think(&game, Level::Expert, &Limits::default(), 0)
        .expect("a move")
        .nodes;
    let mut group = c.benchmark_group("expert");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("tictactoe perfect solve of the empty board", |b| {
        b.iter(|| think(black_box(&game), Level::Expert, &Limits::default(), 0));
    });
    group.finish();
}

fn endgame_databases(c: &mut Criterion) {
    let mut group = c.benchmark_group("egdb");
    group.sample_size(10);
    group.bench_function("solve every position of up to 3 pieces", |b| {
        b.iter(|| egdb::solve(black_box(3), |_| {}));
    });
    let bytes = egdb::encode(&egdb::solve(3, |_| {}));
    let view = egdb::Egdb::parse(bytes).expect("a fresh database");
    let positions: Vec<_> = [
        "B:WK1:BK31,K32",
        "W:W25:BK1,K5",
        "B:W25,26:B5",
        "W:WK20:B9,10",
    ]
    .iter()
    .map(|fen| parse_fen(fen).expect("a bench position"))
    .collect();
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("probe four 3-piece positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter_map(|p| view.verdict(black_box(p)))
                .count()
        });
    });
    group.finish();
}

criterion_group!(benches, checkers, pente, tictactoe, endgame_databases);
criterion_main!(benches);
