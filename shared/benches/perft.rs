//! perft(11) of checkers from the start position, single-threaded, with bulk counting: the
//! speed figure of the move generator. Run with `cargo bench -p kingme-shared --bench perft`;
//! it prints nodes per second from one timed run, then criterion's own measurement (whose
//! throughput line is nodes per second too), of the build this processor runs and, where that
//! is the popcnt/BMI2 one, of the baseline build too (`kingme_shared::cpu`).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kingme_shared::cpu::Instructions;
use kingme_shared::games::checkers::{Position, perft, perft_in};
use std::hint::black_box;
use std::time::Instant;

const DEPTH: u32 = 11;

fn perft_from_the_start(c: &mut Criterion) {
    let start = Position::start();
    let timer = Instant::now();
    let nodes = perft(&start, DEPTH);
    let seconds = timer.elapsed().as_secs_f64();
    // OEIS A133046 at depth 11: a fast wrong count would be no figure at all.
    assert_eq!(
        nodes, 85_242_128,
        "perft({DEPTH}) disagrees with OEIS A133046"
    );
    println!(
        "checkers perft({DEPTH}) from the start: {nodes} nodes in {seconds:.3} s = {:.1} M nodes/s",
        nodes as f64 / seconds / 1e6
    );

    let mut group = c.benchmark_group("checkers");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(10));
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("perft_11_from_start", |b| {
        b.iter(|| perft(black_box(&start), black_box(DEPTH)));
    });
    if Instructions::detected() != Instructions::BASELINE {
        let baseline = Instructions::BASELINE;
        group.bench_function("perft_11_from_start baseline", |b| {
            b.iter(|| perft_in(baseline, black_box(&start), black_box(DEPTH)));
        });
    }
    group.finish();
}

criterion_group!(benches, perft_from_the_start);
criterion_main!(benches);
