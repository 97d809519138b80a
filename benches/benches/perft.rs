//! perft throughput: interior nodes (positions whose moves are generated) per
//! second, from the start of othello8 and duo12, through the public
//! `reversi::perft` (which runs the best code path for the CPU).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use reversi::{Geometry, Position, Size8, Size12, Variant, perft};
use std::hint::black_box;

/// Benches perft(`depth`) of `variant` in `group`, counting interior nodes.
fn bench_perft<G: Geometry>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    variant: Variant,
    depth: usize,
) {
    let root: Position<G> = variant.start();
    let interior = perft(&root, depth).interior;
    group.throughput(Throughput::Elements(interior));
    group.bench_function(format!("{variant}/depth {depth}"), |b| b.iter(|| perft(black_box(&root), depth)));
}

fn perft_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    bench_perft::<Size8>(&mut group, Variant::Othello8, 9);
    bench_perft::<Size12>(&mut group, Variant::Duo12, 7);
    group.finish();
}

criterion_group!(benches, perft_throughput);
criterion_main!(benches);
