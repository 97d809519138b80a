//! Legal-move generation and flips per call, over positions of random games
//! of othello8 and duo12, through the public `Position` methods.

use benches::playout_positions;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine_core::bitboard::BitSet;
use reversi::{Geometry, Position, Size8, Size12, Variant};
use std::hint::black_box;

/// Random games whose positions are benched, per variant.
const GAMES: usize = 20;
/// Seed of those games.
const SEED: u64 = 2026;

/// Benches `Position::moves` and `Position::flips` on the positions of
/// `GAMES` random games of `variant`; one element is one call.
fn bench_variant<G: Geometry>(c: &mut Criterion, variant: Variant) {
    let positions: Vec<Position<G>> = playout_positions(variant, GAMES, SEED);
    let mut group = c.benchmark_group(format!("movegen/{variant}"));
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| positions.iter().map(|pos| black_box(pos).moves().count()).sum::<u32>())
    });
    let moves: usize = positions.iter().map(|pos| pos.moves().count() as usize).sum();
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function("flips", |b| {
        b.iter(|| {
            positions
                .iter()
                .flat_map(|pos| pos.moves().iter().map(move |cell| black_box(pos).flips(cell).count()))
                .sum::<u32>()
        })
    });
    group.finish();
}

fn movegen(c: &mut Criterion) {
    bench_variant::<Size8>(c, Variant::Othello8);
    bench_variant::<Size12>(c, Variant::Duo12);
}

criterion_group!(benches, movegen);
criterion_main!(benches);
