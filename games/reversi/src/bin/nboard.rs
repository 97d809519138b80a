//! `nboard [--tt MIB] [--eval E] [--weights FILE] [--selectivity PCT]
//! [--param NAME=VALUE]`: the engine as an NBoard engine for 8x8 Othello,
//! speaking the NBoard protocol on stdin/stdout (see
//! `reversi::protocol::nboard`); complaints about commands go to stderr.

use clap::Parser;
use engine_core::search::Objective;
use reversi::analysis::EngineOptions;
use reversi::protocol::nboard::{Flow, Session};
use std::io::BufRead;
use std::process::ExitCode;

/// Plays 8x8 Othello through the NBoard protocol on stdin/stdout.
#[derive(Parser)]
#[command(version)]
struct Args {
    #[command(flatten)]
    engine: EngineOptions,
}

fn run(args: &Args) -> Result<(), String> {
    let mut session = Session::new(args.engine.config(None, Objective::Wins)?)?;
    let (mut out, mut log) = (std::io::stdout().lock(), std::io::stderr().lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("stdin: {e}"))?;
        match session.handle(&line, &mut out, &mut log) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => break,
            // The GUI went away.
            Err(e) => return Err(format!("stdout: {e}")),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nboard: {e}");
            ExitCode::FAILURE
        }
    }
}
