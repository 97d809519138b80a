//! `duo-calibrate`: measures this machine's speed (pattern evaluations and
//! search nodes per CPU second, about 2 s of CPU in all) and writes
//! `calibration.txt` in the current folder for `duo-othello`.

use engine_core::cputime::process_cpu_time;
use reversi::protocol::duo::{self, Calibration};
use std::path::Path;

/// CPU seconds spent measuring evaluations.
const EVAL_BUDGET: f64 = 0.3;
/// CPU seconds spent measuring the search.
const SEARCH_BUDGET: f64 = 1.5;

/// What `--help` prints: what the program does first, then how to run it.
const HELP: &str = "\
Measures this machine's speed for duo-othello and writes calibration.txt (about 2 s of CPU).

usage: duo-calibrate
  Run once per machine, in the folder duo-othello plays in; prints what it
  wrote.
";

fn main() {
    if reversi::protocol::asks_for_help(std::env::args().skip(1)) {
        print!("{HELP}");
        return;
    }
    let evals_per_second = duo::measure_evals(EVAL_BUDGET);
    let nps = match duo::measure_nps(SEARCH_BUDGET) {
        Ok(nps) => nps,
        Err(e) => {
            eprintln!("duo-calibrate: {e}");
            std::process::exit(1);
        }
    };
    let calibration = Calibration { nps, evals_per_second, cpu_seconds: process_cpu_time().as_secs_f64() };
    if let Err(e) = duo::write_calibration(Path::new("."), &calibration) {
        eprintln!("duo-calibrate: {e}");
        std::process::exit(1);
    }
    print!("{}", calibration.to_text());
}
