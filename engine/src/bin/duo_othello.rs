//! `duo-othello`: the Duo-Othello competition agent. No arguments: reads
//! `input.txt` in the current folder and writes one move to `output.txt`;
//! uses `calibration.txt` and `playdata.txt` when present and valid. Logs go
//! to stderr. Exit status 1 (and no `output.txt`) only when the side or the
//! board cannot be read.

use engine::agent::played_line;
use engine::protocol::duo;
use std::path::Path;

fn main() {
    match duo::play(Path::new(".")) {
        Ok(outcome) => {
            for w in &outcome.warnings {
                eprintln!("warning: {w}");
            }
            let cpu = engine::cputime::process_cpu_time().as_secs_f64();
            eprintln!("{}", played_line(outcome.mv, outcome.search.as_ref(), cpu));
        }
        Err(e) => {
            eprintln!("duo-othello: {e}");
            std::process::exit(1);
        }
    }
}
