//! `pente`: the Pente competition agent. Reads `input.txt` in the current
//! directory, writes its move to `output.txt` (e.g. `9N`), per the handout
//! and PROTOCOLS.md. Takes no arguments but `--param NAME=VALUE` (a search
//! parameter, for matches against the defaults). Logs the move and what the search
//! found to stderr.

use engine_core::agent::{Agent, Clock, played_line};
use engine_core::cputime::process_cpu_time;
use engine_core::search::{EngineConfig, NoParams, ParamSettings};
use pente::pente_engine;
use pente::protocol::{output_text, parse_input};
use pente::search::{PANIC_SECONDS, quick_move};
use std::process::ExitCode;

use engine_core::agent::{INPUT_FILE as INPUT, OUTPUT_FILE as OUTPUT};

/// What `--help` prints: what the program does first, then how to run it.
const HELP: &str = "\
The Pente (19x19) competition agent: reads input.txt, writes one move (e.g. 9N) to output.txt.

usage: pente [--param NAME=VALUE]...
  Run in the game folder; logs to stderr. --param sets a search parameter
  (docs/src/engine/parameters.md).
";

fn main() -> ExitCode {
    if engine_core::agent::asks_for_help(std::env::args().skip(1)) {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    let params = ParamSettings::from_args(std::env::args().skip(1)).and_then(|p| p.check::<NoParams>().map(|()| p));
    let params = match params {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pente: {e} (reads {INPUT}, writes {OUTPUT})");
            return ExitCode::FAILURE;
        }
    };
    match run(&params) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("pente: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(params: &ParamSettings) -> Result<(), String> {
    let text = std::fs::read_to_string(INPUT).map_err(|e| format!("{INPUT}: cannot read: {e}"))?;
    let input = parse_input(&text).map_err(|e| format!("{INPUT}: {e}"))?;
    let clock = Clock { own_remaining: input.time_left, opponent_remaining: input.time_left };
    let search = if input.time_left < PANIC_SECONDS {
        None
    } else {
        Some(
            pente_engine(EngineConfig { params: params.clone(), ..EngineConfig::default() })?
                .choose(&input.position, &clock),
        )
    };
    let mv = search.map_or_else(|| quick_move(&input.position), |d| d.mv);
    std::fs::write(OUTPUT, output_text(mv)).map_err(|e| format!("{OUTPUT}: cannot write: {e}"))?;
    eprintln!("{}", played_line(mv, search.as_ref(), process_cpu_time().as_secs_f64()));
    Ok(())
}
