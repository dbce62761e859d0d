//! Pente speed: random playouts per second, place/undo pairs per second and move generation,
//! the numbers the AI's search speed is built on. Run with `cargo bench -p kingme-shared --bench
//! pente`; docs/measurements/strength.md records the figures.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kingme_shared::Game;
use kingme_shared::games::pente::{Pente, Point};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::hint::black_box;

/// Plays a random game to its end with make/unmake moves; returns the number of plies.
fn random_playout(rng: &mut StdRng, buffer: &mut Vec<Point>) -> usize {
    let mut game = Pente::start();
    let mut plies = 0;
    loop {
        game.generate_moves(buffer);
        let Some(&point) = buffer.choose(rng) else {
            return plies;
        };
        game.play_unchecked(point);
        plies += 1;
    }
}

/// A middle-game position: 60 random plies from a fixed seed (it must not be over).
fn middle_game() -> Pente {
    let mut rng = StdRng::seed_from_u64(7);
    let mut game = Pente::start();
    let mut buffer = Vec::new();
    for _ in 0..60 {
        game.generate_moves(&mut buffer);
        let Some(&point) = buffer.choose(&mut rng) else {
            break;
        };
        let before = game.clone();
        game.play_unchecked(point);
        if game.is_over() {
            game = before;
        }
    }
    game
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("pente");

    let mut rng = StdRng::seed_from_u64(1);
    let mut buffer = Vec::with_capacity(361);
    let sample: usize = (0..1000)
        .map(|_| random_playout(&mut rng, &mut buffer))
        .sum();
    eprintln!(
        "pente: a random playout lasts {:.1} plies on average (1000 games)",
        sample as f64 / 1000.0
    );
    group.throughput(Throughput::Elements(1));
    group.bench_function("random_playout", |b| {
        b.iter(|| black_box(random_playout(&mut rng, &mut buffer)));
    });

    let mut game = middle_game();
    let moves = game.legal_moves();
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("place_undo_every_legal_move", |b| {
        b.iter(|| {
            for &point in &moves {
                let undo = game.play_unchecked(point);
                black_box(game.outcome());
                game.undo(undo);
            }
        });
    });

    group.throughput(Throughput::Elements(1));
    group.bench_function("generate_moves", |b| {
        b.iter(|| {
            game.generate_moves(&mut buffer);
            black_box(buffer.len())
        });
    });

    group.finish();
}

criterion_group!(pente, benches);
criterion_main!(pente);
