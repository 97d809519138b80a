//! Search throughput: nodes per CPU second of the fixed search suites of
//! `benches::Suite` (othello8, duo12, pente), each position searched to the
//! suite's depth from a cleared table. The node count is checked against
//! the suite's expected count before timing.

use benches::{Suite, SuiteRunner};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::time::Duration;

/// Samples per suite (criterion's minimum: a suite run takes about half a second).
const SAMPLES: usize = 10;
/// Warm-up time per suite.
const WARM_UP: Duration = Duration::from_secs(1);
/// Target measurement time per suite.
const MEASUREMENT: Duration = Duration::from_secs(3);

/// Times whole suite runs; the time criterion sees is the searches' own CPU
/// time (robust on a loaded machine), without the table clearing between
/// positions.
fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(SAMPLES).warm_up_time(WARM_UP).measurement_time(MEASUREMENT);
    group.sampling_mode(SamplingMode::Flat);
    for suite in Suite::ALL {
        let mut runner = SuiteRunner::new(suite);
        let nodes = runner.run().nodes;
        assert_eq!(
            nodes,
            suite.expected_nodes(),
            "suite {suite}: search behaviour changed (update {} in benches/src/lib.rs)",
            suite.nodes_constant()
        );
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{suite}/depth {}", suite.depth()), |b| {
            b.iter_custom(|iters| (0..iters).map(|_| runner.run().duration()).sum())
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
