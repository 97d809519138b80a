//! `perft --variant NAME --depth D [--position FILE]`: counts the game tree
//! of a Reversi variant and reports the node rate (wall and CPU time) and
//! the code path used (`ENGINE_CODE_PATH=portable|avx2` caps it).

use clap::Parser;
use engine_core::cputime::CpuTimer;
use reversi::with_geometry;
use reversi::{Geometry, Position, Variant, perft};
use std::process::ExitCode;
use std::time::Instant;

/// Counts the leaves of the game tree at every depth up to D.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Variant: tiny4, othello6, othello8, othello10, othello12 or duo12.
    #[arg(long)]
    variant: Variant,
    /// Deepest depth to count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=reversi::MAX_PERFT_DEPTH as i64))]
    depth: u32,
    /// Start from the position in FILE (position text form) instead of the
    /// variant's start position.
    #[arg(long, value_name = "FILE")]
    position: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match with_geometry!(args.variant, G => run::<G>(&args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("perft: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run<G: Geometry>(args: &Args) -> Result<(), String> {
    let root: Position<G> = match &args.position {
        None => args.variant.start(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
            Position::parse(&text, args.variant.scoring()).map_err(|e| format!("{}:{e}", path.display()))?
        }
    };
    let start = Instant::now();
    let cpu = CpuTimer::start();
    let counts = perft(&root, args.depth as usize);
    let seconds = start.elapsed().as_secs_f64();
    let cpu_seconds = cpu.elapsed().as_secs_f64();
    for (d, count) in counts.leaves.iter().enumerate() {
        println!("{} {count}", d + 1);
    }
    let total = *counts.leaves.last().expect("depth is at least 1");
    println!(
        "total {total} nodes, {seconds:.3} s, {:.0} nodes/s ({} interior nodes, {:.0} interior nodes/s)",
        total as f64 / seconds.max(1e-9),
        counts.interior,
        counts.interior as f64 / seconds.max(1e-9),
    );
    // On a busy machine the wall time includes waiting for a core; the CPU
    // time is what the walk used.
    println!(
        "cpu {cpu_seconds:.3} s, {:.0} interior nodes per cpu second, code path {}",
        counts.interior as f64 / cpu_seconds.max(1e-9),
        engine_core::code_path_name(),
    );
    Ok(())
}
