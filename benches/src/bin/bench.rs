//! `bench [--suite S]... [--no-check]`: runs the fixed search suites once
//! and prints `nodes N nps R` per suite and in total (R: nodes per CPU
//! second), for quick before/after checks of a search change; the total line
//! names the code path the engine ran (see `ENGINE_CODE_PATH`). Fails when a
//! suite's node count differs from the expected one in `benches::Suite`.

use benches::{Suite, SuiteRun, SuiteRunner};
use clap::Parser;
use std::process::ExitCode;

/// Runs the fixed search suites and reports nodes and nodes per CPU second.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Suite to run: othello8, duo12 or pente (repeatable; default: all).
    #[arg(long = "suite", value_name = "SUITE")]
    suites: Vec<Suite>,
    /// Only report: do not compare the node counts with the expected ones.
    #[arg(long)]
    no_check: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let suites = if args.suites.is_empty() { Suite::ALL.to_vec() } else { args.suites };
    let mut total = SuiteRun::default();
    let mut mismatches = Vec::new();
    for suite in suites {
        let mut runner = SuiteRunner::new(suite);
        let run = runner.run();
        println!(
            "{:<9} positions {} depth {:>2} {:>7.3} s nodes {} nps {:.0}",
            suite.name(),
            runner.len(),
            suite.depth(),
            run.seconds,
            run.nodes,
            run.nps()
        );
        if run.nodes != suite.expected_nodes() {
            mismatches.push((suite, run.nodes));
        }
        total.nodes += run.nodes;
        total.seconds += run.seconds;
    }
    println!(
        "{:<9} code path {:<8} {:>10.3} s nodes {} nps {:.0}",
        "total",
        engine::code_path_name(),
        total.seconds,
        total.nodes,
        total.nps()
    );
    if args.no_check || mismatches.is_empty() {
        return ExitCode::SUCCESS;
    }
    for (suite, nodes) in mismatches {
        eprintln!(
            "error: suite {suite} searched {nodes} nodes, expected {} (search behaviour changed: update {} in benches/src/lib.rs, or pass --no-check)",
            suite.expected_nodes(),
            suite.nodes_constant()
        );
    }
    ExitCode::FAILURE
}
