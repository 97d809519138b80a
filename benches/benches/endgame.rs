//! Exact endgame solver throughput: nodes per CPU second over the small FFO
//! subset `benches::ENDGAME_SUBSET`, each position solved from a cleared
//! table; every solved score is checked against the FFO file's.

use benches::{SuiteRun, endgame_positions};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use engine_core::search::{Limits, Searcher};
use reversi::eval::{PatternEval, SCORE_PER_DISC};
use reversi::ffo::FfoPosition;
use reversi::{Position, Size8, Variant};
use std::time::Duration;

/// Transposition table of the solver, in MiB.
const TT_MB: usize = 16;
/// Samples (criterion's minimum: the subset takes about a quarter second).
const SAMPLES: usize = 10;
/// Warm-up time.
const WARM_UP: Duration = Duration::from_secs(1);
/// Target measurement time.
const MEASUREMENT: Duration = Duration::from_secs(4);

/// Solves every position of `subset` exactly, checking each score.
fn solve_all(searcher: &mut Searcher<Position<Size8>, PatternEval<Size8>>, subset: &[FfoPosition]) -> SuiteRun {
    let mut run = SuiteRun::default();
    for p in subset {
        searcher.clear();
        let limits = Limits { depth: Some(p.position.empty_count()), solve: true, ..Limits::default() };
        let r = searcher.search(&p.position, &limits);
        assert!(r.exact, "FFO #{} was not solved", p.number);
        assert_eq!(r.score, Some(p.score() * SCORE_PER_DISC), "FFO #{}: wrong score", p.number);
        run.nodes += r.nodes;
        run.seconds += r.seconds;
    }
    run
}

fn endgame(c: &mut Criterion) {
    let subset = endgame_positions(env!("CARGO_MANIFEST_DIR").as_ref()).unwrap_or_else(|e| panic!("{e}"));
    let mut searcher = Searcher::new(Box::new(PatternEval::<Size8>::compiled(Variant::Othello8)), TT_MB);
    let nodes = solve_all(&mut searcher, &subset).nodes;
    let mut group = c.benchmark_group("endgame");
    group.sample_size(SAMPLES).warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(nodes));
    let numbers: Vec<_> = subset.iter().map(|p| p.number.to_string()).collect();
    group.bench_function(format!("ffo {}", numbers.join(",")), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let run = solve_all(&mut searcher, &subset);
                    assert_eq!(run.nodes, nodes, "the solver is not deterministic");
                    run.duration()
                })
                .sum()
        })
    });
    group.finish();
}

criterion_group!(benches, endgame);
criterion_main!(benches);
