//! Evaluation calls per second: the pattern evaluation of othello8 and duo12
//! and the Pente evaluation, over the positions of seeded random games,
//! timed in CPU time.

use benches::{cpu_time, pente_playout_positions, playout_positions};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime};
use engine_core::game::Game;
use pente::eval::PenteEval;
use reversi::eval::{Evaluator, PatternEval};
use reversi::{Geometry, Position, Size8, Size12, Variant};
use std::hint::black_box;
use std::time::Duration;

/// Random games whose positions are evaluated, per game.
const GAMES: usize = 20;
/// Seed of those games.
const SEED: u64 = 2026;
/// Pente games are cut off after this many moves.
const PENTE_PLIES: usize = 60;
/// Warm-up time per evaluator.
const WARM_UP: Duration = Duration::from_secs(1);
/// Target measurement time per evaluator.
const MEASUREMENT: Duration = Duration::from_secs(3);

/// Benches `PatternEval` of `variant` on every position of `GAMES` random
/// games; one element is one evaluation.
fn bench_reversi<G: Geometry>(group: &mut BenchmarkGroup<'_, WallTime>, variant: Variant) {
    let positions: Vec<Position<G>> = playout_positions(variant, GAMES, SEED);
    let eval = PatternEval::<G>::compiled(variant);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(variant.to_string(), |b| {
        b.iter_custom(|iters| cpu_time(iters, || eval.evaluate_sum(&positions)))
    });
}

/// The sum of the evaluations of `positions` (so none is optimised away).
fn evaluate_all<S: Game, E: Evaluator<S>>(eval: &E, positions: &[S]) -> i64 {
    positions.iter().map(|pos| i64::from(eval.evaluate(black_box(pos)))).sum()
}

fn eval(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    group.warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    bench_reversi::<Size8>(&mut group, Variant::Othello8);
    bench_reversi::<Size12>(&mut group, Variant::Duo12);
    let positions = pente_playout_positions(GAMES, PENTE_PLIES, SEED);
    let eval = PenteEval::default();
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("pente", |b| b.iter_custom(|iters| cpu_time(iters, || evaluate_all(&eval, &positions))));
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
