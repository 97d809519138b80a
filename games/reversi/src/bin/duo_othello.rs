//! `duo-othello`: the Duo-Othello competition agent. Reads
//! `input.txt` in the current folder and writes one move to `output.txt`;
//! takes no arguments but `--param NAME=VALUE` (a search parameter, for
//! matches against the defaults);
//! uses `calibration.txt` and `playdata.txt` when present and valid. Logs go
//! to stderr. Exit status 1 (and no `output.txt`) only when the side or the
//! board cannot be read.

use engine_core::agent::played_line;
use engine_core::search::ParamSettings;
use reversi::ReversiParams;
use reversi::protocol::duo;
use std::path::Path;

/// What `--help` prints: what the program does first, then how to run it.
const HELP: &str = "\
The Duo-Othello (12x12) competition agent: reads input.txt, writes one move to output.txt.

usage: duo-othello [--param NAME=VALUE]...
  Run in the game folder. Uses calibration.txt (from duo-calibrate) and
  playdata.txt when present; logs to stderr. --param sets a search
  parameter (docs/src/engine/parameters.md). Exit status 1, and no
  output.txt, only when the side or the board cannot be read.
";

fn main() {
    if reversi::protocol::asks_for_help(std::env::args().skip(1)) {
        print!("{HELP}");
        return;
    }
    let params =
        ParamSettings::from_args(std::env::args().skip(1)).and_then(|p| p.check::<ReversiParams>().map(|()| p));
    let params = match params {
        Ok(p) => p,
        Err(e) => {
            eprintln!("duo-othello: {e}");
            std::process::exit(2);
        }
    };
    match duo::play(Path::new("."), &params) {
        Ok(outcome) => {
            for w in &outcome.warnings {
                eprintln!("warning: {w}");
            }
            let cpu = engine_core::cputime::process_cpu_time().as_secs_f64();
            eprintln!("{}", played_line(outcome.mv, outcome.search.as_ref(), cpu));
        }
        Err(e) => {
            eprintln!("duo-othello: {e}");
            std::process::exit(1);
        }
    }
}
